import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { MAX_ID } from './schemas.js';

/**
 * The directory import's newer parts (docs/academy-directory.md, "Format"): a user's badges; a course's status,
 * language, lectures, exams, skills, coupons and invitations; a curriculum's status; content items; enrollments.
 */

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });
const Text = (description: string, maxLength = 255) => Type.String({ minLength: 1, maxLength, description });
const Opt = <T extends TSchema>(schema: T, description: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { description }));
const DateText = (description: string) => Type.String({ format: 'date', description });
const List = <T extends TSchema>(item: T, description: string, maxItems = 1000) =>
  Type.Optional(Type.Array(item, { maxItems, description }));
const Strict = { additionalProperties: false } as const;

export const ImportBadge = Type.Object(
  {
    id: Id('Badge id.'),
    name: Text('Badge name.'),
    description: Opt(Type.String({ maxLength: 2000 }), 'Description; default empty.'),
    image: Opt(Type.String({ maxLength: 2048 }), 'URL of the badge picture.'),
    awardedDate: Opt(DateText('Date awarded, YYYY-MM-DD.'), 'Date awarded, YYYY-MM-DD.'),
  },
  Strict,
);

export const UserExtras = {
  badges: List(ImportBadge, 'Badges the user holds; default none.', 500),
};

const Status = Type.Union([Type.Literal('active'), Type.Literal('archived')], { description: 'Default `active`.' });

export const ImportLecture = Type.Object(
  {
    id: Id('Lecture id.'),
    title: Text('Title.'),
    type: Type.Optional(Text('Kind of lecture, for example `video`, `document`, `scorm`; default `video`.', 40)),
    duration: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Minutes; default 0.' })),
  },
  Strict,
);
export const ImportExam = Type.Object(
  {
    id: Id('Exam id.'),
    title: Text('Title.'),
    passingScore: Opt(Type.Integer({ minimum: 0, maximum: 100 }), 'Passing score in percent.'),
    questions: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Number of questions.' })),
  },
  Strict,
);
export const ImportSkill = Type.Object({ id: Id('Skill id.'), name: Text('Skill name.') }, Strict);
export const ImportCoupon = Type.Object(
  {
    id: Id('Coupon id.'),
    code: Text('The code users type.', 64),
    discount: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Percent off; default 100.' })),
    maxUses: Opt(Type.Integer({ minimum: 0, maximum: MAX_ID }), 'How many enrollments it allows; null: no limit.'),
    expiresDate: Opt(DateText('Last day it can be used.'), 'Last day it can be used, YYYY-MM-DD.'),
  },
  Strict,
);
export const ImportInvitation = Type.Object(
  {
    id: Id('Invitation id.'),
    email: Type.String({ format: 'email', maxLength: 320, description: 'Address invited.' }),
    sentDate: DateText('Date sent, YYYY-MM-DD.'),
    status: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('declined')], {
        description: 'Default `pending`.',
      }),
    ),
  },
  Strict,
);

export const CourseExtras = {
  status: Type.Optional(Status),
  language: Opt(Type.String({ pattern: '^[a-z]{2,3}$' }), 'ISO 639-1 code of the content language, e.g. `en`.'),
  lectures: List(ImportLecture, 'Lectures, in course order; default none.'),
  exams: List(ImportExam, 'Exams; default none.'),
  skills: List(ImportSkill, 'Skills the course teaches; default none.', 100),
  coupons: List(ImportCoupon, 'Coupons; default none.'),
  invitations: List(ImportInvitation, 'Invitations sent; default none.', 10_000),
};

export const CurriculumExtras = { status: Type.Optional(Status) };

export const ImportContent = Type.Object(
  {
    id: Id('Content item id.'),
    title: Text('Title.'),
    description: Opt(Type.String({ maxLength: 20_000 }), 'Description; default empty.'),
    type_id: Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 web resource, 2 file.' }),
    sub_type_id: Type.Integer({ minimum: 1, maximum: 11, description: 'Sub-type, 1–11.' }),
    categoryId: Opt(Id('Category id.'), 'Category (in this file or already imported).'),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[^|,]+$' }), {
        maxItems: 50,
        description: 'Tags (no `|` or `,`); default none.',
      }),
    ),
    url: Opt(Type.String({ maxLength: 2048 }), 'Link or file URL.'),
    time_added: Type.String({ format: 'date-time', description: 'When it was added (RFC 3339).' }),
    time_modified: Opt(Type.String({ format: 'date-time' }), 'Last change (RFC 3339); default time_added.'),
  },
  Strict,
);
export type ImportContent = Static<typeof ImportContent>;

export const ImportEnrollment = Type.Object(
  {
    userId: Id('The user (in this file or already imported).'),
    courseId: Type.Optional(Id('The course; give courseId or curriculumId, not both.')),
    curriculumId: Type.Optional(Id('The curriculum; give courseId or curriculumId, not both.')),
    role: Type.Optional(
      Type.Union([Type.Literal('student'), Type.Literal('professor'), Type.Literal('dropped_out')], {
        description: 'Default `student`.',
      }),
    ),
    couponId: Opt(Id('A coupon of the course the user enrolled with.'), 'Coupon used (courses only).'),
    enrolled_date: DateText('Date of enrollment, YYYY-MM-DD.'),
    progress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Percent; default 0.' })),
    time_spent: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'Minutes; default 0.' })),
    completion_date: Opt(DateText('Date completed.'), 'Date completed, YYYY-MM-DD; null: not completed.'),
  },
  Strict,
);
export type ImportEnrollment = Static<typeof ImportEnrollment>;
