import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { NotFoundError } from '../../platform/errors.js';
import {
  type CourseCategoriesQuery,
  type CourseStudentsQuery,
  STUDENTS_DEFAULT_LIMIT,
  STUDENTS_MAX_LIMIT,
  USER_ITEMS_MAX_LIMIT,
  type UserCoursesQuery,
} from './learning-schemas.js';
import type { DirectoryRepository } from './repository.js';
import { listWindow } from './repository-common.js';
import type { CategoryRecord } from './repository-content.js';
import type { CouponRecord, CourseFilter, CourseRecord } from './repository-courses.js';
import type { EnrollmentRecord, StudentRecord } from './repository-enrollments.js';
import { COURSES_MAX_LIMIT, type CoursesQuery } from './schemas.js';
import { resolveUser } from './users-service.js';

/** A course with its categories resolved (in the order of `categoryIds`) and its counts. */
export type CourseView = CourseRecord & { categories: CategoryRecord[]; students: number; eventsCount: number };
export type UserCourseView = CourseView & { enrollment: EnrollmentRecord };
export type CouponView = CouponRecord & { uses: number };

const asList = (v: number | number[] | undefined): number[] | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v : [v];

/** The directory's courses and what hangs off them: students, lectures, exams, skills, coupons, invitations. */
export class CoursesService {
  constructor(private readonly repo: DirectoryRepository) {}

  async list(academyId: AcademyTenantId, input: CoursesQuery): Promise<CourseView[]> {
    const filter: CourseFilter = {
      status: input.status ?? 'active',
      ...(input.search !== undefined ? { search: input.search } : {}),
      ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.skills !== undefined ? { skills: asList(input.skills) ?? [] } : {}),
    };
    return this.views(
      academyId,
      await this.repo.courses.listCourses(academyId, filter, listWindow(input, COURSES_MAX_LIMIT)),
    );
  }

  async get(academyId: AcademyTenantId, id: number): Promise<CourseView> {
    return (await this.views(academyId, [await this.course(academyId, id)]))[0] as CourseView;
  }

  private async course(academyId: AcademyTenantId, id: number): Promise<CourseRecord> {
    const course = await this.repo.courses.findCourse(academyId, id);
    if (!course) throw new NotFoundError('course', String(id));
    return course;
  }

  private async views(academyId: AcademyTenantId, courses: CourseRecord[]): Promise<CourseView[]> {
    const ids = courses.map((c) => c.id);
    const [found, students, events] = await Promise.all([
      this.repo.content.categoriesByIds(
        academyId,
        courses.flatMap((c) => c.categoryIds),
      ),
      this.repo.enrollments.studentCounts(academyId, 'course', ids),
      this.repo.courses.eventCounts(academyId, ids),
    ]);
    const byId = new Map(found.map((c) => [c.id, c]));
    return courses.map((course) => ({
      ...course,
      categories: course.categoryIds.flatMap((id) => byId.get(id) ?? []),
      students: students.get(course.id) ?? 0,
      eventsCount: events.get(course.id) ?? 0,
    }));
  }

  /** The courses a user is enrolled in (any role unless `role`), with the enrollment, in course id order. */
  async ofUser(academyId: AcademyTenantId, userId: string, input: UserCoursesQuery): Promise<UserCourseView[]> {
    const user = await resolveUser(this.repo.users, academyId, userId, input.external_id === true);
    const enrollments = (await this.repo.enrollments.ofUser(academyId, 'course', user.id)).filter(
      (e) => input.role === undefined || e.role === input.role,
    );
    const byCourse = new Map(enrollments.map((e) => [e.itemId, e]));
    const status = input.status ?? 'active';
    const courses = (await this.repo.courses.coursesByIds(academyId, [...byCourse.keys()])).filter(
      (c) =>
        c.status === status &&
        (input.category_id === undefined || c.categoryIds.includes(input.category_id)) &&
        (input.search === undefined || c.title.toLowerCase().includes(input.search.toLowerCase())),
    );
    const window = listWindow(input, USER_ITEMS_MAX_LIMIT, USER_ITEMS_MAX_LIMIT);
    const page = courses.slice(window.start, window.start + window.limit);
    return (await this.views(academyId, page)).map((c) => ({
      ...c,
      enrollment: byCourse.get(c.id) as EnrollmentRecord,
    }));
  }

  /**
   * The categories of the academy's courses, in id order; with `userId`, of the courses that user is enrolled in
   * (as `role`, when given).
   */
  async categories(academyId: AcademyTenantId, input: CourseCategoriesQuery): Promise<CategoryRecord[]> {
    let courses: CourseRecord[];
    if (input.userId !== undefined) {
      const user = await resolveUser(this.repo.users, academyId, input.userId, input.external_id === true);
      const enrollments = (await this.repo.enrollments.ofUser(academyId, 'course', user.id)).filter(
        (e) => input.role === undefined || e.role === input.role,
      );
      courses = await this.repo.courses.coursesByIds(
        academyId,
        enrollments.map((e) => e.itemId),
      );
    } else {
      courses = await this.repo.courses.listCourses(
        academyId,
        { status: 'active' },
        { start: 0, limit: Number.MAX_SAFE_INTEGER },
      );
    }
    return this.repo.content.categoriesByIds(
      academyId,
      courses.flatMap((c) => c.categoryIds),
    );
  }

  async students(academyId: AcademyTenantId, id: number, input: CourseStudentsQuery): Promise<StudentRecord[]> {
    await this.course(academyId, id);
    return this.repo.enrollments.listStudents(
      academyId,
      'course',
      id,
      {
        ...(input.onlyCompleted ? { onlyCompleted: true } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
      },
      listWindow(input, STUDENTS_MAX_LIMIT, STUDENTS_DEFAULT_LIMIT),
    );
  }

  lectures = async (academyId: AcademyTenantId, id: number) => (await this.course(academyId, id)).lectures;
  exams = async (academyId: AcademyTenantId, id: number) => (await this.course(academyId, id)).exams;
  skills = async (academyId: AcademyTenantId, id: number) => (await this.course(academyId, id)).skills;
  invitations = async (academyId: AcademyTenantId, id: number) => (await this.course(academyId, id)).invitations;

  /** The course's coupons, each with the number of users enrolled with it. */
  async coupons(academyId: AcademyTenantId, id: number): Promise<CouponView[]> {
    const course = await this.course(academyId, id);
    const students = await this.repo.enrollments.listStudents(
      academyId,
      'course',
      id,
      {},
      { start: 0, limit: Number.MAX_SAFE_INTEGER },
    );
    return course.coupons.map((c) => ({ ...c, uses: students.filter((s) => s.couponId === c.id).length }));
  }

  /** The users enrolled with one of the course's coupons (Schoox: "a course's enrolled users for a specific coupon"). */
  async couponStudents(academyId: AcademyTenantId, id: number, couponId: number): Promise<StudentRecord[]> {
    const course = await this.course(academyId, id);
    if (!course.coupons.some((c) => c.id === couponId)) throw new NotFoundError('coupon', String(couponId));
    return this.repo.enrollments.listStudents(
      academyId,
      'course',
      id,
      { couponId },
      { start: 0, limit: Number.MAX_SAFE_INTEGER },
    );
  }
}
