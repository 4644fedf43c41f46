import type { Tables } from '../../platform/db/schema.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { Timezone, TimezoneRegistry } from '../content/timezones.js';
import { type DirectoryImport, parseDirectoryImport, SECTIONS, validateDirectoryImport } from './import.js';
import type {
  CategoryRecord,
  CourseRecord,
  CurriculumRecord,
  DirectoryRepository,
  UserFilter,
  UserRecord,
  VenueRecord,
  Window,
} from './repository.js';
import {
  CATEGORIES_MAX_LIMIT,
  COURSES_MAX_LIMIT,
  CURRICULUMS_MAX_LIMIT,
  DEFAULT_LIMIT,
  MAX_ID,
  USERS_MAX_LIMIT,
  VENUES_MAX_LIMIT,
} from './schemas.js';

export interface ListInput {
  start?: number;
  limit?: number;
  search?: string;
}

/** A course with its categories resolved, in the order of `categoryIds`. */
export type CourseWithCategories = CourseRecord & { categories: CategoryRecord[] };

export type ImportCounts = Record<(typeof SECTIONS)[number], number>;

/** `start` and `limit` as the database takes them: `limit` clamped to the list's maximum, never refused. */
export function listWindow(input: ListInput, max: number): Window {
  return {
    // Past this, every list is empty anyway; keeps the offset inside both databases' integer range.
    start: Math.min(input.start ?? 0, MAX_ID),
    limit: Math.min(input.limit ?? DEFAULT_LIMIT, max),
  };
}

/** The repositories this service's writes touch, bound to one transaction in `work.run`. */
export interface DirectoryWork {
  directory: DirectoryRepository;
}

/**
 * The academy directory: the users, courses, curriculums, categories and
 * venues that events refer to. Read over HTTP; written by the import.
 */
export class DirectoryService {
  private readonly repo: DirectoryRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, DirectoryWork>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.directory;
  }

  // ------------------------------------------------------------ reads

  listUsers(academyId: AcademyTenantId, input: ListInput & { role?: string }): Promise<UserRecord[]> {
    const filter: UserFilter = {
      ...(input.search !== undefined ? { search: input.search } : {}),
      ...(input.role !== undefined ? { role: input.role } : {}),
    };
    return this.repo.listUsers(academyId, filter, listWindow(input, USERS_MAX_LIMIT));
  }

  async getUser(academyId: AcademyTenantId, id: number): Promise<UserRecord> {
    const user = await this.repo.findUser(academyId, id);
    if (!user) throw new NotFoundError('user', String(id));
    return user;
  }

  async listCourses(academyId: AcademyTenantId, input: ListInput): Promise<CourseWithCategories[]> {
    return this.withCategories(
      academyId,
      await this.repo.listCourses(academyId, input.search, listWindow(input, COURSES_MAX_LIMIT)),
    );
  }

  async getCourse(academyId: AcademyTenantId, id: number): Promise<CourseWithCategories> {
    const course = await this.repo.findCourse(academyId, id);
    if (!course) throw new NotFoundError('course', String(id));
    return (await this.withCategories(academyId, [course]))[0] as CourseWithCategories;
  }

  private async withCategories(academyId: AcademyTenantId, courses: CourseRecord[]): Promise<CourseWithCategories[]> {
    const found = await this.repo.categoriesByIds(
      academyId,
      courses.flatMap((c) => c.categoryIds),
    );
    const byId = new Map(found.map((c) => [c.id, c]));
    return courses.map((course) => ({
      ...course,
      categories: course.categoryIds.flatMap((id) => byId.get(id) ?? []),
    }));
  }

  listCurriculums(academyId: AcademyTenantId, input: ListInput): Promise<CurriculumRecord[]> {
    return this.repo.listCurriculums(academyId, input.search, listWindow(input, CURRICULUMS_MAX_LIMIT));
  }

  async getCurriculum(academyId: AcademyTenantId, id: number): Promise<CurriculumRecord> {
    const curriculum = await this.repo.findCurriculum(academyId, id);
    if (!curriculum) throw new NotFoundError('curriculum', String(id));
    return curriculum;
  }

  listCategories(academyId: AcademyTenantId, input: ListInput): Promise<CategoryRecord[]> {
    return this.repo.listCategories(academyId, input.search, listWindow(input, CATEGORIES_MAX_LIMIT));
  }

  listVenues(academyId: AcademyTenantId, input: ListInput): Promise<VenueRecord[]> {
    return this.repo.listVenues(academyId, input.search, listWindow(input, VENUES_MAX_LIMIT));
  }

  /** Every timezone, with the labels and offsets in force now. */
  listTimezones(registry: TimezoneRegistry): Timezone[] {
    return registry.list(this.clock.now());
  }

  // ------------------------------------------------------------ import

  /**
   * Imports a directory file (already parsed from JSON) into one academy:
   * every item is inserted, or every field of the item with that id is
   * replaced. One transaction: a file with any error writes nothing.
   */
  async import(academyId: AcademyTenantId, data: unknown): Promise<ImportCounts> {
    await this.requireAcademy(academyId);
    return this.apply(academyId, validateDirectoryImport(data));
  }

  /** The same, from the text of an import file (the CLI). */
  async importText(academyId: AcademyTenantId, text: string): Promise<ImportCounts> {
    await this.requireAcademy(academyId);
    return this.apply(academyId, parseDirectoryImport(text));
  }

  private async requireAcademy(academyId: AcademyTenantId): Promise<void> {
    if (!(await this.repo.academyExists(academyId))) throw new NotFoundError('academy', String(academyId));
  }

  private async apply(academyId: AcademyTenantId, doc: DirectoryImport): Promise<ImportCounts> {
    const at = this.clock.now();
    await this.work.run(async ({ directory: repo }) => {
      await this.checkCategories(repo, academyId, doc);
      await repo.upsertCategories(
        academyId,
        (doc.categories ?? []).map((c) => ({ id: c.id, name: c.name })),
      );
      await repo.upsertUsers(
        academyId,
        (doc.users ?? []).map((u) => ({
          id: u.id,
          firstname: u.firstname,
          middlename: u.middlename ?? null,
          lastname: u.lastname,
          preferredName: u.preferred_name ?? null,
          email: u.email,
          role: u.role ?? 'employee',
          active: u.active !== false,
          externalId: u.external_id ?? null,
          hiredDate: u.hired_date ?? null,
          joinedDate: u.joined_date ?? null,
          image: u.image ?? null,
          units: (u.units ?? []).map((unit) => ({ id: unit.id, name: unit.name })),
        })),
        at,
      );
      await repo.upsertCourses(
        academyId,
        (doc.courses ?? []).map((c) => ({
          id: c.id,
          title: c.title,
          description: c.description ?? '',
          categoryIds: c.categoryIds ?? [],
          externalId: c.external_id ?? null,
        })),
      );
      await repo.upsertCurriculums(
        academyId,
        (doc.curriculums ?? []).map((c) => ({
          id: c.id,
          title: c.title,
          description: c.description ?? '',
          categoryId: c.categoryId ?? null,
          externalId: c.external_id ?? null,
        })),
      );
      await repo.upsertVenues(
        academyId,
        (doc.venues ?? []).map((v) => ({
          id: v.id,
          name: v.name,
          seats: v.seats,
          address: v.address ?? null,
          city: v.city ?? null,
          latitude: v.latitude ?? null,
          longitude: v.longitude ?? null,
        })),
      );
    });
    return Object.fromEntries(SECTIONS.map((s) => [s, doc[s]?.length ?? 0])) as ImportCounts;
  }

  /** Course and curriculum categories must exist once the import is done: in the file or already stored. */
  private async checkCategories(
    repo: DirectoryRepository,
    academyId: AcademyTenantId,
    doc: DirectoryImport,
  ): Promise<void> {
    const inFile = new Set((doc.categories ?? []).map((c) => c.id));
    const refs: { field: string; id: number }[] = [];
    (doc.courses ?? []).forEach((c, i) => {
      (c.categoryIds ?? []).forEach((id, j) => {
        refs.push({ field: `courses.${i}.categoryIds.${j}`, id });
      });
    });
    (doc.curriculums ?? []).forEach((c, i) => {
      if (c.categoryId != null) refs.push({ field: `curriculums.${i}.categoryId`, id: c.categoryId });
    });
    const outside = refs.filter((r) => !inFile.has(r.id)).map((r) => r.id);
    if (outside.length === 0) return;
    const stored = new Set((await repo.categoriesByIds(academyId, outside)).map((c) => c.id));
    const errors: FieldError[] = refs
      .filter((r) => !inFile.has(r.id) && !stored.has(r.id))
      .map((r) => ({ field: r.field, code: 'not_found', message: `No category has the id ${r.id}.` }));
    if (errors.length) throw new FieldValidationError(errors);
  }
}
