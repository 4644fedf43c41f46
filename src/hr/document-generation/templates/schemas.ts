import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** Dates of validity: `YYYY-MM-DD`. */
const DateOnly = Type.String({ format: 'date', description: '`YYYY-MM-DD`.' });

const Restriction = Type.Object(
  {
    organization_id: Type.String({ minLength: 1, maxLength: 255, description: 'An organization of the client.' }),
    include_children: Type.Boolean({ description: 'The organization’s descendants too.' }),
  },
  { additionalProperties: false },
);

const fields = {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.String({ maxLength: 10_000 }),
  locale: Type.String({
    pattern: '^[a-z]{2,3}(-[a-z0-9]{2,8})*$',
    maxLength: 16,
    description: 'BCP 47, lower case (`fr-fr`): how the template’s dates are written.',
  }),
  enabled: Type.Boolean({ description: 'A disabled template cannot be generated.' }),
};

const optional = {
  is_injectable: Type.Optional(
    Type.Boolean({ description: 'The template can be inserted into others as a fragment (default false).' }),
  ),
  validity_start_date: Type.Optional(Type.Union([DateOnly, Type.Null()])),
  validity_end_date: Type.Optional(Type.Union([DateOnly, Type.Null()])),
  restrictions: Type.Optional(
    Type.Array(Restriction, {
      maxItems: 100,
      description: 'The organizations whose employees the template is for (none: every employee).',
    }),
  ),
};

/** `DocGenTemplatePayload` (reference §5.5): `POST` and `PUT`. */
export const TemplatePayload = Type.Object({ ...fields, ...optional }, { additionalProperties: false });
export type TemplatePayload = Static<typeof TemplatePayload>;

/** `PATCH /document_generation_templates/{id}`: any of the payload's fields. */
export const TemplatePatch = Type.Partial(Type.Object({ ...fields, ...optional }), { additionalProperties: false });
export type TemplatePatch = Static<typeof TemplatePatch>;

export const Template = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    description: Type.String(),
    locale: Type.String(),
    format: Type.String({ description: 'The template documents’ format: `DOCX`.' }),
    enabled: Type.Boolean(),
    is_injectable: Type.Boolean(),
    validity_start_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    validity_end_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    latest_version: Type.Integer({ description: 'The newest version’s number; 0 before the first upload.' }),
    active_version: Type.Integer({ description: 'The version generations use by default; 0 = none.' }),
    active_version_syntax: Type.Union([Type.Literal('V1'), Type.Literal('V2'), Type.Null()], {
      description: 'The active version’s placeholder syntax; null without an active version.',
    }),
    restrictions: Type.Array(Type.Object({ organization_id: Type.String(), include_children: Type.Boolean() })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'DocGenTemplate' },
);
export type Template = Static<typeof Template>;

export const TemplateParams = Type.Object({
  id: Type.String({ pattern: '^[0-9A-Fa-f-]{1,36}$', description: 'The template’s id (a UUID).' }),
});

/** `GET /document_generation_templates`: in creation order. */
export const TemplateList = declareList('document_generation_templates');

export const TemplateListQuery = Type.Object(
  {
    ...PaginationQuery,
    q: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 255,
        description: 'In the title or the description (3 characters at least).',
      }),
    ),
    enabled: Type.Optional(Type.Boolean()),
    locale: Type.Optional(Type.String({ maxLength: 16 })),
    is_injectable: Type.Optional(Type.Boolean({ description: 'Only the fragments (true), or only the others.' })),
  },
  { additionalProperties: false },
);
export type TemplateListQuery = Static<typeof TemplateListQuery>;
