import type { Selectable } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { chunks, type Window } from './repository-common.js';
import type { AcademyEnrollmentsTable } from './tables.js';

export type EnrollmentKind = 'course' | 'curriculum';

/** A user's enrollment in a course or curriculum. Dates are `YYYY-MM-DD`; `progress` is a percentage. */
export interface EnrollmentRecord {
  itemId: number;
  userId: number;
  role: string;
  couponId: number | null;
  enrolledDate: string;
  progress: number;
  timeSpent: number;
  completionDate: string | null;
  completedByAdmin: boolean;
}

/** An enrollment with the user's names: a row of a students list. */
export interface StudentRecord extends EnrollmentRecord {
  firstname: string;
  lastname: string;
  email: string;
  externalId: string | null;
}

function toEnrollment(row: Selectable<AcademyEnrollmentsTable>): EnrollmentRecord {
  return {
    itemId: row.item_id,
    userId: row.user_id,
    role: row.role,
    couponId: row.coupon_id,
    enrolledDate: row.enrolled_date,
    progress: row.progress,
    timeSpent: row.time_spent,
    completionDate: row.completion_date,
    completedByAdmin: row.completed_by_admin === 1,
  };
}

export type EnrollmentValues = Omit<EnrollmentRecord, 'completedByAdmin'> & { kind: EnrollmentKind };

export interface StudentFilter {
  onlyCompleted?: boolean;
  role?: string;
  couponId?: number;
  /** Completed on or after this date (implies completed). */
  completedFrom?: string;
  /** Completed on or before this date (implies completed). */
  completedTo?: string;
}

/** Enrollments (course and curriculum students). Every query takes the academy id first. */
export class EnrollmentsRepository extends AcademyRepository {
  /** A course's or curriculum's students, in user id order. */
  async listStudents(
    academyId: AcademyTenantId,
    kind: EnrollmentKind,
    itemId: number,
    filter: StudentFilter,
    window: Window,
  ): Promise<StudentRecord[]> {
    let query = this.tenant(academyId)
      .selectFrom('academy_enrollments as e')
      .innerJoin('academy_users as u', (join) =>
        // tenant-by-hand: the user is joined to the enrollment, read through `Tenant`, by the row's own academy.
        join.onRef('u.academy_id', '=', 'e.academy_id').onRef('u.id', '=', 'e.user_id'),
      )
      .selectAll('e')
      .select(['u.firstname', 'u.lastname', 'u.email', 'u.external_id'])
      .where('e.kind', '=', kind)
      .where('e.item_id', '=', itemId);
    if (filter.onlyCompleted || filter.completedFrom !== undefined || filter.completedTo !== undefined) {
      query = query.where('e.completion_date', 'is not', null);
    }
    if (filter.completedFrom !== undefined) query = query.where('e.completion_date', '>=', filter.completedFrom);
    if (filter.completedTo !== undefined) query = query.where('e.completion_date', '<=', filter.completedTo);
    if (filter.role !== undefined) query = query.where('e.role', '=', filter.role.toLowerCase());
    if (filter.couponId !== undefined) query = query.where('e.coupon_id', '=', filter.couponId);
    const rows = await query.orderBy('e.user_id').limit(window.limit).offset(window.start).execute();
    return rows.map((row) => ({
      ...toEnrollment(row),
      firstname: row.firstname,
      lastname: row.lastname,
      email: row.email,
      externalId: row.external_id,
    }));
  }

  /** A user's enrollments of one kind, in item id order. */
  async ofUser(academyId: AcademyTenantId, kind: EnrollmentKind, userId: number): Promise<EnrollmentRecord[]> {
    const rows = await this.tenant(academyId)
      .selectFrom('academy_enrollments')
      .selectAll()
      .where('kind', '=', kind)
      .where('user_id', '=', userId)
      .orderBy('item_id')
      .execute();
    return rows.map(toEnrollment);
  }

  /** Students per course or curriculum (dropped-out students not counted). */
  async studentCounts(academyId: AcademyTenantId, kind: EnrollmentKind, ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.tenant(academyId)
        .selectFrom('academy_enrollments')
        .select((eb) => ['item_id', eb.fn.countAll<number>().as('n')])
        .where('kind', '=', kind)
        .where('item_id', 'in', part)
        .where('role', '<>', 'dropped_out')
        .groupBy('item_id')
        .execute();
      for (const row of rows) out.set(row.item_id, Number(row.n));
    }
    return out;
  }

  /** Inserts, or replaces every field of the enrollment of that kind, item and user. */
  async upsert(academyId: AcademyTenantId, enrollments: EnrollmentValues[]): Promise<void> {
    for (const part of chunks(enrollments)) {
      await this.db
        .insertInto('academy_enrollments')
        .values(
          part.map((e) => ({
            academy_id: academyId,
            kind: e.kind,
            item_id: e.itemId,
            user_id: e.userId,
            role: e.role,
            coupon_id: e.couponId,
            enrolled_date: e.enrolledDate,
            progress: e.progress,
            time_spent: e.timeSpent,
            completion_date: e.completionDate,
            completed_by_admin: 0,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['academy_id', 'kind', 'item_id', 'user_id']).doUpdateSet((eb) => ({
            role: eb.ref('excluded.role'),
            coupon_id: eb.ref('excluded.coupon_id'),
            enrolled_date: eb.ref('excluded.enrolled_date'),
            progress: eb.ref('excluded.progress'),
            time_spent: eb.ref('excluded.time_spent'),
            completion_date: eb.ref('excluded.completion_date'),
            completed_by_admin: eb.ref('excluded.completed_by_admin'),
          })),
        )
        .execute();
    }
  }

  /**
   * Marks the users' enrollments completed by an administrator on `date` (progress 100); a user not enrolled is
   * enrolled as a student on that date. A user already completed keeps the completion date.
   */
  async completeByAdmin(
    academyId: AcademyTenantId,
    kind: EnrollmentKind,
    itemId: number,
    userIds: number[],
    date: string,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .insertInto('academy_enrollments')
      .values(
        userIds.map((userId) => ({
          academy_id: academyId,
          kind,
          item_id: itemId,
          user_id: userId,
          role: 'student',
          coupon_id: null,
          enrolled_date: date,
          progress: 100,
          time_spent: 0,
          completion_date: date,
          completed_by_admin: 1,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['academy_id', 'kind', 'item_id', 'user_id']).doUpdateSet((eb) => ({
          progress: eb.ref('excluded.progress'),
          completion_date: eb.fn.coalesce('academy_enrollments.completion_date', eb.ref('excluded.completion_date')),
          completed_by_admin: eb.ref('excluded.completed_by_admin'),
        })),
      )
      .execute();
  }
}
