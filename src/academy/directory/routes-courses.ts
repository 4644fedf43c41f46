import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { academyErrors } from '../errors.js';
import type { CoursesService } from './courses-service.js';
import {
  Coupon,
  CouponParams,
  CourseCategoriesQuery,
  CourseParams,
  CourseStudentsQuery,
  Exam,
  Invitation,
  Lecture,
  Skill,
  Student,
  UserCourse,
  UserCoursesQuery,
  UserParams,
} from './learning-schemas.js';
import { presentCategory, presentCoupon, presentCourse, presentStudent, presentUserCourse } from './present.js';
import { Category, Course, CoursesQuery, PAGING, TAG } from './schemas.js';

const NOT_PAGED = 'A bare JSON array in the order of the import file, not paged.';

export function courseRoutes(app: FastifyInstance, courses: CoursesService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/courses',
    {
      schema: {
        tags: TAG,
        summary: 'List courses',
        description: `${PAGING} Default limit 20, at most 100; \`status\` default \`active\`.`,
        querystring: CoursesQuery,
        response: { 200: Type.Array(Course), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await courses.list(request.academy.academyId, request.query)).map(presentCourse),
  );

  api.get(
    '/courses/categories',
    {
      schema: {
        tags: TAG,
        summary: 'List course categories',
        description:
          'The `{id, name}` categories of the academy’s active courses, in id order; with `userId`, of the courses that user is enrolled in. Not paged.',
        querystring: CourseCategoriesQuery,
        response: { 200: Type.Array(Category), ...academyErrors(400, 401, 404) },
      },
    },
    async (request) => (await courses.categories(request.academy.academyId, request.query)).map(presentCategory),
  );

  api.get(
    '/courses/user/:userId',
    {
      schema: {
        tags: TAG,
        summary: 'List a user’s courses',
        description: `The courses the user is enrolled in, with the enrollment. ${PAGING} Default limit 100, at most 100.`,
        params: UserParams,
        querystring: UserCoursesQuery,
        response: { 200: Type.Array(UserCourse), ...academyErrors(400, 401, 404) },
      },
    },
    async (request) =>
      (await courses.ofUser(request.academy.academyId, request.params.userId, request.query)).map(presentUserCourse),
  );

  api.get(
    '/courses/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a course',
        params: CourseParams,
        response: { 200: Course, ...academyErrors(401, 404) },
      },
    },
    async (request) => presentCourse(await courses.get(request.academy.academyId, request.params.id)),
  );

  api.get(
    '/courses/:id/students',
    {
      schema: {
        tags: TAG,
        summary: 'List a course’s students',
        description: 'A bare JSON array in user id order. Default limit 100, at most 1000.',
        params: CourseParams,
        querystring: CourseStudentsQuery,
        response: { 200: Type.Array(Student), ...academyErrors(400, 401, 404) },
      },
    },
    async (request) =>
      (await courses.students(request.academy.academyId, request.params.id, request.query)).map(presentStudent),
  );

  const lists = [
    ['lectures', 'List a course’s lectures', Lecture, courses.lectures],
    ['exams', 'List a course’s exams', Exam, courses.exams],
    ['skills', 'List a course’s skills', Skill, courses.skills],
    ['invitations', 'List a course’s invitations', Invitation, courses.invitations],
  ] as const;
  for (const [path, summary, shape, read] of lists) {
    api.get(
      `/courses/:id/${path}`,
      {
        schema: {
          tags: TAG,
          summary,
          description: NOT_PAGED,
          params: CourseParams,
          response: { 200: Type.Array(shape), ...academyErrors(401, 404) },
        },
      },
      // The shape differs per list; each is checked by its response schema.
      async (request) => presentList(path, await read(request.academy.academyId, request.params.id)) as never,
    );
  }

  api.get(
    '/courses/:id/coupons',
    {
      schema: {
        tags: TAG,
        summary: 'List a course’s coupons',
        description: NOT_PAGED,
        params: CourseParams,
        response: { 200: Type.Array(Coupon), ...academyErrors(401, 404) },
      },
    },
    async (request) => (await courses.coupons(request.academy.academyId, request.params.id)).map(presentCoupon),
  );

  api.get(
    '/courses/:id/coupons/:couponId',
    {
      schema: {
        tags: TAG,
        summary: 'List the users enrolled with a coupon',
        description: 'A bare JSON array of students in user id order, not paged.',
        params: CouponParams,
        response: { 200: Type.Array(Student), ...academyErrors(401, 404) },
      },
    },
    async (request) =>
      (await courses.couponStudents(request.academy.academyId, request.params.id, request.params.couponId)).map(
        presentStudent,
      ),
  );
}

/** The snake_case wire form of a course's own lists. */
function presentList(path: string, items: readonly object[]): unknown[] {
  if (path === 'exams') {
    return (items as { id: number; title: string; passingScore: number | null; questions: number }[]).map((e) => ({
      id: e.id,
      title: e.title,
      passing_score: e.passingScore,
      questions: e.questions,
    }));
  }
  if (path === 'invitations') {
    return (items as { id: number; email: string; sentDate: string; status: string }[]).map((i) => ({
      id: i.id,
      email: i.email,
      sent_date: i.sentDate,
      status: i.status,
    }));
  }
  return [...items];
}
