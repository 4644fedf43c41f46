/** The academy's directory: users, courses, learning paths, and content (categories, venues, timezones). */

import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
import type {
  Badge,
  CONTENT_MAX_LIMIT,
  ContentItem,
  ContentQuery,
  Usage,
} from '../schemas/academy/directory/content-schemas.js';
import type {
  CompleteBody,
  CompleteQuery,
  CompleteResult,
  Coupon,
  CourseCategoriesQuery,
  CourseStudentsQuery,
  CurriculumStudentsQuery,
  Exam,
  Invitation,
  Lecture,
  Skill,
  STUDENTS_MAX_LIMIT,
  Student,
  USER_ITEMS_MAX_LIMIT,
  UserCourse,
  UserCoursesQuery,
  UserCurriculum,
  UserCurriculumsQuery,
} from '../schemas/academy/directory/learning-schemas.js';
import type {
  CategoriesQuery,
  Category,
  Course,
  CoursesQuery,
  Curriculum,
  CurriculumsQuery,
  UsersQuery as DirectoryUsersQuery,
  Timezone,
  User,
  Venue,
  VenuesQuery,
} from '../schemas/academy/directory.js';
import { type AcademyCore, type AcademyListParams, MAX } from './core.js';

/** Largest `limit` of the students lists, a user's courses and curriculums, and content items. */
const LIMITS = {
  students: 1000 as STUDENTS_MAX_LIMIT,
  userItems: 100 as USER_ITEMS_MAX_LIMIT,
  content: 100 as CONTENT_MAX_LIMIT,
} as const;

/** A bare-array list at `path`, every page of it. */
function pages<T>(core: AcademyCore, path: string, params: unknown, max: number, options?: RequestOptions) {
  return core.pager<T, T[]>(path, params as Record<string, unknown>, max, (a) => ({ items: a }), options);
}

function directory<T, Q>(core: AcademyCore, path: string, max: number) {
  return {
    /** Every item, in id order: an {@link AutoPager} over `start`/`limit` pages. */
    list: (params?: AcademyListParams<Q>, options?: RequestOptions): AutoPager<T> =>
      core.pager<T, T[]>(path, params as Record<string, unknown>, max, (a) => ({ items: a }), options),
  };
}

/** `academy.users`, `academy.courses`, `academy.curriculums` and `academy.content`. */
export function directoryResources(core: AcademyCore) {
  const users = directory<User, DirectoryUsersQuery>(core, '/users', MAX.users);
  const courses = directory<Course, CoursesQuery>(core, '/courses', MAX.courses);
  const curriculums = directory<Curriculum, CurriculumsQuery>(core, '/curriculums', MAX.curriculums);
  return {
    users: {
      ...users,
      /** One user. */
      retrieve: (id: number, options?: RequestOptions): Promise<User> => core.json('GET', `/users/${id}`, {}, options),
      /** The user's badges (one answer, not paged). */
      badges: (userId: number | string, options?: RequestOptions): Promise<Badge[]> =>
        core.json('GET', `/users/${encodeURIComponent(String(userId))}/badges`, {}, options),
    },
    courses: {
      ...courses,
      /** One course. */
      retrieve: (id: number, options?: RequestOptions): Promise<Course> =>
        core.json('GET', `/courses/${id}`, {}, options),
      /** Course categories, or a user's (`userId`, `external_id`, `role`). */
      categories: (params?: Partial<CourseCategoriesQuery>, options?: RequestOptions): Promise<Category[]> =>
        core.json('GET', '/courses/categories', { query: params ?? {} }, options),
      /** The courses a user is enrolled in, with the enrollment (`external_id: true` for an external id). */
      ofUser: (
        userId: number | string,
        params?: AcademyListParams<UserCoursesQuery>,
        options?: RequestOptions,
      ): AutoPager<UserCourse> =>
        pages(core, `/courses/user/${encodeURIComponent(String(userId))}`, params, LIMITS.userItems, options),
      /** The course's students, with progress and completion. */
      students: (
        id: number,
        params?: AcademyListParams<CourseStudentsQuery>,
        options?: RequestOptions,
      ): AutoPager<Student> => pages(core, `/courses/${id}/students`, params, LIMITS.students, options),
      /** The course's lectures. */
      lectures: (id: number, options?: RequestOptions): Promise<Lecture[]> =>
        core.json('GET', `/courses/${id}/lectures`, {}, options),
      /** The course's exams. */
      exams: (id: number, options?: RequestOptions): Promise<Exam[]> =>
        core.json('GET', `/courses/${id}/exams`, {}, options),
      /** The skills the course teaches. */
      skills: (id: number, options?: RequestOptions): Promise<Skill[]> =>
        core.json('GET', `/courses/${id}/skills`, {}, options),
      /** The course's coupons, with their uses. */
      coupons: (id: number, options?: RequestOptions): Promise<Coupon[]> =>
        core.json('GET', `/courses/${id}/coupons`, {}, options),
      /** The students who enrolled with one of the course's coupons. */
      couponStudents: (id: number, couponId: number, options?: RequestOptions): Promise<Student[]> =>
        core.json('GET', `/courses/${id}/coupons/${couponId}`, {}, options),
      /** The invitations sent for the course. */
      invitations: (id: number, options?: RequestOptions): Promise<Invitation[]> =>
        core.json('GET', `/courses/${id}/invitations`, {}, options),
    },
    curriculums: {
      ...curriculums,
      /** One learning path. */
      retrieve: (id: number, options?: RequestOptions): Promise<Curriculum> =>
        core.json('GET', `/curriculums/${id}`, {}, options),
      /** The learning paths a user is enrolled in, with the enrollment. */
      ofUser: (
        userId: number | string,
        params?: AcademyListParams<UserCurriculumsQuery>,
        options?: RequestOptions,
      ): AutoPager<UserCurriculum> =>
        pages(core, `/curriculums/user/${encodeURIComponent(String(userId))}`, params, LIMITS.userItems, options),
      /** The learning path's students (`onlyCompleted`, `completionStartDate`, `completionEndDate`). */
      students: (
        id: number,
        params?: AcademyListParams<CurriculumStudentsQuery>,
        options?: RequestOptions,
      ): AutoPager<Student> => pages(core, `/curriculums/${id}/students`, params, LIMITS.students, options),
      /** Marks the learning path completed by an administrator for at most 10 users. */
      completeByAdmin: (
        id: number,
        body: CompleteBody,
        params?: Partial<CompleteQuery>,
        options?: RequestOptions,
      ): Promise<CompleteResult> =>
        core.json('PUT', `/curriculums/${id}/completeByAdmin`, { body, query: params ?? {} }, options),
    },
    content: {
      /** Content items (`/content`): newest first unless `order_by`/`direction` say otherwise. */
      items: {
        list: (params?: AcademyListParams<ContentQuery>, options?: RequestOptions): AutoPager<ContentItem> =>
          pages(core, '/content', params, LIMITS.content, options),
      },
      /** Academy categories (`/content/categories`). */
      categories: directory<Category, CategoriesQuery>(core, '/content/categories', MAX.categories),
      /** Venues of in-class events (`/content/venues`, pages of at most 20). */
      venues: directory<Venue, VenuesQuery>(core, '/content/venues', MAX.venues),
      /** Timezones (`/content/timezones`): ids for `timezoneId`. */
      timezones: {
        /** Every timezone (one answer, not paged). */
        list: (options?: RequestOptions): Promise<Timezone[]> => core.json('GET', '/content/timezones', {}, options),
      },
    },
    usage: {
      /** The academy's call quota: calls left in the current window and when it ends. */
      retrieve: (options?: RequestOptions): Promise<Usage> => core.json('GET', '/usage', {}, options),
    },
  };
}
