import type { Tables } from '../../platform/db/schema.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import {
  type CompleteBody,
  type CompleteQuery,
  type CurriculumStudentsQuery,
  STUDENTS_DEFAULT_LIMIT,
  STUDENTS_MAX_LIMIT,
  USER_ITEMS_MAX_LIMIT,
  type UserCurriculumsQuery,
} from './learning-schemas.js';
import type { DirectoryRepository, DirectoryWork } from './repository.js';
import { listWindow } from './repository-common.js';
import type { CurriculumRecord } from './repository-curriculums.js';
import type { EnrollmentRecord, StudentRecord } from './repository-enrollments.js';
import { CURRICULUMS_MAX_LIMIT, type CurriculumsQuery } from './schemas.js';
import { resolveUser } from './users-service.js';

export type UserCurriculumView = CurriculumRecord & { enrollment: EnrollmentRecord };

export interface Completion {
  userIds: number[];
  completedAt: string;
}

/** The directory's curriculums (learning paths), their students, and their completion by an administrator. */
export class CurriculumsService {
  private readonly repo: DirectoryRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, DirectoryWork>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.directory;
  }

  list(academyId: AcademyTenantId, input: CurriculumsQuery): Promise<CurriculumRecord[]> {
    return this.repo.curriculums.listCurriculums(
      academyId,
      { search: input.search, status: input.status ?? 'active' },
      listWindow(input, CURRICULUMS_MAX_LIMIT),
    );
  }

  async get(academyId: AcademyTenantId, id: number): Promise<CurriculumRecord> {
    const curriculum = await this.repo.curriculums.findCurriculum(academyId, id);
    if (!curriculum) throw new NotFoundError('curriculum', String(id));
    return curriculum;
  }

  /** The curriculums a user is enrolled in, with the enrollment, in curriculum id order. */
  async ofUser(academyId: AcademyTenantId, userId: string, input: UserCurriculumsQuery): Promise<UserCurriculumView[]> {
    const user = await resolveUser(this.repo.users, academyId, userId, input.external_id === true);
    const enrollments = await this.repo.enrollments.ofUser(academyId, 'curriculum', user.id);
    const byId = new Map(enrollments.map((e) => [e.itemId, e]));
    const status = input.status ?? 'active';
    const found = (await this.repo.curriculums.curriculumsByIds(academyId, [...byId.keys()])).filter(
      (c) => c.status === status,
    );
    const window = listWindow(input, USER_ITEMS_MAX_LIMIT, USER_ITEMS_MAX_LIMIT);
    return found
      .slice(window.start, window.start + window.limit)
      .map((c) => ({ ...c, enrollment: byId.get(c.id) as EnrollmentRecord }));
  }

  async students(academyId: AcademyTenantId, id: number, input: CurriculumStudentsQuery): Promise<StudentRecord[]> {
    await this.get(academyId, id);
    return this.repo.enrollments.listStudents(
      academyId,
      'curriculum',
      id,
      {
        ...(input.onlyCompleted ? { onlyCompleted: true } : {}),
        ...(input.completionStartDate !== undefined ? { completedFrom: input.completionStartDate } : {}),
        ...(input.completionEndDate !== undefined ? { completedTo: input.completionEndDate } : {}),
      },
      listWindow(input, STUDENTS_MAX_LIMIT, STUDENTS_DEFAULT_LIMIT),
    );
  }

  /**
   * Marks the curriculum completed by an administrator for the users (ids, or with `externalIds` external ids):
   * progress 100 and the completion date (`completedAt`, default today UTC; a user already completed keeps the
   * date). A user not enrolled is enrolled as a student. Every user must exist (else 400 naming `userIds.N`).
   */
  async completeByAdmin(
    academyId: AcademyTenantId,
    id: number,
    body: CompleteBody,
    query: CompleteQuery,
  ): Promise<Completion> {
    const refs = Array.isArray(body) ? body : body.userIds;
    const completedAt = query.completedAt ?? new Date(this.clock.now()).toISOString().slice(0, 10);
    return this.work.run(async ({ directory }) => {
      if (!(await directory.curriculums.findCurriculum(academyId, id))) {
        throw new NotFoundError('curriculum', String(id));
      }
      const userIds = await this.userIds(directory, academyId, refs, query.externalIds === true);
      await directory.enrollments.completeByAdmin(academyId, 'curriculum', id, [...new Set(userIds)], completedAt);
      return { userIds, completedAt };
    });
  }

  private async userIds(
    repo: DirectoryRepository,
    academyId: AcademyTenantId,
    refs: (number | string)[],
    external: boolean,
  ): Promise<number[]> {
    const errors: FieldError[] = [];
    let ids: (number | undefined)[];
    if (external) {
      const byExternal = await repo.users.idsByExternalIds(academyId, refs.map(String));
      ids = refs.map((ref) => byExternal.get(String(ref)));
    } else {
      const numeric = refs.map((ref) =>
        typeof ref === 'number' ? ref : /^[1-9][0-9]{0,9}$/.test(ref) ? Number(ref) : 0,
      );
      const found = await repo.users.existingUserIds(
        academyId,
        numeric.filter((n) => n > 0),
      );
      ids = numeric.map((n) => (found.has(n) ? n : undefined));
    }
    ids.forEach((id, i) => {
      if (id === undefined) {
        errors.push({
          field: `userIds.${i}`,
          code: 'not_found',
          message: `No user has the ${external ? 'external ' : ''}id ${refs[i]}.`,
        });
      }
    });
    if (errors.length) throw new FieldValidationError(errors);
    return ids as number[];
  }
}
