import { type Static, Type } from '@sinclair/typebox';
import { PreviewPage, PreviewSizeQuery } from '../../../platform/renditions/http.js';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** The most recipients one generated document is mailed to (reference §4.2). */
export const MAX_RECIPIENTS = 5;

/** `DatasetField` (reference §5.5): a placeholder's value. */
export const DatasetField = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 100, description: 'The placeholder, without its leading `$`.' }),
    value: Type.Unknown({
      description:
        'A string, number or boolean; `{label, value}` (the label is written); an array of values (a list); or an array of rows, each an array of `{slug, value}` (a table).',
    }),
    type: Type.Optional(
      Type.String({ maxLength: 32, description: '`date`: an ISO 8601 date or date-time, written in UTC.' }),
    ),
  },
  { additionalProperties: false },
);

const Recipient = Type.Object(
  {
    firstname: Type.String({ minLength: 1, maxLength: 255 }),
    lastname: Type.String({ minLength: 1, maxLength: 255 }),
    email: Type.String({ format: 'email', maxLength: 255 }),
    language: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
);

export const Recipients = Type.Array(Recipient, { minItems: 1, maxItems: MAX_RECIPIENTS });

export const OutputFormat = Type.Union([
  Type.Literal('DOC'),
  Type.Literal('DOCX'),
  Type.Literal('ODT'),
  Type.Literal('PDF'),
]);

/** `DocGenRequestPayload` (reference §5.5). */
export const GenerationPayload = Type.Object(
  {
    document_generation_template_id: Type.String({ format: 'uuid' }),
    document_generation_template_version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Default: the template’s latest version.' }),
    ),
    fields: Type.Array(DatasetField, { maxItems: 2000 }),
    output_format: OutputFormat,
    context: Type.Optional(Type.Unknown({ description: 'Anything: kept with the generation, answered as sent.' })),
    signature_field_generation: Type.Optional(
      Type.Boolean({ description: 'PDF only: the document gets a signature area, for a signature process.' }),
    ),
    fragment_fields: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.Array(DatasetField, { maxItems: 2000 }), {
        maxProperties: 200,
        description: 'By fragment placeholder (at most 200): the fragment’s own fields.',
      }),
    ),
    email_recipients: Type.Optional(Type.Array(Recipient, { maxItems: MAX_RECIPIENTS })),
    employee_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    document_type_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  },
  { additionalProperties: false },
);
export type GenerationPayload = Static<typeof GenerationPayload>;

export const GenerationQuery = Type.Object(
  {
    strict: Type.Optional(
      Type.Boolean({
        description:
          'true: the dataset and the template must match exactly (422 otherwise). false (default): missing placeholders stay in the document and are listed in `errors`.',
      }),
    ),
  },
  { additionalProperties: false },
);

const GenerationError = Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() });

const full = {
  id: Type.String({ format: 'uuid' }),
  format: Type.Union([...OutputFormat.anyOf, Type.Literal('UNKNOWN')]),
  document_generation_template_id: Type.String({ format: 'uuid' }),
  document_generation_template_version: Type.Integer(),
  context: Type.Unknown(),
  upload_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The generated file’s id; null until generated.',
  }),
  status: Type.Union(['GENERATED', 'NOT_GENERATED', 'GENERATING', 'FAILED', 'CANCELED'].map((s) => Type.Literal(s))),
  employee_id: Type.Union([Type.String(), Type.Null()]),
  document_type_id: Type.Union([Type.String(), Type.Null()]),
  page_count: Type.Union([Type.Integer(), Type.Null()]),
  archived_document_id: Type.Union([Type.String(), Type.Null()], { description: 'Once archived: the document.' }),
  generation_started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  generation_finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const Generation = Type.Object(full, { $id: 'DocGenFull' });
export type Generation = Static<typeof Generation>;
export const GenerationWithErrors = Type.Object(
  { ...full, errors: Type.Array(GenerationError) },
  { $id: 'DocGenFullWithErrors' },
);
export type GenerationWithErrors = Static<typeof GenerationWithErrors>;

export const GenerationParams = Type.Object({
  id: Type.String({ pattern: '^[0-9A-Fa-f-]{1,36}$', description: 'The generated document’s id.' }),
});
export const GenerationPageParams = Type.Object({ ...GenerationParams.properties, page: PreviewPage });
export const PreviewQuery = Type.Object({ size: Type.Optional(PreviewSizeQuery) }, { additionalProperties: false });

export const EmailPayload = Type.Object({ email_recipients: Recipients }, { additionalProperties: false });
export type EmailPayload = Static<typeof EmailPayload>;

export const REQUEST_STATUSES = ['PROCESSED', 'NOT_PROCESSED', 'RECEIVED_ASYNC', 'SENT_ASYNC', 'FAILED'] as const;

/** A generation request (`RequestListingDto`), and the answer of its status. */
export const GenerationRequest = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: Type.Union(REQUEST_STATUSES.map((s) => Type.Literal(s))),
    document_generation_id: Type.String({ format: 'uuid' }),
    document_generation_template_id: Type.String({ format: 'uuid' }),
    document_generation_template_version: Type.Integer(),
    format: Type.String(),
    errors: Type.Array(GenerationError),
    failure: Type.Union([Type.String(), Type.Null()], { description: 'Why a FAILED request failed.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'RequestListingDto' },
);
export type GenerationRequest = Static<typeof GenerationRequest>;

export const RequestParams = Type.Object({
  id: Type.String({ pattern: '^[0-9A-Fa-f-]{1,36}$', description: 'The generation request’s id.' }),
});

/** `GET /document_generation_requests`: newest first. */
export const RequestList = declareList('document_generation_requests');
export const RequestListQuery = Type.Object(
  {
    ...PaginationQuery,
    status: Type.Optional(
      Type.Union(
        ['processed', 'not_processed', 'received_async', 'sent_async', 'failed'].map((s) => Type.Literal(s)),
        { description: 'Lower case, as the reference has it (the answers say it in upper case).' },
      ),
    ),
    document_generation_template_id: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: false },
);
export type RequestListQuery = Static<typeof RequestListQuery>;

/** The answer of `POST /document_generations/async` (202). */
export const AsyncAccepted = GenerationRequest;
