import { type Static, Type } from '@sinclair/typebox';
import { PreviewPage, PreviewSizeQuery } from '../../../platform/renditions/http.js';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

const TemplateId = Type.String({ pattern: '^[0-9A-Fa-f-]{1,36}$', description: 'The template’s id (a UUID).' });
const VersionNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'The version’s number, from 1.' });

/** `…/versions/{number}`. */
export const VersionParams = Type.Object({ id: TemplateId, number: VersionNumber });
/** `…/versions/active` and `…/versions/latest`. */
export const AliasParams = Type.Object({ id: TemplateId });
export const VersionPageParams = Type.Object({ id: TemplateId, number: VersionNumber, page: PreviewPage });
export const AliasPageParams = Type.Object({ id: TemplateId, page: PreviewPage });

export const OUTPUT_FORMATS = ['DOC', 'DOCX', 'ODT', 'PDF'] as const;

const OutputFormatFlags = Type.Object(
  {
    DOC: Type.Boolean(),
    DOCX: Type.Boolean(),
    ODT: Type.Boolean(),
    PDF: Type.Boolean(),
  },
  { description: 'The formats the version may be generated in.' },
);

const FragmentLink = Type.Object(
  {
    slug: Type.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$', description: 'A fragment placeholder.' }),
    fragment_id: Type.String({ format: 'uuid', description: 'The injectable template inserted in its place.' }),
  },
  { additionalProperties: false },
);

export const TemplateVersion = Type.Object(
  {
    version: Type.Integer(),
    document_generation_template_id: Type.String({ format: 'uuid' }),
    syntax_version: Type.Union([Type.Literal('V1'), Type.Literal('V2')]),
    format: Type.String({ description: 'The document’s format: `DOCX`.' }),
    output_format: OutputFormatFlags,
    template_information: Type.Array(
      Type.Object({
        code: Type.String(),
        field: Type.String(),
        message: Type.String(),
        severity: Type.Union([Type.Literal('ERROR'), Type.Literal('WARNING')]),
      }),
      { description: 'What was found wrong in the document: an ERROR keeps the version from being generated.' },
    ),
    fragment_mapping: Type.Array(Type.Object({ slug: Type.String(), fragment_id: Type.String() })),
    filename: Type.String(),
    size: Type.Integer({ description: 'Bytes.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'DocGenTemplateVersion' },
);
export type TemplateVersion = Static<typeof TemplateVersion>;

/** `PUT` and `PATCH …/versions/{number}`: the formats and the fragments. */
export const VersionPatch = Type.Object(
  {
    output_format: Type.Optional(Type.Partial(OutputFormatFlags, { additionalProperties: false })),
    fragment_mapping: Type.Optional(Type.Array(FragmentLink, { maxItems: 200 })),
  },
  { additionalProperties: false },
);
export type VersionPatch = Static<typeof VersionPatch>;

/** `GET …/versions`: by number. */
export const VersionList = declareList('document_generation_template_versions');
export const VersionListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });

export const PreviewQuery = Type.Object({ size: Type.Optional(PreviewSizeQuery) }, { additionalProperties: false });

/** The multipart body of `POST …/file`, for the OpenAPI document (the route reads the parts itself). */
export const TemplateUploadDoc = Type.Object({
  template: Type.String({ format: 'binary', description: 'The template document (DOCX).' }),
  format: Type.Optional(Type.String({ enum: ['DOCX'], description: 'The document’s format (default `DOCX`).' })),
  syntax_version: Type.Optional(
    Type.String({ enum: ['V1', 'V2'], description: 'Its placeholders’ syntax (default `V2`).' }),
  ),
});

export const DOC_FIELD_TYPES = ['text', 'paragraph', 'date', 'number', 'email', 'checkbox'] as const;

const leaf = {
  slug: Type.String(),
  label: Type.String(),
  type_id: Type.String({
    description:
      '`text` (or the typing set by PUT), `checkboxes` for a list, `fieldsetTable` for a table (its columns in `fields`), `checkbox` for a condition, `fieldset` for a fragment.',
  }),
  description: Type.String(),
  required: Type.Boolean({ description: 'Strict generation needs a value.' }),
  multiple: Type.Boolean(),
};
const DocFieldLeaf = Type.Object(leaf);
const DocFieldMid = Type.Object({ ...leaf, fields: Type.Optional(Type.Array(DocFieldLeaf)) });
const DocFieldTop = Type.Object({
  ...leaf,
  fields: Type.Optional(Type.Array(DocFieldMid)),
  fragment_id: Type.Optional(Type.String({ description: 'A fragment’s template (`includeFragments=true`).' })),
});

/** `…/doc_fields` (reference: `FormidableCreatePayload`): the document's placeholders as form fields. */
export const DocFields = Type.Object(
  {
    label: Type.String({ description: 'The template’s title.' }),
    description: Type.String(),
    fields: Type.Array(DocFieldTop),
  },
  { $id: 'FormidableCreatePayload' },
);
export type DocFields = Static<typeof DocFields>;
export type DocField = Static<typeof DocFieldTop>;

export const DocFieldsQuery = Type.Object(
  {
    includeFragments: Type.Optional(
      Type.Boolean({ description: 'Each fragment’s own fields, inside it (default false: fragments are left out).' }),
    ),
  },
  { additionalProperties: false },
);

export const DocFieldsPut = Type.Object(
  {
    fields: Type.Array(
      Type.Object(
        {
          slug: Type.String({ minLength: 1, maxLength: 100 }),
          type_id: Type.Union(
            DOC_FIELD_TYPES.map((t) => Type.Literal(t)),
            { description: '`date` makes generation write the value as a date of the template’s locale.' },
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: 2000 },
    ),
  },
  { additionalProperties: false },
);
export type DocFieldsPut = Static<typeof DocFieldsPut>;

/** The deprecated `…/fields` (`FieldSet`): the placeholders, each with its kind. */
export const FieldSet = Type.Object(
  {
    fields: Type.Array(
      Type.Object({
        name: Type.String({ description: 'The slug.' }),
        type: Type.String({ description: '`text`, `date`, `list`, `table`, `condition` or `fragment`.' }),
        columns: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  },
  { $id: 'FieldSet' },
);
export type FieldSet = Static<typeof FieldSet>;
