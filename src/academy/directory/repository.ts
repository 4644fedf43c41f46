import type { Db } from '../../platform/db/database.js';
import { ContentRepository } from './content-repository.js';
import { CoursesRepository } from './courses-repository.js';
import { CurriculumsRepository } from './curriculums-repository.js';
import { EnrollmentsRepository } from './enrollments-repository.js';
import { UsersRepository } from './users-repository.js';

/**
 * The academy directory's tables, one repository per resource (users, courses, curriculums, content with its
 * categories and venues, enrollments), bound to one database or transaction.
 */
export class DirectoryRepository {
  readonly users: UsersRepository;
  readonly courses: CoursesRepository;
  readonly curriculums: CurriculumsRepository;
  readonly content: ContentRepository;
  readonly enrollments: EnrollmentsRepository;

  constructor(db: Db) {
    this.users = new UsersRepository(db);
    this.courses = new CoursesRepository(db);
    this.curriculums = new CurriculumsRepository(db);
    this.content = new ContentRepository(db);
    this.enrollments = new EnrollmentsRepository(db);
  }
}

/** The repositories the directory's writes touch, bound to one transaction in `work.run`. */
export interface DirectoryWork {
  directory: DirectoryRepository;
}
