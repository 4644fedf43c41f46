/**
 * `/requests` and everything under it (reference §3d.1–3d.8): one registration function per group of operations,
 * which the module calls in this file's order (the OpenAPI document's).
 */
import { type TObject, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { InvalidRequestError } from '../../../platform/errors.js';
import { formatContentDisposition } from '../../../platform/http/content-disposition.js';
import { NoBody } from '../../../platform/http/no-body.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import {
  PagePreviewQuery,
  PNG_RESPONSE,
  PreviewPage,
  previewDownload,
  previewOptions,
} from '../../../platform/renditions/http.js';
import type { Renditions } from '../../../platform/renditions/renditions.js';
import type { Clock } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute } from '../../item-route.js';
import { listCall, sendJsonItems, sendPage } from '../../lists/list.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import { presentMacro } from '../macros/present.js';
import { MacroList } from '../macros/schemas.js';
import type { RequestActor } from './actors.js';
import type { RequestCommentsService } from './comments-service.js';
import type { RequestFilesService } from './files-service.js';
import type { RequestLinksService } from './links-service.js';
import type { RequestMacrosService } from './macros-service.js';
import { presentRequestPdf } from './pdf.js';
import { type Embed, presentComment, presentRequest, presentWithAttachments, simplified } from './present.js';
import type { RequestFileRecord } from './repository.js';
import {
  AssigneeQuery,
  CommentAttachmentParams,
  CommentCreate,
  CommentList,
  CommentListQuery,
  EmbedQuery,
  LinkCreate,
  LinkedListQuery,
  LinkedRequestList,
  MacroRun,
  REQUEST_EMBEDS,
  RequestAttachmentParams,
  RequestComment,
  RequestCreate,
  RequestFileParams,
  RequestFull,
  RequestFullWithAttachments,
  RequestList,
  RequestListQuery,
  RequestParams,
  RequestPatch,
  UserSimplified,
} from './schemas.js';
import type { RequestsService } from './service.js';

/** The actor of a call: the HR user named by `X-Atrium-User-Id` (an Atrium extension), or the application. */
function actorOf(request: FastifyRequest): RequestActor {
  const userId = request.headers['x-atrium-user-id'];
  return typeof userId === 'string' ? { kind: 'user', userId } : { kind: 'application' };
}

function embedsOf(text: string | undefined): Set<Embed> {
  const out = new Set<Embed>();
  for (const part of (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!(REQUEST_EMBEDS as readonly string[]).includes(part)) {
      throw new InvalidRequestError(
        `Invalid query parameter "embed": "${part}" is not one of ${REQUEST_EMBEDS.join(', ')}.`,
      );
    }
    out.add(part as Embed);
  }
  return out;
}

const TAG = ['People Assist: Requests'];
const fileHeaders = Type.Object({
  'Content-Type': Type.String(),
  'Content-Length': Type.Integer(),
  'Content-Disposition': Type.String(),
  'Accept-Ranges': Type.Literal('bytes'),
  ETag: Type.String(),
});
const actorHeader = Type.Object({
  'x-atrium-user-id': Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'Atrium extension: the HR user the call acts for (who closes the request, whose roles decide which macros apply). Without it, the application acts.',
    }),
  ),
});

/** `/requests` and a request's own operations: the list, creation, GET, PATCH and DELETE. */
export async function requestRoutes(
  app: FastifyInstance,
  opts: { requests: RequestsService; paginator: Paginator },
): Promise<void> {
  const { requests, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(RequestFull);
  const withAttachments = Type.Ref(RequestFullWithAttachments);
  api.get(
    '/requests',
    {
      schema: {
        tags: TAG,
        summary: 'List and search requests',
        description:
          'Also answers at `/requests/`, the spec’s spelling. Keyset-paginated (Link, Next-Cursor, Previous-Cursor) in `sort` order (default `-updated_at`, then creation). Filters combine with AND; comma-separated lists match any of their values.',
        querystring: RequestListQuery,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { clientId } = request.hrAuth;
      const embeds = embedsOf(request.query.embed);
      const call = listCall(paginator, RequestList, clientId, request.query);
      if (embeds.size === 0) {
        // The common page: its items come as JSON built by the database and are sent as they are (issue 23).
        const page = await requests.listJson(clientId, request.query, call.request);
        return sendJsonItems(reply, sendPage(paginator, request, reply, page, call.scope));
      }
      const page = await requests.list(clientId, request.query, call.request);
      return sendPage(paginator, request, reply, page, call.scope).map((v) => presentRequest(v, embeds));
    },
  );

  api.post(
    '/requests',
    {
      schema: {
        tags: TAG,
        summary: 'Create a request',
        description:
          'Answers are checked against the form: each wrong answer is a 422 field error with its path (`form_data.2.values.0`). `request_number` is the client’s next number.',
        headers: actorHeader,
        body: RequestCreate,
        response: { 201: withAttachments, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const view = await requests.create(request.hrAuth.clientId, request.body, actorOf(request));
      return reply.status(201).send(presentWithAttachments(view, new Set()));
    },
  );

  api.get(
    '/requests/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a request',
        params: RequestParams,
        querystring: EmbedQuery,
        response: { 200: withAttachments, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const embeds = embedsOf(request.query.embed);
      return presentWithAttachments(await requests.get(request.hrAuth.clientId, request.params.id, embeds), embeds);
    },
  );

  api.patch(
    '/requests/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update answers, add form files, or change the status',
        description:
          'Answers replace the stored ones field by field; a file answer adds a form file (delete the old one first to replace it). `status` follows the lifecycle: forward moves, closed → opened, archived is final (422 `invalid_transition`).',
        params: RequestParams,
        headers: actorHeader,
        body: RequestPatch,
        response: { 200: withAttachments, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentWithAttachments(
        await requests.patch(request.hrAuth.clientId, request.params.id, request.body, actorOf(request)),
        new Set(),
      ),
  );

  deleteRoute(
    app,
    {
      path: '/requests/:id',
      tags: TAG,
      summary: 'Delete a request',
      description: 'Permanent: its comments, files, assignees and links go with it.',
      params: RequestParams,
    },
    (clientId, { id }) => requests.delete(clientId, id),
  );
}

/** A request's comments: their list and a new one. */
export async function requestCommentRoutes(
  app: FastifyInstance,
  opts: { comments: RequestCommentsService; paginator: Paginator },
): Promise<void> {
  const { comments, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/requests/:id/comments',
    {
      schema: {
        tags: TAG,
        summary: 'List the comments of a request (newest first)',
        description:
          'Cursor-paginated like every list, 100 comments per page by default (the reference answers them all at once): a request with up to 100 comments answers as before; more follow through Link / Next-Cursor.',
        params: RequestParams,
        querystring: CommentListQuery,
        response: {
          200: { ...Type.Array(Type.Ref(RequestComment)), headers: PaginationHeaders },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { clientId } = request.hrAuth;
      const call = listCall(paginator, CommentList, clientId, request.query, request.params.id);
      const page = await comments.comments(clientId, request.params.id, call.request);
      return sendPage(paginator, request, reply, page, call.scope).map((c) =>
        presentComment(c, request.query.embed === 'creator'),
      );
    },
  );

  api.post(
    '/requests/:id/comments',
    {
      schema: {
        tags: TAG,
        summary: 'Add a comment',
        description:
          'Public or internal (`is_internal`), by a user or the request’s employee. Answers 200, as the reference does. Attachments become request attachments too.',
        params: RequestParams,
        body: CommentCreate,
        response: { 200: Type.Ref(RequestComment), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentComment(await comments.comment(request.hrAuth.clientId, request.params.id, request.body), false),
  );
}

/** The previews of an attachment or a form file at `base`: HEAD for the page count, GET for a page as a PNG. */
function previewRoutes(
  app: FastifyInstance,
  deps: { blobs: BlobStore; renditions: Renditions },
  base: string,
  params: TObject,
  what: string,
  find: (request: FastifyRequest) => Promise<RequestFileRecord>,
): void {
  const { blobs, renditions } = deps;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const source = (file: RequestFileRecord) => ({ sha256: file.sha256, contentType: file.contentType });
  api.head(
    `${base}/preview`,
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: TAG,
        summary: `Page count of a ${what}`,
        description:
          'Answers 204 with `Page-Count`: the pages of a PDF as the renderer reads them; 1 for a JPEG or a PNG. 422 for another type of file or a damaged one.',
        params,
        response: {
          204: { ...NoBody, headers: Type.Object({ 'Page-Count': Type.Integer({ minimum: 1 }) }) },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const pages = await renditions.pageCount(source(await find(request)));
      return reply.status(204).header('Page-Count', String(pages)).send();
    },
  );
  api.get(
    `${base}/preview/:page`,
    {
      attachValidation: true,
      schema: {
        tags: TAG,
        summary: `Preview a page of a ${what}`,
        description:
          'A PNG of the page, rendered once and cached by the file’s checksum, page, size and crop. 404 for a page past the end; 422 for a bad `size` or `crop_rate`, or a file that is not a PDF, a JPEG or a PNG, is damaged, or goes past the rendering limits.',
        params: Type.Object({ ...params.properties, page: PreviewPage }),
        querystring: PagePreviewQuery,
        response: { 200: PNG_RESPONSE, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const page = Number((request.params as { page: unknown }).page);
      const options = previewOptions(request, page);
      const file = await find(request);
      const rendition = await renditions.preview(source(file), { ...options, missingPage: 'not_found' });
      return sendBlob(reply, request, blobs, previewDownload(rendition, file.filename, page));
    },
  );
}

/**
 * A request's files: comment attachments (download, preview), request attachments and form-field files (download,
 * preview, delete).
 */
export async function requestFileRoutes(
  app: FastifyInstance,
  opts: { files: RequestFilesService; blobs: BlobStore; renditions: Renditions },
): Promise<void> {
  const { files, blobs } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const download = (reply: FastifyReply, request: FastifyRequest, file: RequestFileRecord) =>
    sendBlob(reply, request, blobs, {
      sha256: file.sha256,
      size: file.size,
      contentType: file.contentType,
      filename: file.filename,
    });
  const downloadResponse = {
    200: { type: 'string', format: 'binary', description: 'The file.', headers: fileHeaders },
    ...errorResponses(401, 403, 404),
  };

  api.get(
    '/requests/:id/comments/:comment_id/attachments/:attachment_id',
    {
      schema: {
        tags: TAG,
        summary: 'Download a comment attachment',
        params: CommentAttachmentParams,
        response: downloadResponse,
      },
    },
    async (request, reply) => {
      const { id, comment_id, attachment_id } = request.params;
      return download(
        reply,
        request,
        await files.commentAttachment(request.hrAuth.clientId, id, comment_id, attachment_id),
      );
    },
  );

  // Previews of comment attachments.
  previewRoutes(
    app,
    opts,
    '/requests/:id/comments/:comment_id/attachments/:attachment_id',
    CommentAttachmentParams,
    'comment attachment',
    (request) => {
      const { id, comment_id, attachment_id } = request.params as Record<string, string>;
      return files.commentAttachment(
        request.hrAuth.clientId,
        id as string,
        comment_id as string,
        attachment_id as string,
      );
    },
  );

  // Attachments and form files

  for (const kind of ['attachment', 'form_file'] as const) {
    const base = kind === 'attachment' ? '/requests/:id/attachments/:attachment_id' : '/requests/:id/files/:file_id';
    const params = kind === 'attachment' ? RequestAttachmentParams : RequestFileParams;
    const what = kind === 'attachment' ? 'request attachment' : 'form-field file';
    const fileId = (p: Record<string, string>) => (kind === 'attachment' ? p.attachment_id : p.file_id) as string;
    api.get(
      `${base}/download`,
      { schema: { tags: TAG, summary: `Download a ${what}`, params, response: downloadResponse } },
      async (request, reply) => {
        const p = request.params as Record<string, string>;
        return download(reply, request, await files.file(request.hrAuth.clientId, p.id as string, fileId(p), kind));
      },
    );
    previewRoutes(app, opts, base, params, what, (request) => {
      const p = request.params as Record<string, string>;
      return files.file(request.hrAuth.clientId, p.id as string, fileId(p), kind);
    });
    api.delete(
      base,
      {
        schema: {
          tags: TAG,
          summary: `Delete a ${what}`,
          params,
          response: { 204: NoBody, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const p = request.params as Record<string, string>;
        await files.deleteFile(request.hrAuth.clientId, p.id as string, fileId(p), kind);
        return reply.status(204).send();
      },
    );
  }
}

/** A request's PDF: the request and its comments, composed on each call. */
export async function requestPdfRoutes(
  app: FastifyInstance,
  opts: { comments: RequestCommentsService; renditions: Renditions; clock: Clock },
): Promise<void> {
  const { comments: requestComments, renditions, clock } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/requests/:id/pdf',
    {
      schema: {
        tags: TAG,
        summary: 'Download a PDF of a request',
        description:
          'A snapshot of the request as a PDF: its fields, its form’s answers and files, its attachments, and its comments (the newest 1,000, oldest first; internal ones marked). Its layout is Atrium’s (docs/hr-api.md). Made afresh on each call.',
        params: RequestParams,
        response: {
          200: {
            description: 'The PDF.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const { request: view, comments } = await requestComments.snapshot(request.hrAuth.clientId, request.params.id);
      const pdf = await renditions.compose(presentRequestPdf(view, comments, clock.now()));
      return reply
        .type('application/pdf')
        .header('Content-Disposition', formatContentDisposition(`request-${view.row.requestNumber}.pdf`))
        .header('Cache-Control', 'no-store')
        .send(Buffer.from(pdf));
    },
  );
}

/** A request's assignees and its linked requests. */
export async function requestLinkRoutes(
  app: FastifyInstance,
  opts: { links: RequestLinksService; paginator: Paginator },
): Promise<void> {
  const { links: requestLinks, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(RequestFull);
  api.get(
    '/requests/:id/assignees',
    {
      schema: {
        tags: TAG,
        summary: 'List the users assigned to a request',
        description:
          'Paged with `offset` (default 0) and `length` (default 10), in assignment order. `X-Total-Count` gives the total; `Link` points to the next and previous slices.',
        params: RequestParams,
        querystring: AssigneeQuery,
        response: {
          200: {
            ...Type.Array(Type.Ref(UserSimplified)),
            headers: Type.Object({ Link: Type.Optional(Type.String()), 'X-Total-Count': Type.Integer() }),
          },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const offset = request.query.offset ?? 0;
      const length = request.query.length ?? 10;
      const { people, total } = await requestLinks.assignees(
        request.hrAuth.clientId,
        request.params.id,
        offset,
        length,
      );
      const path = request.url.split('?', 1)[0] as string;
      const links: string[] = [];
      if (offset + length < total) links.push(`<${path}?offset=${offset + length}&length=${length}>; rel="next"`);
      if (offset > 0) links.push(`<${path}?offset=${Math.max(0, offset - length)}&length=${length}>; rel="previous"`);
      if (links.length) reply.header('Link', links.join(', '));
      reply.header('X-Total-Count', String(total));
      return people.map(simplified);
    },
  );

  api.get(
    '/requests/:id/linked_requests',
    {
      schema: {
        tags: TAG,
        summary: 'List the requests linked to a request (newest first)',
        params: RequestParams,
        querystring: LinkedListQuery,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { clientId } = request.hrAuth;
      const call = listCall(paginator, LinkedRequestList, clientId, request.query, request.params.id);
      const page = await requestLinks.linked(clientId, request.params.id, call.request);
      return sendPage(paginator, request, reply, page, call.scope).map((v) => presentRequest(v, new Set()));
    },
  );

  api.post(
    '/requests/:id/linked_requests',
    {
      schema: {
        tags: TAG,
        summary: 'Link requests',
        description: 'Links go both ways; linking twice changes nothing.',
        params: RequestParams,
        body: LinkCreate,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await requestLinks.link(request.hrAuth.clientId, request.params.id, request.body.uuid);
      return reply.status(204).send();
    },
  );
}

/** The macros of a request: those it offers, and a run. */
export async function requestMacroRoutes(app: FastifyInstance, opts: { macros: RequestMacrosService }): Promise<void> {
  const { macros } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/requests/:id/macros',
    {
      schema: {
        tags: TAG,
        summary: 'List the macros available on a request',
        description:
          'Active macros whose forms include the request’s form and whose custom statuses include the request’s; with `X-Atrium-User-Id`, only those the user’s roles may run.',
        params: RequestParams,
        headers: actorHeader,
        response: { 200: Type.Array(Type.Ref(MacroList)), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      (await macros.availableMacros(request.hrAuth.clientId, request.params.id, actorOf(request))).map((m) =>
        presentMacro(m),
      ),
  );

  api.post(
    '/requests/:id/macros',
    {
      schema: {
        tags: TAG,
        summary: 'Run a macro on a request',
        description:
          'Applies the macro’s actions in order, all or nothing. 403 `macro_not_available` when the macro is not offered on this request; 422 when an action breaks the lifecycle.',
        params: RequestParams,
        headers: actorHeader,
        body: MacroRun,
        response: { 200: NoBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await macros.runMacro(request.hrAuth.clientId, request.params.id, request.body.macro_id, actorOf(request));
      return reply.status(200).send();
    },
  );
}
