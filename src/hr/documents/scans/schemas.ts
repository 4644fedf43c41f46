import { type Static, Type } from '@sinclair/typebox';

/** Reference §3c.1 (antivirus-scanned uploads) and §1.4 (`X-Client-Id`, `X-file-parameters`, `X-Callback-Url`). */

const SCAN_STATUS = Type.String({
  enum: ['pending', 'clean', 'infected', 'failed'],
  description:
    '`clean` (the file is an upload now), `infected` (the EICAR test file: no upload is made and the bytes are deleted), `failed` (the file could not be read back: no upload), or `pending` (an asynchronous scan not done yet).',
});
const FINAL_STATUS = Type.String({
  enum: ['clean', 'infected', 'failed'],
  description: '`clean` (the file is an upload now), `infected` (no upload; the bytes are deleted) or `failed`.',
});
const FILENAME = Type.String({
  description: 'The name the client gave, without any path and without control characters.',
});
const FILE_ID = Type.String({
  format: 'uuid',
  description:
    'The upload the file becomes once clean: the `uploaded_file.file_id` of a document, or the `upload_id` of other calls. Unknown to every other call until the scan says `clean`.',
});
const SCAN_ID = Type.String({ format: 'uuid', description: 'The scan: `GET /file/scan/{scan_id}/status`.' });

/** `POST /document/upload`: `DocumentFileId` + `scan_status`. */
export const ScannedDocumentFile = Type.Object(
  { filename: FILENAME, file_id: FILE_ID, scan_status: FINAL_STATUS },
  { title: 'DocumentFileIdScanned', description: 'An uploaded file and its scan verdict.' },
);
export type ScannedDocumentFile = Static<typeof ScannedDocumentFile>;

/** `POST /document/upload/async`: `DocumentFileId` + `scan_id`. */
export const PendingDocumentFile = Type.Object(
  { filename: FILENAME, file_id: FILE_ID, scan_id: SCAN_ID },
  { title: 'DocumentFileIdAsyncScan', description: 'An uploaded file whose scan runs in the background.' },
);
export type PendingDocumentFile = Static<typeof PendingDocumentFile>;

/** `POST /file/upload/async`: `SAEAntivirusAsyncUploadResponse`. */
export const AsyncUploadResponse = Type.Object(
  {
    scan_id: SCAN_ID,
    filename: FILENAME,
    sae_file_id: FILE_ID,
    scan_status: SCAN_STATUS,
    next_ping: Type.Integer({ minimum: 0, description: 'Seconds to wait before asking for the status.' }),
  },
  { title: 'SAEAntivirusAsyncUploadResponse' },
);
export type AsyncUploadResponse = Static<typeof AsyncUploadResponse>;

/**
 * `POST /file/upload/sync`: `SAEAntivirusSyncUploadResponseExternal`. A clean file answers every field; an
 * infected one, or one whose scan failed, only `scan_id` and `scan_status` (reference §3c.1).
 */
export const SyncUploadResponse = Type.Object(
  {
    scan_id: SCAN_ID,
    scan_status: FINAL_STATUS,
    id: Type.Optional(FILE_ID),
    filename: Type.Optional(FILENAME),
    content_type: Type.Optional(
      Type.String({ description: 'Detected from the bytes; `application/octet-stream` when unknown.' }),
    ),
    page_count: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'Pages of a PDF; null for any other file and for a PDF that cannot be read.',
      }),
    ),
    creation_date: Type.Optional(Type.String({ format: 'date-time' })),
    expires_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the upload is deleted if nothing has used it by then.' }),
    ),
    retention_period: Type.Optional(
      Type.String({ pattern: '^[0-9]+$', description: 'The upload’s lifetime in seconds, as a string (`"7200"`).' }),
    ),
  },
  {
    title: 'SAEAntivirusSyncUploadResponseExternal',
    description: 'Every field for a clean file; only `scan_id` and `scan_status` for an infected one or a failed scan.',
  },
);
export type SyncUploadResponse = Static<typeof SyncUploadResponse>;

/** `GET /file/scan/{scan_id}/status`: `SAEAntivirusScanStatus`, in camelCase as in the reference. */
export const ScanStatusBody = Type.Object(
  {
    scanId: SCAN_ID,
    saeFileId: FILE_ID,
    status: SCAN_STATUS,
    message: Type.String({ description: 'The verdict in words.' }),
    nextPing: Type.Optional(
      Type.Integer({ minimum: 0, description: 'While `pending` only: seconds to wait before asking again.' }),
    ),
  },
  { title: 'SAEAntivirusScanStatus' },
);
export type ScanStatusBody = Static<typeof ScanStatusBody>;

/** `X-file-parameters` (`SAEFileParameters`), a JSON object in a header. */
export const FileParameters = Type.Object(
  {
    retention_period: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        description: 'The upload’s lifetime in seconds (default 3600, at most 7 days).',
      }),
    ),
    archiving_profile: Type.Optional(
      Type.Union(
        ['LOCAL', 'NOVAFR', 'NOVAFR_CDC', 'CLOUD', 'S3', 'GCS', 'DMP'].map((profile) => Type.Literal(profile)),
        { description: 'Accepted and checked; Atrium keeps every file in its own store (`LOCAL`).' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type FileParameters = Static<typeof FileParameters>;

/** `?filename=` of `POST /file/upload/*`: the file's name (it wins over the body's own). */
export const FileUploadQuery = Type.Object(
  {
    filename: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'The file’s name; wins over the body’s own.' }),
    ),
  },
  { additionalProperties: false },
);
export type FileUploadQuery = Static<typeof FileUploadQuery>;

export const ScanParams = Type.Object({ scan_id: Type.String({ format: 'uuid', description: 'The scan id.' }) });

const CLIENT_ID_HEADER = Type.String({
  description: 'Required: the client (tenant) id of the access token; 400 when it is missing or another client’s.',
});
const FILE_PARAMETERS_HEADER = Type.String({
  description: 'JSON `SAEFileParameters`: `{"retention_period": 7200, "archiving_profile": "LOCAL"}`.',
});
const CALLBACK_HEADER = Type.String({
  description:
    'An http(s) URL: the verdict is POSTed to it (as `GET /file/scan/{scan_id}/status` answers it) once the scan is done.',
});

/** The headers of each call (for the OpenAPI document; the routes read and check them). */
export const ScanStatusHeaders = Type.Object({ 'x-client-id': Type.Optional(CLIENT_ID_HEADER) });
export const FileSyncHeaders = Type.Object({
  'x-client-id': Type.Optional(CLIENT_ID_HEADER),
  'x-file-parameters': Type.Optional(FILE_PARAMETERS_HEADER),
});
export const FileAsyncHeaders = Type.Object({
  ...FileSyncHeaders.properties,
  'x-callback-url': Type.Optional(CALLBACK_HEADER),
});
export const DocumentAsyncHeaders = Type.Object({ 'x-callback-url': Type.Optional(CALLBACK_HEADER) });
