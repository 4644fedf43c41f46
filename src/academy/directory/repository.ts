import type { Db } from '../../platform/db/database.js';
import { ContentRepository } from './repository-content.js';
import { CoursesRepository } from './repository-courses.js';
import { CurriculumsRepository } from './repository-curriculums.js';
import { EnrollmentsRepository } from './repository-enrollments.js';
import { UsersRepository } from './repository-users.js';

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
