/** People Assist requests (`/requests`) with comments, attachments, files, assignees, links and macros. */

import type { RequestOptions } from '../http.js';
import { AutoPager } from '../pagination.js';
import type { MacroList } from '../schemas/hr/people-assist/macros.js';
import type {
  AssigneeQuery,
  CommentCreate,
  CommentListQuery,
  EmbedQuery,
  LinkCreate,
  MacroRun,
  RequestComment,
  RequestCreate,
  RequestFull,
  RequestFullWithAttachments,
  RequestListQuery,
  RequestPatch,
  UserSimplified,
} from '../schemas/hr/people-assist/requests.js';
import {
  type DownloadResponse,
  enc,
  type HrCore,
  type Id,
  type ListParams,
  type PreviewParams,
  type QueryParams,
  type Verbs,
} from './core.js';

/** `hr.requests`. */
export function requests(core: HrCore, v: Verbs) {
  const path = '/requests';
  const of = (requestId: Id) => `${path}/${enc(requestId)}`;
  const files = (kind: 'attachments' | 'files') => ({
    /** Downloads it (raw `Response`). */
    download: (requestId: Id, id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${of(requestId)}/${kind}/${enc(id)}/download`, options),
    /** Its page count (`HEAD …/preview`, `Page-Count`): a PDF's pages, 1 for an image. */
    pageCount: (requestId: Id, id: Id, options?: RequestOptions): Promise<number> =>
      core.pageCount(`${of(requestId)}/${kind}/${enc(id)}/preview`, options),
    /** A page as a PNG (raw `Response`); `page` from 1. */
    preview: (
      requestId: Id,
      id: Id,
      page: number,
      params: PreviewParams = {},
      options?: RequestOptions,
    ): Promise<DownloadResponse> =>
      core.download(`${of(requestId)}/${kind}/${enc(id)}/preview/${page}`, options, { ...params }),
    /** Deletes it. */
    del: async (requestId: Id, id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('DELETE', `${of(requestId)}/${kind}/${enc(id)}`, {}, options);
    },
  });
  return {
    list: v.list<RequestFull, RequestListQuery>(path),
    create: v.create<RequestCreate, RequestFullWithAttachments>(path),
    retrieve: v.retrieve<RequestFullWithAttachments, EmbedQuery>(path),
    update: v.update<RequestPatch, RequestFullWithAttachments>(path),
    del: v.del(path),
    /** A PDF of the request, its answers and comments (raw `Response`). */
    pdf: (id: Id, options?: RequestOptions): Promise<DownloadResponse> => core.download(`${of(id)}/pdf`, options),
    comments: {
      /** The comments of a request, newest first: an {@link AutoPager} over cursor pages (100 per page by default). */
      list: (
        requestId: Id,
        params?: ListParams<CommentListQuery>,
        options?: RequestOptions,
      ): AutoPager<RequestComment> =>
        core.pager<RequestComment>(`${of(requestId)}/comments`, params as Record<string, unknown>, options),
      /** Adds a comment. */
      create: (requestId: Id, body: CommentCreate, options?: RequestOptions): Promise<RequestComment> =>
        core.json('POST', `${of(requestId)}/comments`, { body }, options),
      /** Downloads an attachment of a comment (raw `Response`). */
      downloadAttachment: (
        requestId: Id,
        commentId: Id,
        attachmentId: Id,
        options?: RequestOptions,
      ): Promise<DownloadResponse> =>
        core.download(`${of(requestId)}/comments/${enc(commentId)}/attachments/${enc(attachmentId)}`, options),
      /** The page count of a comment's attachment (`HEAD …/preview`, `Page-Count`). */
      attachmentPageCount: (
        requestId: Id,
        commentId: Id,
        attachmentId: Id,
        options?: RequestOptions,
      ): Promise<number> =>
        core.pageCount(`${of(requestId)}/comments/${enc(commentId)}/attachments/${enc(attachmentId)}/preview`, options),
      /** A page of a comment's attachment as a PNG (raw `Response`); `page` from 1. */
      previewAttachment: (
        requestId: Id,
        commentId: Id,
        attachmentId: Id,
        page: number,
        params: PreviewParams = {},
        options?: RequestOptions,
      ): Promise<DownloadResponse> =>
        core.download(
          `${of(requestId)}/comments/${enc(commentId)}/attachments/${enc(attachmentId)}/preview/${page}`,
          options,
          { ...params },
        ),
    },
    /** The request's attachments (from `attachment_upload_ids`). */
    attachments: files('attachments'),
    /** The request's form files (answers of `file` fields). */
    files: files('files'),
    assignees: {
      /** The users assigned to a request: every one, in slices of `length` (offset paging). */
      list: (
        requestId: Id,
        params: QueryParams<Pick<AssigneeQuery, 'length'>> = {},
        options: RequestOptions = {},
      ): AutoPager<UserSimplified> => {
        const length = params.length ?? 10;
        return new AutoPager<UserSimplified>(async (at, opts) => {
          const offset = at ? Number(at) : 0;
          const { data, response } = await core.call<UserSimplified[]>(
            'GET',
            `${of(requestId)}/assignees`,
            { query: { offset, length } },
            opts,
          );
          const total = Number(response.headers.get('x-total-count') ?? data.length);
          const next = offset + length < total && data.length > 0 ? String(offset + length) : undefined;
          return { items: data, total, ...(next ? { nextCursor: next } : {}) };
        }, options);
      },
    },
    linked: {
      /** The requests linked to a request (cursor pages). */
      list: (
        requestId: Id,
        params?: ListParams<{ per_page?: number; cursor?: string }>,
        options?: RequestOptions,
      ): AutoPager<RequestFull> =>
        core.pager<RequestFull>(`${of(requestId)}/linked_requests`, params as Record<string, unknown>, options),
      /** Links requests to this one (`{uuid: [...]}`). */
      create: async (requestId: Id, body: LinkCreate, options?: RequestOptions): Promise<void> => {
        await core.call('POST', `${of(requestId)}/linked_requests`, { body }, options);
      },
    },
    macros: {
      /** The macros that may run on a request. */
      list: (requestId: Id, options?: RequestOptions): Promise<MacroList[]> =>
        core.json('GET', `${of(requestId)}/macros`, {}, options),
      /** Runs a macro on a request. */
      run: async (requestId: Id, body: MacroRun, options?: RequestOptions): Promise<void> => {
        await core.call('POST', `${of(requestId)}/macros`, { body }, options);
      },
    },
  };
}
