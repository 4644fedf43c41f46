import { type Static, Type } from '@sinclair/typebox';
import { Slug } from '../../core/forms/schemas.js';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { TEMPLATE_ID_PATTERN } from '../process-templates/schemas.js';

/** At most this many signature zones and mapped fields per PDF template. */
export const MAX_SIGNATURE_ZONES = 50;
export const MAX_FORM_MAPPING = 500;

export const PdfTemplateParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'The PDF template id: lower-case letters, digits, `-` and `_`.',
  }),
});

export const SignatureZone = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: TEMPLATE_ID_PATTERN,
      description: 'Unique in the template.',
    }),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    page: Type.Integer({ minimum: 1, description: 'From 1; at most the PDF’s page count when it could be counted.' }),
    x: Type.Integer({ minimum: 0, maximum: 100_000, description: 'From the left edge of the page, in points.' }),
    y: Type.Integer({ minimum: 0, maximum: 100_000, description: 'From the bottom edge of the page, in points.' }),
  },
  { additionalProperties: false },
);
export type SignatureZone = Static<typeof SignatureZone>;

export const FormMappingItem = Type.Object(
  {
    pdf_field_name: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The name of a field of the PDF; each is mapped once.',
    }),
    form_field_id: Type.String({
      ...Slug,
      description: 'The slug of the form field (of the fill_pdf task’s form) whose answer fills it.',
    }),
  },
  { additionalProperties: false },
);
export type FormMappingItem = Static<typeof FormMappingItem>;

const ReadOnly = (description: string) =>
  Type.Optional(Type.Unknown({ description: `Read-only; ignored. ${description}` }));

/** `PdfTemplateWrite`: the body of `PUT /process_pdf_templates/{id}`. */
export const PdfTemplatePut = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 255, description: 'Read-only; when sent, it must be the path id.' })),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    file_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'Defaults to the upload’s file name.' }),
    ),
    document_type_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()], {
        description:
          'An employee document type (`/employee_document_types`): the document manager’s type of the documents made from it.',
      }),
    ),
    upload_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'A PDF upload (`POST /uploads`), used up. Required on create; on update it replaces the file.',
      }),
    ),
    signature_zones: Type.Optional(Type.Array(SignatureZone, { maxItems: MAX_SIGNATURE_ZONES })),
    form_mapping: Type.Optional(Type.Array(FormMappingItem, { maxItems: MAX_FORM_MAPPING })),
    process_form_id: ReadOnly('Always null in Atrium.'),
    created_at: ReadOnly('Set by the server.'),
    updated_at: ReadOnly('Set by the server.'),
  },
  { additionalProperties: false },
);
export type PdfTemplatePut = Static<typeof PdfTemplatePut>;

const listFields = {
  id: Type.String({ pattern: TEMPLATE_ID_PATTERN }),
  name: Type.String(),
  file_name: Type.String(),
  document_type_id: Type.Union([Type.String(), Type.Null()]),
  process_form_id: Type.Union([Type.String(), Type.Null()], {
    description:
      'Always null: Atrium has no separate process forms; a fill_pdf task’s form is its task template’s `formidable`.',
  }),
};

/** `PdfTemplateList`: the items of the list. */
export const PdfTemplateSummary = Type.Object(listFields, { $id: 'PdfTemplateList', title: 'PdfTemplateList' });
export type PdfTemplateSummary = Static<typeof PdfTemplateSummary>;

/** `PdfTemplateDetail`. */
export const PdfTemplate = Type.Object(
  {
    ...listFields,
    signature_zones: Type.Array(SignatureZone),
    form_mapping: Type.Array(FormMappingItem),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'PdfTemplateDetail', title: 'PdfTemplateDetail' },
);
export type PdfTemplate = Static<typeof PdfTemplate>;

/** `GET /process_pdf_templates`: in creation order. */
export const PdfTemplateList = declareList('process_pdf_templates');
export const PdfTemplateListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export const PdfTemplateCountQuery = Type.Object({}, { additionalProperties: false });
