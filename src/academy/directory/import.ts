import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { type FieldError, FieldValidationError, InvalidRequestError } from '../../platform/errors.js';
import { fieldErrorsFromAjv, validatorCompiler } from '../../platform/http/validation.js';
import { CourseExtras, CurriculumExtras, ImportContent, ImportEnrollment, UserExtras } from './import-extras.js';
import { MAX_ID } from './schemas.js';

/**
 * The directory import file (docs/academy-directory.md): one JSON object
 * whose sections are all optional. Ids are chosen by the file; importing an
 * id again updates that object. Unknown fields are refused, so a misspelt
 * field is reported rather than silently dropped.
 */

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description });
const Text = (description: string, maxLength = 255) => Type.String({ minLength: 1, maxLength, description });
const Opt = <T extends TSchema>(schema: T, description: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { description }));

export const ImportUser = Type.Object(
  {
    id: Id('User id; 1 is the super administrator created with the academy (importing 1 updates its profile).'),
    firstname: Text('First name.'),
    lastname: Text('Last name.'),
    email: Type.String({ format: 'email', maxLength: 320, description: 'Email address.' }),
    middlename: Opt(Type.String({ maxLength: 255 }), 'Middle name.'),
    preferred_name: Opt(Type.String({ maxLength: 255 }), 'Preferred name.'),
    role: Type.Optional(Text('Role in the academy; default `employee`.', 40)),
    active: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    external_id: Opt(Type.String({ maxLength: 255 }), 'Id in another system.'),
    hired_date: Opt(Type.String({ format: 'date' }), 'Hire date, YYYY-MM-DD.'),
    joined_date: Opt(Type.String({ format: 'date' }), 'Date the user joined, YYYY-MM-DD.'),
    image: Opt(Type.String({ maxLength: 2048 }), 'URL of the picture.'),
    units: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.Integer({ description: 'Unit id.' }),
            name: Type.String({ maxLength: 255, description: 'Unit name.' }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 1000, description: 'Organizational units; default none.' },
      ),
    ),
    ...UserExtras,
  },
  { additionalProperties: false },
);
export type ImportUser = Static<typeof ImportUser>;

export const ImportCategory = Type.Object(
  { id: Id('Category id.'), name: Text('Category name.') },
  { additionalProperties: false },
);
export type ImportCategory = Static<typeof ImportCategory>;

export const ImportCourse = Type.Object(
  {
    id: Id('Course id.'),
    title: Text('Title.'),
    description: Opt(Type.String({ maxLength: 20_000 }), 'Description; default empty.'),
    categoryIds: Type.Optional(
      Type.Array(Id('Category id.'), {
        uniqueItems: true,
        maxItems: 100,
        description: 'Categories (in this file or already imported); the first is the main one.',
      }),
    ),
    external_id: Opt(Type.String({ maxLength: 255 }), 'Id in another system.'),
    ...CourseExtras,
  },
  { additionalProperties: false },
);
export type ImportCourse = Static<typeof ImportCourse>;

export const ImportCurriculum = Type.Object(
  {
    id: Id('Curriculum id.'),
    title: Text('Title.'),
    description: Opt(Type.String({ maxLength: 20_000 }), 'Description; default empty.'),
    categoryId: Opt(Id('Category id.'), 'Category (in this file or already imported).'),
    external_id: Opt(Type.String({ maxLength: 255 }), 'Id in another system.'),
    ...CurriculumExtras,
  },
  { additionalProperties: false },
);
export type ImportCurriculum = Static<typeof ImportCurriculum>;

export const ImportVenue = Type.Object(
  {
    id: Id('Venue id.'),
    name: Text('Name.'),
    seats: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Number of seats.' }),
    address: Opt(Type.String({ maxLength: 255 }), 'Street address.'),
    city: Opt(Type.String({ maxLength: 255 }), 'City.'),
    latitude: Opt(Type.Number({ minimum: -90, maximum: 90 }), 'Latitude in degrees.'),
    longitude: Opt(Type.Number({ minimum: -180, maximum: 180 }), 'Longitude in degrees.'),
  },
  { additionalProperties: false },
);
export type ImportVenue = Static<typeof ImportVenue>;

export const DirectoryImport = Type.Object(
  {
    users: Type.Optional(Type.Array(ImportUser, { description: 'Users, upserted by id.' })),
    categories: Type.Optional(Type.Array(ImportCategory, { description: 'Categories, upserted by id.' })),
    courses: Type.Optional(Type.Array(ImportCourse, { description: 'Courses, upserted by id.' })),
    curriculums: Type.Optional(Type.Array(ImportCurriculum, { description: 'Curriculums, upserted by id.' })),
    venues: Type.Optional(Type.Array(ImportVenue, { description: 'Venues, upserted by id.' })),
    content: Type.Optional(Type.Array(ImportContent, { description: 'Content items, upserted by id.' })),
    enrollments: Type.Optional(
      Type.Array(ImportEnrollment, {
        description: 'Course and curriculum students, upserted by (course or curriculum, user).',
      }),
    ),
  },
  { additionalProperties: false, description: 'An Atrium academy directory import file.' },
);
export type DirectoryImport = Static<typeof DirectoryImport>;

export const SECTIONS = ['users', 'categories', 'courses', 'curriculums', 'venues', 'content', 'enrollments'] as const;
/** The sections whose items have an `id` of their own. */
const ID_SECTIONS = ['users', 'categories', 'courses', 'curriculums', 'venues', 'content'] as const;

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  compiled ??= validatorCompiler({
    schema: DirectoryImport,
    httpPart: 'body',
    method: 'POST',
    url: '',
  }) as unknown as ValidateFunction;
  return compiled;
}

/**
 * Checks a parsed import file against the format: a field error per bad
 * field (`users.3.email`), and one per id repeated within a section. Fills
 * in the schema defaults. Does not look at the database.
 */
export function validateDirectoryImport(data: unknown): DirectoryImport {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new InvalidRequestError('The import file must hold one JSON object.');
  }
  const validate = validator();
  if (!validate(data)) throw new FieldValidationError(fieldErrorsFromAjv(validate.errors ?? []));
  const doc = data as DirectoryImport;
  const errors: FieldError[] = [];
  for (const section of ID_SECTIONS) {
    const seen = new Set<number>();
    (doc[section] ?? []).forEach((item, i) => {
      if (seen.has(item.id)) {
        errors.push({
          field: `${section}.${i}.id`,
          code: 'duplicate',
          message: 'This id appears earlier in the section.',
        });
      }
      seen.add(item.id);
    });
  }
  const enrolled = new Set<string>();
  (doc.enrollments ?? []).forEach((e, i) => {
    const at = `enrollments.${i}`;
    if ((e.courseId === undefined) === (e.curriculumId === undefined)) {
      errors.push({ field: `${at}.courseId`, code: 'invalid', message: 'Give either courseId or curriculumId.' });
      return;
    }
    if (e.couponId != null && e.courseId === undefined) {
      errors.push({ field: `${at}.couponId`, code: 'invalid', message: 'Only a course enrollment has a coupon.' });
    }
    const key =
      e.courseId !== undefined ? `course ${e.courseId} ${e.userId}` : `curriculum ${e.curriculumId} ${e.userId}`;
    if (enrolled.has(key)) {
      errors.push({
        field: `${at}.userId`,
        code: 'duplicate',
        message: 'This enrollment appears earlier in the section.',
      });
    }
    enrolled.add(key);
  });
  if (errors.length) throw new FieldValidationError(errors);
  return doc;
}

/** Parses and checks the text of an import file. */
export function parseDirectoryImport(text: string): DirectoryImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InvalidRequestError(`The import file is not valid JSON: ${(err as Error).message}`);
  }
  return validateDirectoryImport(data);
}
