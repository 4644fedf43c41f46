/** Temporary files (`/uploads`, `/document`) that documents, requests and tasks consume; scanned ones. */

import type { RequestOptions } from '../http.js';
import type {
  DocumentFileId,
  UploadDocument,
  UploadTextoccurrencesFull,
  UploadTextoccurrencesSearch,
} from '../schemas/hr/core/uploads.js';
import type {
  AsyncUploadResponse,
  FileParameters,
  PendingDocumentFile,
  ScannedDocumentFile,
  ScanStatusBody,
  SyncUploadResponse,
} from '../schemas/hr/documents/scans.js';
import { enc, formOf, type HrCore, type Id, type UploadInput } from './core.js';

/** `hr.uploads`. */
export function uploads(core: HrCore) {
  return {
    /** Uploads a temporary file (`POST /uploads`, multipart); its `id` is the `upload_id` other calls take. */
    create: (input: UploadInput, options?: RequestOptions): Promise<UploadDocument> =>
      core.json('POST', '/uploads', { form: formOf(input) }, options),
    /** Uploads a temporary file (`POST /document`): `{filename, file_id}`, the `uploaded_file` of a document. */
    createDocumentFile: (input: UploadInput, options?: RequestOptions): Promise<DocumentFileId> =>
      core.json('POST', '/document', { form: formOf(input) }, options),
    /** Where a keyword appears in a PDF upload: each place, in PDF points from the page's bottom-left corner. */
    textOccurrences: (
      id: Id,
      body: UploadTextoccurrencesSearch,
      options?: RequestOptions,
    ): Promise<UploadTextoccurrencesFull[]> =>
      core.json('POST', `/uploads/${enc(id)}/text_occurrences`, { body }, options),
  };
}

/** `hr.scans`: scanned uploads; the `/file/*` calls send `X-Client-Id`. */
export function scans(core: HrCore) {
  type Input = UploadInput & { fileParameters?: FileParameters; callbackUrl?: string };
  const post = <T>(path: string, input: Input, file: boolean, options?: RequestOptions): Promise<T> => {
    const headers: Record<string, string> = { ...options?.headers };
    if (file) headers['x-client-id'] = core.clientId;
    if (input.fileParameters) headers['x-file-parameters'] = JSON.stringify(input.fileParameters);
    if (input.callbackUrl) headers['x-callback-url'] = input.callbackUrl;
    return core.json('POST', path, { form: formOf(input) }, { ...options, headers });
  };
  return {
    uploadDocument: (input: UploadInput, options?: RequestOptions) =>
      post<ScannedDocumentFile>('/document/upload', input, false, options),
    uploadDocumentAsync: (input: Input, options?: RequestOptions) =>
      post<PendingDocumentFile>('/document/upload/async', input, false, options),
    uploadSync: (input: Input, options?: RequestOptions) =>
      post<SyncUploadResponse>('/file/upload/sync', input, true, options),
    uploadAsync: (input: Input, options?: RequestOptions) =>
      post<AsyncUploadResponse>('/file/upload/async', input, true, options),
    status: (scanId: string, options?: RequestOptions): Promise<ScanStatusBody> =>
      core.json(
        'GET',
        `/file/scan/${enc(scanId)}/status`,
        {},
        {
          ...options,
          headers: { ...options?.headers, 'x-client-id': core.clientId },
        },
      ),
  };
}
