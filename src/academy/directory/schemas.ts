import { type Static, Type } from '@sinclair/typebox';

/**
 * The directory the events refer to, read-only over HTTP: users, courses,
 * curriculums (learning paths), categories, venues and timezones. Lists are
 * bare JSON arrays in id order, paged with `start` and `limit`; a `limit`
 * above a list's maximum is clamped, never refused (reference §4.8).
 */

/** Largest id a path accepts; anything else (text, 0, decimals, larger) is a 404. */
export const MAX_ID = 2_147_483_647;

export const USERS_MAX_LIMIT = 100;
export const COURSES_MAX_LIMIT = 100;
export const CURRICULUMS_MAX_LIMIT = 100;
export const CATEGORIES_MAX_LIMIT = 100;
export const VENUES_MAX_LIMIT = 20;
export const DEFAULT_LIMIT = 20;

/** The OpenAPI tag of the directory's operations, and the paging note of its lists. */
export const TAG = ['Academy directory'];
export const PAGING = 'A bare JSON array in id order; `start` skips, `limit` takes.';

// ---------------------------------------------------------------- query strings and paths

export const Start = Type.Integer({
  minimum: 0,
  default: 0,
  description: 'Position of the first item (0-based); default 0.',
});
export const Limit = (max: number, byDefault = DEFAULT_LIMIT) =>
  Type.Integer({
    minimum: 0,
    default: byDefault,
    description: `Items to return, default ${byDefault}; values above ${max} are clamped to ${max}.`,
  });
export const Search = (what: string) =>
  Type.String({ maxLength: 255, description: `Case-insensitive text contained in ${what}.` });

// Unknown parameters (apikey, acadId, anything a client forwards) are ignored: no additionalProperties.
export const UsersQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(USERS_MAX_LIMIT)),
  search: Type.Optional(Search('the first name, last name, "first last" or email')),
  role: Type.Optional(
    Type.String({ maxLength: 40, description: 'Only users of this role (for example `employee`); any case.' }),
  ),
});
export type UsersQuery = Static<typeof UsersQuery>;

export const Status = Type.Union([Type.Literal('active'), Type.Literal('archived')], {
  description: 'Only objects of this status; default `active`.',
});
const Ids = Type.Union(
  [
    Type.Integer({ minimum: 1, maximum: MAX_ID }),
    Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), { maxItems: 100 }),
  ],
  {
    description: 'One id, or several (`skills[]=1&skills[]=2`).',
  },
);

export const CoursesQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(COURSES_MAX_LIMIT)),
  search: Type.Optional(Search('the title')),
  status: Type.Optional(Status),
  category_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Only courses of this category.' }),
  ),
  language: Type.Optional(Type.String({ maxLength: 16, description: 'Only courses in this language (ISO 639-1).' })),
  skills: Type.Optional(Ids),
});
export type CoursesQuery = Static<typeof CoursesQuery>;

export const CurriculumsQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(CURRICULUMS_MAX_LIMIT)),
  search: Type.Optional(Search('the title')),
  status: Type.Optional(Status),
});
export type CurriculumsQuery = Static<typeof CurriculumsQuery>;

export const CategoriesQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(CATEGORIES_MAX_LIMIT)),
  search: Type.Optional(Search('the name')),
});
export type CategoriesQuery = Static<typeof CategoriesQuery>;

export const VenuesQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(VENUES_MAX_LIMIT)),
  search: Type.Optional(Search('the name')),
});
export type VenuesQuery = Static<typeof VenuesQuery>;

export const IdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'The object id.' }),
});
export type IdParams = Static<typeof IdParams>;

// ---------------------------------------------------------------- responses

export const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const IdName = Type.Object({
  id: Type.Integer({ description: 'Id.' }),
  name: Type.String({ description: 'Name.' }),
});
export type IdName = Static<typeof IdName>;

export const User = Type.Object(
  {
    id: Type.Integer({ description: 'User id (1 is the academy’s super administrator).' }),
    firstname: Type.String({ description: 'First name.' }),
    middlename: NullableString('Middle name, or null.'),
    lastname: Type.String({ description: 'Last name.' }),
    preferred_name: NullableString('Preferred name, or null.'),
    email: Type.String({ description: 'Email address.' }),
    role: Type.String({ description: 'Role in the academy, for example `employee`, `instructor` or `admin`.' }),
    active: Type.Boolean({ description: 'False for a deactivated user.' }),
    external_id: NullableString('Id in another system, or null.'),
    hired_date: NullableString('Hire date, YYYY-MM-DD, or null.'),
    joined_date: NullableString('Date the user joined the academy, YYYY-MM-DD, or null.'),
    image: NullableString('URL of the picture, or null.'),
    units: Type.Array(IdName, { description: 'Organizational units the user belongs to, `{id, name}`.' }),
  },
  { description: 'A user of the academy.' },
);
export type User = Static<typeof User>;

export const Course = Type.Object(
  {
    id: Type.Integer({ description: 'Course id.' }),
    title: Type.String({ description: 'Title.' }),
    description: Type.String({ description: 'Description (may be empty).' }),
    category_ids: Type.Array(Type.Integer(), {
      description: 'Academy category ids of the course; the first is its main category.',
    }),
    categories: Type.Array(IdName, { description: 'The same categories as `{id, name}`, in the same order.' }),
    external_id: NullableString('Id in another system, or null.'),
    status: Type.String({ description: '`active` or `archived`.' }),
    language: NullableString('ISO 639-1 code of the content language, or null.'),
    students: Type.Integer({ description: 'Enrolled users (students and professors; not dropped-out ones).' }),
    lectures_count: Type.Integer({ description: 'Lectures in the course.' }),
    exams_count: Type.Integer({ description: 'Exams in the course.' }),
    events_count: Type.Integer({ description: 'In-class and virtual events connected to the course, not cancelled.' }),
  },
  { description: 'A course.' },
);
export type Course = Static<typeof Course>;

export const Curriculum = Type.Object(
  {
    id: Type.Integer({ description: 'Curriculum (learning path) id.' }),
    title: Type.String({ description: 'Title.' }),
    description: Type.String({ description: 'Description (may be empty).' }),
    category_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Academy category id, or null.' }),
    category: Type.Union([IdName, Type.Null()], { description: 'The category as `{id, name}`, or null.' }),
    external_id: NullableString('Id in another system, or null.'),
    status: Type.String({ description: '`active` or `archived`.' }),
  },
  { description: 'A curriculum (learning path).' },
);
export type Curriculum = Static<typeof Curriculum>;

export const Category = Type.Object(
  {
    id: Type.Integer({ description: 'Category id.' }),
    name: Type.String({ description: 'Category name.' }),
  },
  { description: 'An academy content category.' },
);
export type Category = Static<typeof Category>;

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const Venue = Type.Object(
  {
    id: Type.Integer({ description: 'Venue id (the `venue` of an in-class event).' }),
    name: Type.String({ description: 'Name.' }),
    seats: Type.Integer({ description: 'Number of seats.' }),
    address: NullableString('Street address, or null.'),
    city: NullableString('City, or null.'),
    coordinates: Type.Object(
      {
        latitude: NullableNumber('Latitude in degrees, or null.'),
        longitude: NullableNumber('Longitude in degrees, or null.'),
      },
      { description: 'Where the venue is.' },
    ),
  },
  { description: 'A venue for in-class events.' },
);
export type Venue = Static<typeof Venue>;

export const Timezone = Type.Object(
  {
    id: Type.Integer({ description: 'Stable timezone id (the `timezoneId` of an event).' }),
    name: Type.String({ description: 'IANA name, for example `Europe/Athens`.' }),
    label: Type.String({ description: '`(GMT+hh:mm) <cities>`, with the offset in force now.' }),
    offset: Type.Number({ description: 'Offset from UTC in force now, in hours (5.5 for India).' }),
  },
  { description: 'A timezone.' },
);
export type Timezone = Static<typeof Timezone>;
