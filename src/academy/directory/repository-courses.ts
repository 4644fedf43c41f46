import type { Selectable } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import { containsText } from '../../platform/db/search.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { barIndex, chunks, jsonObjects, type Window } from './repository-common.js';
import type { AcademyCoursesTable } from './tables.js';

export interface LectureRecord {
  id: number;
  title: string;
  type: string;
  duration: number;
}
export interface ExamRecord {
  id: number;
  title: string;
  passingScore: number | null;
  questions: number;
}
export interface SkillRecord {
  id: number;
  name: string;
}
export interface CouponRecord {
  id: number;
  code: string;
  discount: number;
  maxUses: number | null;
  expiresDate: string | null;
}
export interface InvitationRecord {
  id: number;
  email: string;
  sentDate: string;
  status: string;
}

/** A course as the domain sees it: its category ids and its lists decoded (the first category is the main one). */
export interface CourseRecord {
  id: number;
  title: string;
  description: string;
  categoryIds: number[];
  externalId: string | null;
  status: string;
  language: string | null;
  lectures: LectureRecord[];
  exams: ExamRecord[];
  skills: SkillRecord[];
  coupons: CouponRecord[];
  invitations: InvitationRecord[];
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function toCourse(row: Selectable<AcademyCoursesTable>): CourseRecord {
  const ids: unknown = JSON.parse(row.category_ids);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    categoryIds: Array.isArray(ids) ? ids.filter((v): v is number => typeof v === 'number') : [],
    externalId: row.external_id,
    status: row.status,
    language: row.language,
    lectures: jsonObjects(row.lectures).map((l) => ({
      id: Number(l.id),
      title: String(l.title),
      type: str(l.type) ?? 'video',
      duration: num(l.duration) ?? 0,
    })),
    exams: jsonObjects(row.exams).map((e) => ({
      id: Number(e.id),
      title: String(e.title),
      passingScore: num(e.passingScore),
      questions: num(e.questions) ?? 0,
    })),
    skills: jsonObjects(row.skills).map((s) => ({ id: Number(s.id), name: String(s.name) })),
    coupons: jsonObjects(row.coupons).map((c) => ({
      id: Number(c.id),
      code: String(c.code),
      discount: num(c.discount) ?? 100,
      maxUses: num(c.maxUses),
      expiresDate: str(c.expiresDate),
    })),
    invitations: jsonObjects(row.invitations).map((i) => ({
      id: Number(i.id),
      email: String(i.email),
      sentDate: String(i.sentDate),
      status: str(i.status) ?? 'pending',
    })),
  };
}

export type CourseValues = CourseRecord;

export interface CourseFilter {
  /** `active` or `archived`. */
  status: string;
  search?: string;
  categoryId?: number;
  language?: string;
  /** Courses teaching any of these skills. */
  skills?: number[];
}

/** The directory's courses. Every query takes the academy id first; lists are in id order. */
export class CoursesRepository extends AcademyRepository {
  private filtered(academyId: AcademyTenantId, filter: CourseFilter) {
    let query = this.tenant(academyId)
      .selectFrom('academy_courses as c')
      .selectAll('c')
      .where('c.status', '=', filter.status);
    if (filter.search !== undefined) query = query.where(containsText(['c.title'], filter.search));
    if (filter.language !== undefined) query = query.where('c.language', '=', filter.language.toLowerCase());
    const skills = filter.skills;
    if (skills !== undefined && skills.length > 0) {
      query = query.where((eb) => eb.or(skills.map((id) => containsText(['c.skill_index'], `|${id}|`))));
    }
    return query;
  }

  /** Courses matching the filter; with a `categoryId`, the academy's matching courses are read and filtered here. */
  async listCourses(academyId: AcademyTenantId, filter: CourseFilter, window: Window): Promise<CourseRecord[]> {
    if (filter.categoryId === undefined) {
      const rows = await this.filtered(academyId, filter)
        .orderBy('c.id')
        .limit(window.limit)
        .offset(window.start)
        .execute();
      return rows.map(toCourse);
    }
    const categoryId = filter.categoryId;
    const all = (await this.filtered(academyId, filter).orderBy('c.id').execute())
      .map(toCourse)
      .filter((c) => c.categoryIds.includes(categoryId));
    return all.slice(window.start, window.start + window.limit);
  }

  async findCourse(academyId: AcademyTenantId, id: number): Promise<CourseRecord | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_courses')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toCourse(row) : undefined;
  }

  /** The courses of these ids that exist in the academy, in id order. */
  async coursesByIds(academyId: AcademyTenantId, ids: number[]): Promise<CourseRecord[]> {
    const out: CourseRecord[] = [];
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.tenant(academyId)
        .selectFrom('academy_courses')
        .selectAll()
        .where('id', 'in', part)
        .execute();
      out.push(...rows.map(toCourse));
    }
    return out.sort((a, b) => a.id - b.id);
  }

  /** Events (of both kinds, not cancelled) connected to each of these courses. */
  async eventCounts(academyId: AcademyTenantId, ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.tenant(academyId)
        .selectFrom('academy_events')
        .select((eb) => ['course_id', eb.fn.countAll<number>().as('n')])
        .where('course_id', 'in', part)
        .where('canceled', '=', 0)
        .groupBy('course_id')
        .execute();
      for (const row of rows) if (row.course_id !== null) out.set(row.course_id, Number(row.n));
    }
    return out;
  }

  /** Inserts, or replaces every field of the course with that id. */
  async upsertCourses(academyId: AcademyTenantId, courses: CourseValues[]): Promise<void> {
    for (const part of chunks(courses)) {
      await this.db
        .insertInto('academy_courses')
        .values(
          part.map((c) => ({
            academy_id: academyId,
            id: c.id,
            title: c.title,
            description: c.description,
            category_ids: JSON.stringify(c.categoryIds),
            external_id: c.externalId,
            status: c.status,
            language: c.language,
            skill_index: barIndex(c.skills.map((s) => s.id)),
            lectures: JSON.stringify(c.lectures),
            exams: JSON.stringify(c.exams),
            skills: JSON.stringify(c.skills),
            coupons: JSON.stringify(c.coupons),
            invitations: JSON.stringify(c.invitations),
          })),
        )
        .onConflict((oc) =>
          oc.columns(['academy_id', 'id']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            description: eb.ref('excluded.description'),
            category_ids: eb.ref('excluded.category_ids'),
            external_id: eb.ref('excluded.external_id'),
            status: eb.ref('excluded.status'),
            language: eb.ref('excluded.language'),
            skill_index: eb.ref('excluded.skill_index'),
            lectures: eb.ref('excluded.lectures'),
            exams: eb.ref('excluded.exams'),
            skills: eb.ref('excluded.skills'),
            coupons: eb.ref('excluded.coupons'),
            invitations: eb.ref('excluded.invitations'),
          })),
        )
        .execute();
    }
  }
}
