/** Employee documents (`/employee_documents`) and company documents (`/company_documents`). */

import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
import type {
  CompactEmployeeDocument,
  CompanyDocument,
  CompanyDocumentCreate,
  CompanyDocumentListQuery,
  CompanyDocumentPatch,
  CompanyDocumentUpdate,
  EmployeeDocument,
  EmployeeDocumentCreate,
  EmployeeDocumentListQuery,
  EmployeeDocumentPatch,
  EmployeeDocumentSearch,
  EmployeeDocumentUpdate,
  ExpirationPayload,
  ExpirePayload,
} from '../schemas/hr/documents/documents.js';
import type { RedirectionUrls, RedirectionUrlsQuery } from '../schemas/hr/documents/redirection-urls.js';
import { type DownloadResponse, enc, type HrCore, type Id, type PreviewParams, type Verbs } from './core.js';

/** The verbs of `/employee_documents` and `/company_documents`. */
function documentResource<Doc, Create, Update, Patch, ListQ>(core: HrCore, v: Verbs, path: string) {
  return {
    /** Lists documents (cursor pages). */
    list: v.list<Doc, ListQ>(path),
    /** Creates a document from an upload (`uploaded_file`). */
    create: v.create<Create, Doc>(path),
    /** Gets a document. */
    retrieve: v.retrieve<Doc>(path),
    /** Replaces a document's attributes (`PUT`; the document must exist). */
    upsert: v.upsert<Update, Doc>(path),
    /** Changes some attributes (`PATCH`). */
    update: v.update<Patch, Doc>(path),
    /** Deletes a document for good. */
    del: v.del(path),
    /** Moves a document to the trash. */
    trash: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/trash`, {}, options);
    },
    /** Restores a document from the trash. */
    untrash: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/untrash`, {}, options);
    },
    /** Deletes every document in the trash. */
    emptyTrash: async (options?: RequestOptions): Promise<void> => {
      await core.call('DELETE', `${path}/trash`, {}, options);
    },
    /** Expires a document now or at a date (`PUT …/expire`). */
    expire: async (id: Id, body: ExpirePayload, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/expire`, { body }, options);
    },
    /** Changes a document's expiration (`PUT …/expiration/update`). */
    updateExpiration: async (id: Id, body: ExpirationPayload, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/expiration/update`, { body }, options);
    },
    /** Downloads the file: the raw `Response` (pass `headers: {range: 'bytes=0-99'}` for a part). */
    download: (id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${path}/${enc(id)}/file`, options),
    /** The download's headers without the body (`HEAD …/file`): size, type, name, ETag. */
    fileInfo: (id: Id, options?: RequestOptions): Promise<Response> => core.head(`${path}/${enc(id)}/file`, options),
    /** A page of a PDF, or an image, as a PNG (raw `Response`); `page` from 1 (default 1). */
    preview: (
      id: Id,
      params: Omit<PreviewParams, 'crop_rate'> & { page?: number | string } = {},
      options?: RequestOptions,
    ): Promise<DownloadResponse> => core.download(`${path}/${enc(id)}/preview`, options, { ...params }),
    /** A duplicate of a PDF, "DUPLICATE" across each page (raw `Response`). */
    duplicate: (id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${path}/${enc(id)}/duplicate`, options),
    /** The XML receipt of the document (raw `Response`). */
    receipt: (id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${path}/${enc(id)}/receipt`, options),
  };
}

/** `hr.employeeDocuments`: files, trash, expiry, search, downloads. */
export function employeeDocuments(core: HrCore, v: Verbs) {
  const path = '/employee_documents';
  return {
    ...documentResource<
      EmployeeDocument,
      EmployeeDocumentCreate,
      EmployeeDocumentUpdate,
      EmployeeDocumentPatch,
      EmployeeDocumentListQuery
    >(core, v, path),
    /** `POST /employee_documents/search`: filters in the body; compact items with `compact_response: true`. */
    search: (
      body?: Omit<EmployeeDocumentSearch, 'next_cursor' | 'page'>,
      options?: RequestOptions,
    ): AutoPager<EmployeeDocument | CompactEmployeeDocument> =>
      core.searchPager(`${path}/search`, body as Record<string, unknown>, options),
  };
}

/** `hr.companyDocuments`. */
export const companyDocuments = (core: HrCore, v: Verbs) =>
  documentResource<
    CompanyDocument,
    CompanyDocumentCreate,
    CompanyDocumentUpdate,
    CompanyDocumentPatch,
    CompanyDocumentListQuery
  >(core, v, '/company_documents');

/** `hr.redirectionUrls` (`GET /redirection_urls`): on Atrium, URLs of the client API's own resources. */
export const redirectionUrls = (core: HrCore) => ({
  retrieve: (params?: RedirectionUrlsQuery, options?: RequestOptions): Promise<RedirectionUrls> =>
    core.json('GET', '/redirection_urls', { query: { ...params } }, options),
});
