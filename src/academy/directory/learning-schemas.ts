import { type Static, Type } from '@sinclair/typebox';
import { Course, Curriculum, Limit, MAX_ID, NullableString, Search, Start, Status } from './schemas.js';

/**
 * Shapes of the courses' and curriculums' own lists (students, lectures, exams, skills, coupons, invitations, a
 * user's courses and curriculums) and of `completeByAdmin` (docs/academy-directory.md).
 */

export const STUDENTS_MAX_LIMIT = 1000;
export const STUDENTS_DEFAULT_LIMIT = 100;
export const USER_ITEMS_MAX_LIMIT = 100;
/** Users one completeByAdmin call may name (Schoox documents 10 for courses). */
export const COMPLETE_MAX_USERS = 10;

const PositiveId = Type.Integer({ minimum: 1, maximum: MAX_ID });
const Bool = (description: string) => Type.Boolean({ description });
const DateText = (description: string) => Type.String({ format: 'date', description });
const Role = Type.Union([Type.Literal('student'), Type.Literal('professor'), Type.Literal('dropped_out')], {
  description: 'Only enrollments of this role.',
});

// ---------------------------------------------------------------- paths and query strings

export const CourseParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Course id.' }),
});
export type CourseParams = Static<typeof CourseParams>;

export const CouponParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Course id.' }),
  couponId: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Coupon id.' }),
});
export type CouponParams = Static<typeof CouponParams>;

export const UserParams = Type.Object({
  userId: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'The user id; with `external_id=true`, the user’s external id.',
  }),
});
export type UserParams = Static<typeof UserParams>;

const ExternalId = Bool('True when `userId` is the user’s external id; default false.');

export const UserCoursesQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(USER_ITEMS_MAX_LIMIT, USER_ITEMS_MAX_LIMIT)),
  external_id: Type.Optional(ExternalId),
  role: Type.Optional(Role),
  status: Type.Optional(Status),
  search: Type.Optional(Search('the title')),
  category_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Only courses of this category.' }),
  ),
});
export type UserCoursesQuery = Static<typeof UserCoursesQuery>;

export const UserCurriculumsQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(USER_ITEMS_MAX_LIMIT, USER_ITEMS_MAX_LIMIT)),
  external_id: Type.Optional(ExternalId),
  status: Type.Optional(Status),
});
export type UserCurriculumsQuery = Static<typeof UserCurriculumsQuery>;

export const CourseCategoriesQuery = Type.Object({
  userId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Only categories of this user’s courses.' }),
  ),
  external_id: Type.Optional(ExternalId),
  role: Type.Optional(Role),
});
export type CourseCategoriesQuery = Static<typeof CourseCategoriesQuery>;

export const CourseStudentsQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(STUDENTS_MAX_LIMIT, STUDENTS_DEFAULT_LIMIT)),
  onlyCompleted: Type.Optional(Bool('Only users who completed it.')),
  role: Type.Optional(Role),
});
export type CourseStudentsQuery = Static<typeof CourseStudentsQuery>;

export const CurriculumStudentsQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(STUDENTS_MAX_LIMIT, STUDENTS_DEFAULT_LIMIT)),
  onlyCompleted: Type.Optional(Bool('Only users who completed it.')),
  completionStartDate: Type.Optional(DateText('Only users who completed it on or after this date, YYYY-MM-DD.')),
  completionEndDate: Type.Optional(DateText('Only users who completed it on or before this date, YYYY-MM-DD.')),
});
export type CurriculumStudentsQuery = Static<typeof CurriculumStudentsQuery>;

export const CompleteQuery = Type.Object({
  externalIds: Type.Optional(Bool('True when the ids are users’ external ids; default false.')),
  completedAt: Type.Optional(DateText('Completion date, YYYY-MM-DD; default today (UTC).')),
});
export type CompleteQuery = Static<typeof CompleteQuery>;

const UserRef = Type.Union([PositiveId, Type.String({ minLength: 1, maxLength: 255 })]);
const UserRefs = Type.Array(UserRef, { minItems: 1, maxItems: COMPLETE_MAX_USERS });
export const CompleteBody = Type.Union(
  [Type.Object({ userIds: UserRefs }, { additionalProperties: false }), UserRefs],
  {
    description: `The users, at most ${COMPLETE_MAX_USERS}: \`{"userIds": [2, 3]}\` or a bare array \`[2, 3]\`.`,
  },
);
export type CompleteBody = Static<typeof CompleteBody>;

// ---------------------------------------------------------------- responses

const Enrollment = {
  role: Type.String({ description: '`student`, `professor` or `dropped_out`.' }),
  enrolled_date: Type.String({ description: 'Date of enrollment, YYYY-MM-DD.' }),
  progress: Type.Integer({ description: 'Progress in percent (100 once completed).' }),
  time_spent: Type.Integer({ description: 'Minutes spent.' }),
  completed: Type.Boolean({ description: 'True once completed.' }),
  completion_date: NullableString('Date completed, YYYY-MM-DD, or null.'),
  completed_by_admin: Type.Boolean({ description: 'True when an administrator marked it completed.' }),
};

export const Student = Type.Object(
  {
    id: Type.Integer({ description: 'User id.' }),
    firstname: Type.String({ description: 'First name.' }),
    lastname: Type.String({ description: 'Last name.' }),
    email: Type.String({ description: 'Email address.' }),
    external_id: NullableString('Id in another system, or null.'),
    coupon_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Coupon used to enroll, or null.' }),
    ...Enrollment,
  },
  { description: 'An enrolled user with the enrollment’s progress.' },
);

export const UserCourse = Type.Composite([Course, Type.Object(Enrollment)], {
  description: 'A course the user is enrolled in, with the enrollment.',
});
export const UserCurriculum = Type.Composite([Curriculum, Type.Object(Enrollment)], {
  description: 'A curriculum the user is enrolled in, with the enrollment.',
});

export const Lecture = Type.Object({
  id: Type.Integer({ description: 'Lecture id.' }),
  title: Type.String({ description: 'Title.' }),
  type: Type.String({ description: 'Kind of lecture, for example `video`.' }),
  duration: Type.Integer({ description: 'Minutes.' }),
});
export const Exam = Type.Object({
  id: Type.Integer({ description: 'Exam id.' }),
  title: Type.String({ description: 'Title.' }),
  passing_score: Type.Union([Type.Integer(), Type.Null()], { description: 'Passing score in percent, or null.' }),
  questions: Type.Integer({ description: 'Number of questions.' }),
});
export const Skill = Type.Object({
  id: Type.Integer({ description: 'Skill id.' }),
  name: Type.String({ description: 'Name.' }),
});
export const Coupon = Type.Object({
  id: Type.Integer({ description: 'Coupon id.' }),
  code: Type.String({ description: 'The code users type.' }),
  discount: Type.Integer({ description: 'Percent off.' }),
  max_uses: Type.Union([Type.Integer(), Type.Null()], { description: 'Enrollments it allows, or null: no limit.' }),
  uses: Type.Integer({ description: 'Users enrolled with it.' }),
  expires_date: NullableString('Last day it can be used, YYYY-MM-DD, or null.'),
});
export const Invitation = Type.Object({
  id: Type.Integer({ description: 'Invitation id.' }),
  email: Type.String({ description: 'Address invited.' }),
  sent_date: Type.String({ description: 'Date sent, YYYY-MM-DD.' }),
  status: Type.String({ description: '`pending`, `accepted` or `declined`.' }),
});

export const CompleteResult = Type.Object({
  status: Type.Integer({ description: '200.' }),
  message: Type.String(),
  userIds: Type.Array(Type.Integer(), { description: 'The users marked completed (Atrium ids), in the order given.' }),
  completedAt: Type.String({ description: 'The completion date applied, YYYY-MM-DD.' }),
});
