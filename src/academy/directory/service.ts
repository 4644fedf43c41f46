import type { Tables } from '../../platform/db/schema.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { Timezone, TimezoneRegistry } from '../content/timezones.js';
import { CONTENT_MAX_LIMIT, type ContentQuery } from './content-schemas.js';
import { CoursesService } from './courses-service.js';
import { CurriculumsService } from './curriculums-service.js';
import { type DirectoryImport, parseDirectoryImport, SECTIONS, validateDirectoryImport } from './import.js';
import { checkReferences, writeImport } from './import-apply.js';
import type { DirectoryRepository, DirectoryWork } from './repository.js';
import { type ListInput, listWindow } from './repository-common.js';
import type { CategoryRecord, ContentRecord, VenueRecord } from './repository-content.js';
import type { BadgeRecord, UserFilter, UserRecord } from './repository-users.js';
import { CATEGORIES_MAX_LIMIT, USERS_MAX_LIMIT, VENUES_MAX_LIMIT } from './schemas.js';
import { resolveUser } from './users-service.js';

export type { ListInput } from './repository-common.js';
export { listWindow } from './repository-common.js';

export type ImportCounts = Record<(typeof SECTIONS)[number], number>;

export type { DirectoryWork } from './repository.js';

/**
 * The academy directory: the users, courses, curriculums, categories, venues, content items and enrollments that
 * events and clients refer to. Read over HTTP; written by the import (and a curriculum's completeByAdmin).
 */
export class DirectoryService {
  private readonly repo: DirectoryRepository;
  readonly courses: CoursesService;
  readonly curriculums: CurriculumsService;

  constructor(
    private readonly work: UnitOfWork<Tables, DirectoryWork>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.directory;
    this.courses = new CoursesService(this.repo);
    this.curriculums = new CurriculumsService(work, clock);
  }

  // ------------------------------------------------------------ reads

  listUsers(academyId: AcademyTenantId, input: ListInput & { role?: string }): Promise<UserRecord[]> {
    const filter: UserFilter = {
      ...(input.search !== undefined ? { search: input.search } : {}),
      ...(input.role !== undefined ? { role: input.role } : {}),
    };
    return this.repo.users.listUsers(academyId, filter, listWindow(input, USERS_MAX_LIMIT));
  }

  async getUser(academyId: AcademyTenantId, id: number): Promise<UserRecord> {
    const user = await this.repo.users.findUser(academyId, id);
    if (!user) throw new NotFoundError('user', String(id));
    return user;
  }

  /** A user's badges, in the file's order. */
  async badges(academyId: AcademyTenantId, userId: string): Promise<BadgeRecord[]> {
    return (await resolveUser(this.repo.users, academyId, userId, false)).badges;
  }

  listCategories(academyId: AcademyTenantId, input: ListInput): Promise<CategoryRecord[]> {
    return this.repo.content.listCategories(academyId, input.search, listWindow(input, CATEGORIES_MAX_LIMIT));
  }

  listVenues(academyId: AcademyTenantId, input: ListInput): Promise<VenueRecord[]> {
    return this.repo.content.listVenues(academyId, input.search, listWindow(input, VENUES_MAX_LIMIT));
  }

  /** Content items: newest first by default; `tags` is a comma-separated list (items with any of them). */
  listContent(academyId: AcademyTenantId, input: ContentQuery): Promise<ContentRecord[]> {
    const tags = input.tags
      ?.split(',')
      .map((t) => t.trim())
      .filter((t) => t.length > 0);
    return this.repo.content.listContent(
      academyId,
      {
        orderBy: input.order_by ?? 'time_added',
        direction: input.direction ?? 'desc',
        ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
        ...(input.type_id !== undefined ? { typeId: input.type_id } : {}),
        ...(input.sub_type_id !== undefined ? { subTypeId: input.sub_type_id } : {}),
        ...(tags !== undefined && tags.length > 0 ? { tags } : {}),
        ...(input.search !== undefined ? { search: input.search } : {}),
      },
      listWindow(input, CONTENT_MAX_LIMIT),
    );
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
    if (!(await this.repo.users.academyExists(academyId))) throw new NotFoundError('academy', String(academyId));
  }

  private async apply(academyId: AcademyTenantId, doc: DirectoryImport): Promise<ImportCounts> {
    const at = this.clock.now();
    await this.work.run(async ({ directory }) => {
      await checkReferences(directory, academyId, doc);
      await writeImport(directory, academyId, doc, at);
    });
    return Object.fromEntries(SECTIONS.map((s) => [s, doc[s]?.length ?? 0])) as ImportCounts;
  }
}
