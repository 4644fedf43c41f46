import { type Static, Type } from '@sinclair/typebox';

/** `UploadDocument` (reference §3c.1): the temporary file `POST /uploads` creates. */
export const UploadDocument = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'Temporary ID of the file: the `upload_id` (or `file_id`) other endpoints take.',
    }),
    filename: Type.String({
      description: 'The name the client gave, without any path and without control characters.',
    }),
    content_type: Type.String({
      description: 'Detected from the bytes (never taken from the request); `application/octet-stream` when unknown.',
    }),
    size: Type.Integer({ minimum: 0, description: 'Size of the file in bytes (an Atrium addition).' }),
    page_count: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description:
        'Number of pages of a PDF, counted when it is uploaded; null for any other file and for a PDF that cannot be read (corrupt, or too costly to parse).',
    }),
    creation_date: Type.String({ format: 'date-time', description: 'When the file was uploaded.' }),
    expires_at: Type.String({
      format: 'date-time',
      description: 'When the file is deleted if nothing has used it by then.',
    }),
    retention_period: Type.Integer({
      minimum: 0,
      description: 'How long an unused upload is kept, in seconds (`ATRIUM_UPLOAD_TTL`, default 86400).',
    }),
  },
  { title: 'UploadDocument', description: 'A temporary file, usable until `expires_at`.' },
);
export type UploadDocument = Static<typeof UploadDocument>;

/** `DocumentFileId` (reference §3c.1): what `uploaded_file` in document-create payloads expects. */
export const DocumentFileId = Type.Object(
  {
    filename: Type.String({
      description: 'The name the client gave, without any path and without control characters.',
    }),
    file_id: Type.String({
      format: 'uuid',
      description: 'Temporary ID of the file, to send as `uploaded_file.file_id` when creating a document.',
    }),
  },
  { title: 'DocumentFileId', description: 'A temporary file, to be turned into a document.' },
);
export type DocumentFileId = Static<typeof DocumentFileId>;

/** No query parameter is accepted (an unknown one is 400, as everywhere in this API). */
export const NoQuery = Type.Object({}, { additionalProperties: false });

/** The request body, for the OpenAPI document only: the body is read as a stream, never validated as a whole. */
export const UploadBodyDoc = {
  description:
    'The file: a multipart form with the field `file`, or the raw bytes with `Content-Disposition: attachment; filename="name.ext"` and any content type.',
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary', description: 'The file.' } },
      },
    },
    '*/*': { schema: { type: 'string', format: 'binary', description: 'The raw bytes of the file.' } },
  },
};

/** Same as `UploadBodyDoc`, for `POST /document` (whose reference form is multipart). */
export const DocumentBodyDoc = {
  ...UploadBodyDoc,
  description:
    'The file as a multipart form with the field `file` (a raw body with `Content-Disposition` is accepted too).',
};

/** The body of `POST /uploads/{id}/text_occurrences` (reference §3c.1). */
export const UploadTextoccurrencesSearch = Type.Object(
  {
    keyword: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'Looked for case-insensitively, within one run of text.',
    }),
  },
  { title: 'UploadTextoccurrencesSearch' },
);

/** `UploadTextoccurrencesFull` (reference §3c.1): where a keyword appears, in PDF points from the bottom-left. */
export const UploadTextoccurrencesFull = Type.Object(
  {
    keyword: Type.String(),
    page_number: Type.Integer({ minimum: 1 }),
    left: Type.Number({ minimum: 0 }),
    top: Type.Number({ minimum: 0, description: 'The top of the text: its baseline plus its height.' }),
    width: Type.Number({ minimum: 0 }),
    height: Type.Number({ minimum: 0 }),
  },
  { $id: 'UploadTextoccurrencesFull', title: 'UploadTextoccurrencesFull' },
);
