/** Temporary files (`/uploads`, `/document`) that documents, requests and tasks consume. */

import type { RequestOptions } from '../http.js';
import type {
  DocumentFileId,
  UploadDocument,
  UploadTextoccurrencesFull,
  UploadTextoccurrencesSearch,
} from '../schemas/hr/core/uploads.js';
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
