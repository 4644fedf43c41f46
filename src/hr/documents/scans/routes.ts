import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type FieldError, InvalidRequestError } from '../../../platform/errors.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { receiveFile, uploadContext } from '../../core/uploads/receive.js';
import { DocumentBodyDoc, NoQuery, UploadBodyDoc } from '../../core/uploads/schemas.js';
import { errorResponses } from '../../errors.js';
import {
  presentAsyncUpload,
  presentPendingDocument,
  presentScannedDocument,
  presentScanStatus,
  presentSyncUpload,
} from './present.js';
import {
  AsyncUploadResponse,
  DocumentAsyncHeaders,
  FileAsyncHeaders,
  FileParameters,
  FileSyncHeaders,
  FileUploadQuery,
  PendingDocumentFile,
  ScannedDocumentFile,
  ScanParams,
  ScanStatusBody,
  ScanStatusHeaders,
  SyncUploadResponse,
} from './schemas.js';
import type { ScanRequest, ScanResult, ScansService } from './service.js';

const TAG_DOCUMENTS = ['Documents'];
const TAG_UPLOADS = ['Uploads'];
/** `SAEFileParameters.retention_period`'s default (reference §1.4). */
const DEFAULT_FILE_RETENTION_SECONDS = 3600;
const CALLBACK_URL_LIMIT = 2048;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const invalidHeader = (field: string, code: string, message: string) =>
  new InvalidRequestError(`${field}: ${message}`, [{ field, code, message }]);

/** `X-Client-Id` (required on `/file/*`): the client of the access token, nothing else. */
function checkClientId(request: FastifyRequest): void {
  const value = header(request, 'x-client-id');
  if (value === undefined || value.trim() === '') {
    throw invalidHeader('X-Client-Id', 'required', 'This header is required: the client id of the access token.');
  }
  if (value.trim() !== request.hrAuth.clientId) {
    throw invalidHeader('X-Client-Id', 'invalid', 'This is not the client of the access token.');
  }
}

/** `X-file-parameters`: a JSON `SAEFileParameters`; its `retention_period` (default 3600) is the upload's lifetime. */
function retentionOf(request: FastifyRequest): number {
  const value = header(request, 'x-file-parameters');
  if (value === undefined || value.trim() === '') return DEFAULT_FILE_RETENTION_SECONDS;
  let parsed: unknown;
  try {
    // not-stored: the caller's header.
    parsed = JSON.parse(value);
  } catch {
    throw invalidHeader('X-file-parameters', 'invalid', 'Not JSON: send an object such as {"retention_period":7200}.');
  }
  if (!Value.Check(FileParameters, parsed)) {
    const errors: FieldError[] = [...Value.Errors(FileParameters, parsed)].map((e) => ({
      field: `X-file-parameters${e.path.replaceAll('/', '.')}`,
      code: 'invalid',
      message: e.message,
    }));
    throw new InvalidRequestError(
      `X-file-parameters: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
      errors,
    );
  }
  return (parsed as FileParameters).retention_period ?? DEFAULT_FILE_RETENTION_SECONDS;
}

/** `X-Callback-Url`: an absolute http(s) URL without credentials, or none. */
function callbackOf(request: FastifyRequest): string | null {
  const value = header(request, 'x-callback-url')?.trim();
  if (value === undefined || value === '') return null;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalidHeader('X-Callback-Url', 'invalid', 'Not an absolute http or https URL.');
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidHeader('X-Callback-Url', 'invalid', 'The URL must not hold credentials.');
  }
  if (value.length > CALLBACK_URL_LIMIT) {
    throw invalidHeader('X-Callback-Url', 'invalid', `Longer than ${CALLBACK_URL_LIMIT} characters.`);
  }
  return value;
}

/**
 * The antivirus-scanned uploads (reference §3c.1): `POST /document/upload`, `POST /document/upload/async`,
 * `POST /file/upload/sync`, `POST /file/upload/async` and `GET /file/scan/{scan_id}/status`. An upload context of
 * their own (uploads/receive.ts): the body is streamed to the blob store, never parsed.
 */
export async function scanRoutes(app: FastifyInstance, opts: { scans: ScansService }): Promise<void> {
  const { scans } = opts;
  await uploadContext(app, scans.limitBytes);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const documented = (body: typeof UploadBodyDoc) => ({
    swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({ schema: { ...schema, body }, url }),
  });
  const receive = (request: FastifyRequest, scan: ScanRequest, filename?: string): Promise<ScanResult> =>
    receiveFile(request, { limitBytes: scans.limitBytes, filename }, (name, source) =>
      scans.upload(request.hrAuth.clientId, name, source, scan),
    );

  api.post(
    '/document/upload',
    {
      config: documented(DocumentBodyDoc),
      schema: {
        tags: TAG_DOCUMENTS,
        summary: 'Upload a file for a document, scanned for viruses',
        description:
          'As `POST /document`, with an antivirus scan before the answer. `clean`: `file_id` is an upload, usable as `uploaded_file`. `infected` (the EICAR test file) or `failed`: no upload is made (any use of `file_id` is refused as unknown) and the bytes are deleted.',
        querystring: NoQuery,
        response: { 201: ScannedDocumentFile, ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      const { scan } = await receive(request, {
        source: 'document',
        retentionSeconds: scans.uploadTtlSeconds,
        callbackUrl: null,
        background: false,
      });
      return reply.status(201).send(presentScannedDocument(scan));
    },
  );

  api.post(
    '/document/upload/async',
    {
      config: documented(DocumentBodyDoc),
      schema: {
        tags: TAG_DOCUMENTS,
        summary: 'Upload a file for a document, scanned for viruses in the background',
        description:
          'As `POST /document/upload`, but the scan runs in the background: `file_id` becomes an upload only once the scan (`GET /file/scan/{scan_id}/status`) says `clean`. With `X-Callback-Url`, the verdict is POSTed there when the scan is done.',
        querystring: NoQuery,
        headers: DocumentAsyncHeaders,
        response: { 201: PendingDocumentFile, ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      const callbackUrl = callbackOf(request);
      const { scan } = await receive(request, {
        source: 'document',
        retentionSeconds: scans.uploadTtlSeconds,
        callbackUrl,
        background: true,
      });
      return reply.status(201).send(presentPendingDocument(scan));
    },
  );

  api.post(
    '/file/upload/sync',
    {
      config: documented(UploadBodyDoc),
      schema: {
        tags: TAG_UPLOADS,
        summary: 'Upload a file, scanned for viruses',
        description:
          'Multipart field `file`, or the raw body with `Content-Disposition` (or `?filename=`). `X-Client-Id` is required. A clean file is an upload (`id`) kept `retention_period` seconds (`X-file-parameters`, default 3600); an infected one (the EICAR test file) or a failed scan answers only `scan_id` and `scan_status`, and no upload is made.',
        querystring: FileUploadQuery,
        headers: FileSyncHeaders,
        response: { 201: SyncUploadResponse, ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      checkClientId(request);
      const retentionSeconds = retentionOf(request);
      const { scan, pageCount } = await receive(
        request,
        { source: 'file', retentionSeconds, callbackUrl: null, background: false },
        request.query.filename,
      );
      return reply.status(201).send(presentSyncUpload(scan, pageCount));
    },
  );

  api.post(
    '/file/upload/async',
    {
      config: documented(UploadBodyDoc),
      schema: {
        tags: TAG_UPLOADS,
        summary: 'Upload a file, scanned for viruses in the background',
        description:
          'As `POST /file/upload/sync`, but the scan runs in the background (`scan_status` `pending`): ask `GET /file/scan/{scan_id}/status` after `next_ping` seconds, or give `X-Callback-Url` to be called with the verdict. `sae_file_id` becomes an upload once the scan says `clean`.',
        querystring: FileUploadQuery,
        headers: FileAsyncHeaders,
        response: { 201: AsyncUploadResponse, ...errorResponses(400, 401, 403, 413, 422) },
      },
    },
    async (request, reply) => {
      checkClientId(request);
      const retentionSeconds = retentionOf(request);
      const callbackUrl = callbackOf(request);
      const { scan } = await receive(
        request,
        { source: 'file', retentionSeconds, callbackUrl, background: true },
        request.query.filename,
      );
      return reply.status(201).send(presentAsyncUpload(scan));
    },
  );

  api.get(
    '/file/scan/:scan_id/status',
    {
      schema: {
        tags: TAG_UPLOADS,
        summary: 'Get the status of a scan',
        description:
          'In camelCase, as in the reference. `X-Client-Id` is required. `pending` (with `nextPing`) until the scan is done, then `clean`, `infected` or `failed`.',
        params: ScanParams,
        headers: ScanStatusHeaders,
        response: { 200: ScanStatusBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      checkClientId(request);
      return presentScanStatus(await scans.get(request.hrAuth.clientId, request.params.scan_id));
    },
  );
}
