/** Antivirus-scanned uploads (`/document/upload*`, `/file/upload/*`, `/file/scan/{scan_id}/status`). */

import type { RequestOptions } from '../http.js';
import type {
  AsyncUploadResponse,
  FileParameters,
  PendingDocumentFile,
  ScannedDocumentFile,
  ScanStatusBody,
  SyncUploadResponse,
} from '../schemas/hr/documents/scans.js';
import { enc, formOf, type HrCore, type UploadInput } from './core.js';

/** A file to scan, with the `/file/upload/*` settings. */
export interface ScannedUploadInput extends UploadInput {
  /** `X-file-parameters`: the upload's `retention_period` in seconds (default 3600), the `archiving_profile`. */
  fileParameters?: FileParameters;
}

/** `hr.scans`. */
export function scans(core: HrCore) {
  const withHeaders = (options: RequestOptions | undefined, headers: Record<string, string | undefined>) => {
    const set = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
    return { ...options, headers: { ...options?.headers, ...set } };
  };
  const fileHeaders = (input: ScannedUploadInput, callbackUrl?: string) => ({
    'x-client-id': core.clientId,
    'x-file-parameters': input.fileParameters ? JSON.stringify(input.fileParameters) : undefined,
    'x-callback-url': callbackUrl,
  });
  return {
    /** Uploads and scans a file (`POST /document/upload`): `{filename, file_id, scan_status}`. */
    uploadDocument: (input: UploadInput, options?: RequestOptions): Promise<ScannedDocumentFile> =>
      core.json('POST', '/document/upload', { form: formOf(input) }, options),
    /** Uploads a file scanned in the background (`POST /document/upload/async`); the verdict goes to `callbackUrl`. */
    uploadDocumentAsync: (
      input: UploadInput & { callbackUrl?: string },
      options?: RequestOptions,
    ): Promise<PendingDocumentFile> =>
      core.json(
        'POST',
        '/document/upload/async',
        { form: formOf(input) },
        withHeaders(options, { 'x-callback-url': input.callbackUrl }),
      ),
    /** Uploads and scans a file (`POST /file/upload/sync`); only `scan_id` and `scan_status` unless it is clean. */
    uploadSync: (input: ScannedUploadInput, options?: RequestOptions): Promise<SyncUploadResponse> =>
      core.json('POST', '/file/upload/sync', { form: formOf(input) }, withHeaders(options, fileHeaders(input))),
    /** Uploads a file scanned in the background (`POST /file/upload/async`); the verdict goes to `callbackUrl`. */
    uploadAsync: (
      input: ScannedUploadInput & { callbackUrl?: string },
      options?: RequestOptions,
    ): Promise<AsyncUploadResponse> =>
      core.json(
        'POST',
        '/file/upload/async',
        { form: formOf(input) },
        withHeaders(options, fileHeaders(input, input.callbackUrl)),
      ),
    /** A scan's status (`GET /file/scan/{scan_id}/status`), in camelCase. */
    status: (scanId: string, options?: RequestOptions): Promise<ScanStatusBody> =>
      core.json('GET', `/file/scan/${enc(scanId)}/status`, {}, withHeaders(options, { 'x-client-id': core.clientId })),
  };
}
