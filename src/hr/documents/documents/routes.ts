/**
 * `/{employee|company}_documents` (reference §3c.2, §3c.3): create from an upload, read, update, download (with
 * Range and HEAD), trash, untrash, empty the trash, hard delete, expiry; search. Registered by group, in this order:
 * search, the collection, the document, its trash and expiry, its file, what is made from it.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { buildInfo } from '../../../platform/build-info.js';
import { formatContentDisposition } from '../../../platform/http/content-disposition.js';
import { NoBody } from '../../../platform/http/no-body.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import {
  DocumentPreviewQuery,
  PNG_RESPONSE,
  previewDownload,
  previewOptions,
} from '../../../platform/renditions/http.js';
import type { Renditions } from '../../../platform/renditions/renditions.js';
import { type Clock, formatUtcStamp } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { listCall, sendPage } from '../../lists/list.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import type { DocumentKind } from '../folders/tables.js';
import type { DocumentActor } from './access.js';
import type { DocumentLifecycleService } from './lifecycle-service.js';
import { presentDocument } from './present.js';
import type { DocumentReadsService } from './reads-service.js';
import { presentReceipt } from './receipt.js';
import {
  ActingUserHeaders,
  CompactEmployeeDocument,
  CompanyDocument,
  CompanyDocumentCreate,
  CompanyDocumentListQuery,
  CompanyDocumentPatch,
  CompanyDocumentUpdate,
  DOCUMENT_LISTS,
  DocumentParams,
  EmployeeDocument,
  EmployeeDocumentCreate,
  EmployeeDocumentListQuery,
  EmployeeDocumentPatch,
  EmployeeDocumentSearch,
  EmployeeDocumentUpdate,
  ExpirationPayload,
  ExpirePayload,
} from './schemas.js';
import type { DocumentsService } from './service.js';

/** The actor of a call: the HR user named by `X-Atrium-User-Id`, or the application itself. */
function actorOf(request: FastifyRequest): DocumentActor {
  const userId = request.headers['x-atrium-user-id'];
  return typeof userId === 'string' ? { kind: 'user', userId } : { kind: 'application' };
}

const SCHEMAS = {
  employee: {
    full: EmployeeDocument,
    create: EmployeeDocumentCreate,
    update: EmployeeDocumentUpdate,
    patch: EmployeeDocumentPatch,
    list: EmployeeDocumentListQuery,
  },
  company: {
    full: CompanyDocument,
    create: CompanyDocumentCreate,
    update: CompanyDocumentUpdate,
    patch: CompanyDocumentPatch,
    list: CompanyDocumentListQuery,
  },
};

/** What every group of a kind's routes shares: its schemas, path, tags and wording. */
function routeContext(app: FastifyInstance, kind: DocumentKind) {
  const schemas = SCHEMAS[kind];
  return {
    api: app.withTypeProvider<TypeBoxTypeProvider>(),
    schemas,
    base: `/${kind}_documents`,
    tags: [kind === 'employee' ? 'Employee documents' : 'Company documents'],
    aKind: kind === 'employee' ? 'an employee' : 'a company',
    full: Type.Ref(schemas.full),
  };
}

/** The list of a kind's documents, and the employee documents' search (`POST /employee_documents/search`). */
export async function documentSearchRoutes(
  app: FastifyInstance,
  opts: { reads: DocumentReadsService; paginator: Paginator; kind: DocumentKind },
): Promise<void> {
  const { reads, paginator, kind } = opts;
  const { api, schemas, base, tags, full } = routeContext(app, kind);
  const list = DOCUMENT_LISTS[kind];

  api.get(
    base,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `List and search ${kind} documents`,
        ...(kind === 'employee'
          ? { deprecated: true, description: 'Deprecated in the reference: use POST /employee_documents/search.' }
          : {}),
        querystring: schemas.list,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { per_page, cursor, ...filters } = request.query;
      const { clientId } = request.hrAuth;
      const call = listCall(paginator, list, clientId, { per_page, cursor });
      const page = await reads.search(clientId, kind, filters, {
        actor: actorOf(request),
        inBody: false,
        request: call.request,
      });
      return sendPage(paginator, request, reply, page, call.scope).map(presentDocument);
    },
  );

  if (kind === 'employee') {
    api.post(
      `${base}/search`,
      {
        config: { readOnlySafe: true },
        schema: {
          tags,
          headers: ActingUserHeaders,
          summary: 'Search employee documents',
          description:
            'Filters in the JSON body. Pages with `per_page` and `page` as in the reference, or with `next_cursor` (the Next-Cursor header); the answer carries Link, Next-Cursor and Previous-Cursor.',
          body: EmployeeDocumentSearch,
          response: {
            200: { ...Type.Array(Type.Union([full, CompactEmployeeDocument])), headers: PaginationHeaders },
            ...errorResponses(400, 401, 403, 422),
          },
        },
      },
      async (request, reply) => {
        const { per_page, page: pageNumber, next_cursor, compact_response, ...filters } = request.body ?? {};
        const { clientId } = request.hrAuth;
        const call = listCall(paginator, list, clientId, { per_page, cursor: next_cursor });
        const page = await reads.search(clientId, kind, filters, {
          actor: actorOf(request),
          inBody: true,
          request: call.request,
          ...(pageNumber ? { page: pageNumber } : {}),
        });
        const items = sendPage(paginator, request, reply, page, call.scope).map(presentDocument);
        if (!compact_response) return items;
        return items.map((d) => ({
          id: d.id,
          employee_id: d.employee_id,
          employee_external_id: d.employee_external_id,
          external_reference: d.external_reference,
        }));
      },
    );
  }
}

/** The collection of a kind's documents: create one, and empty the trash (declared before `/{id}`). */
export async function documentCollectionRoutes(
  app: FastifyInstance,
  opts: { documents: DocumentsService; lifecycle: DocumentLifecycleService; kind: DocumentKind },
): Promise<void> {
  const { documents, lifecycle, kind } = opts;
  const { api, schemas, base, tags, aKind, full } = routeContext(app, kind);

  api.post(
    base,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Create ${aKind} document from an uploaded file`,
        description:
          'The file comes from `POST /document` or `POST /uploads` (`uploaded_file.file_id`); the upload is used up. 409 when `external_reference_is_unique` is true and the reference is taken.',
        body: schemas.create,
        response: { 201: full, ...errorResponses(400, 401, 403, 409, 422) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentDocument(await documents.create(request.hrAuth.clientId, kind, request.body, actorOf(request)))),
  );

  // Declared before GET /{id}/trash can match: a literal segment wins over a parameter anyway.
  api.delete(
    `${base}/trash`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Empty the trash of ${kind} documents`,
        description: 'Permanently deletes every trashed document.',
        response: { 204: NoBody, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      await lifecycle.emptyTrash(request.hrAuth.clientId, kind, actorOf(request));
      return reply.status(204).send();
    },
  );
}

/** A document itself: read, update (PUT, PATCH) and delete for good. */
export async function documentRoutes(
  app: FastifyInstance,
  opts: {
    documents: DocumentsService;
    reads: DocumentReadsService;
    lifecycle: DocumentLifecycleService;
    kind: DocumentKind;
  },
): Promise<void> {
  const { documents, reads, lifecycle, kind } = opts;
  const { api, schemas, base, tags, aKind, full } = routeContext(app, kind);

  api.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Get ${aKind} document`,
        params: DocumentParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      presentDocument(await reads.get(request.hrAuth.clientId, kind, request.params.id, actorOf(request))),
  );

  api.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Update ${aKind} document`,
        description: 'Replaces the attributes: those left out are cleared (the owner is kept).',
        params: DocumentParams,
        body: schemas.update,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      presentDocument(
        await documents.update(
          request.hrAuth.clientId,
          kind,
          request.params.id,
          request.body,
          'replace',
          actorOf(request),
        ),
      ),
  );

  api.patch(
    `${base}/:id`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Update some attributes of ${aKind} document`,
        params: DocumentParams,
        body: schemas.patch,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      presentDocument(
        await documents.update(
          request.hrAuth.clientId,
          kind,
          request.params.id,
          request.body ?? {},
          'merge',
          actorOf(request),
        ),
      ),
  );

  api.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Delete ${aKind} document for good`,
        description: 'Bypasses the trash. The stored bytes are removed once no other document or upload uses them.',
        params: DocumentParams,
        response: { 204: NoBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await lifecycle.delete(request.hrAuth.clientId, kind, request.params.id, actorOf(request));
      return reply.status(204).send();
    },
  );
}

/** A document's trash and untrash, its end of retention (expire) and its expiration date. */
export async function documentLifecycleRoutes(
  app: FastifyInstance,
  opts: { lifecycle: DocumentLifecycleService; kind: DocumentKind },
): Promise<void> {
  const { lifecycle, kind } = opts;
  const { api, base, tags, aKind } = routeContext(app, kind);

  for (const [action, trashed] of [
    ['trash', true],
    ['untrash', false],
  ] as const) {
    api.put(
      `${base}/:id/${action}`,
      {
        schema: {
          tags,
          headers: ActingUserHeaders,
          summary: trashed ? `Move ${aKind} document to the trash` : `Restore ${aKind} document from the trash`,
          description: 'No body; an empty JSON body is accepted.',
          params: DocumentParams,
          response: { 200: NoBody, ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await lifecycle.trash(request.hrAuth.clientId, kind, request.params.id, trashed, actorOf(request));
        return reply.status(200).send();
      },
    );
  }

  api.put(
    `${base}/:id/expire`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Set the end of the retention period of ${aKind} document`,
        description:
          'Sets `expiry_date` (and the expiration date, as the reference describes). A past date marks the document expired; null clears it.',
        params: DocumentParams,
        body: ExpirePayload,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await lifecycle.expire(
        request.hrAuth.clientId,
        kind,
        request.params.id,
        request.body.expiry_date,
        actorOf(request),
      );
      return reply.status(204).send();
    },
  );

  api.put(
    `${base}/:id/expiration/update`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Set the expiration date of ${aKind} document`,
        description: 'The end of validity; it is a filter (`expiration_date_until`), not a returned field.',
        params: DocumentParams,
        body: ExpirationPayload,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await lifecycle.setExpiration(
        request.hrAuth.clientId,
        kind,
        request.params.id,
        request.body.expiration_date,
        actorOf(request),
      );
      return reply.status(204).send();
    },
  );
}

/** A document's file: its download (with Range) and its HEAD. */
export async function documentFileRoutes(
  app: FastifyInstance,
  opts: { reads: DocumentReadsService; blobs: BlobStore; kind: DocumentKind },
): Promise<void> {
  const { reads, blobs, kind } = opts;
  const { api, base, tags, aKind } = routeContext(app, kind);

  const download = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const doc = await reads.file(request.hrAuth.clientId, kind, request.params.id, actorOf(request));
    return sendBlob(reply, request, blobs, {
      sha256: doc.sha256,
      size: doc.size,
      contentType: doc.contentType,
      filename: doc.filename,
      // The reference lists it on HEAD; GET sends it too, as HEAD answers GET's headers.
      ...(doc.pageCount !== null ? { headers: { 'X-Page-Count': String(doc.pageCount) } } : {}),
    });
  };
  const fileHeaders = Type.Object({
    'Content-Type': Type.String({ description: 'Detected from the bytes; application/octet-stream when unknown.' }),
    'Content-Length': Type.Integer(),
    'Content-Disposition': Type.String(),
    'Accept-Ranges': Type.Literal('bytes'),
    ETag: Type.String({ description: 'The SHA-256 of the bytes, quoted.' }),
    'X-Page-Count': Type.Optional(
      Type.String({
        description:
          'Number of pages of a PDF, counted at upload; absent for any other file and for an unreadable PDF.',
      }),
    ),
  });
  // Declared before GET so it replaces Fastify's automatic HEAD route (and is documented).
  api.head(
    `${base}/:id/file`,
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `File information of ${aKind} document`,
        description: 'The headers of the download, without the body.',
        params: DocumentParams,
        response: { 200: { ...NoBody, headers: fileHeaders }, ...errorResponses(401, 403, 404) },
      },
    },
    download,
  );
  api.get(
    `${base}/:id/file`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Download the file of ${aKind} document`,
        description:
          'The original bytes. One `Range: bytes=a-b` answers 206 with Content-Range; a full download is verified against the stored checksum.',
        params: DocumentParams,
        response: {
          200: { type: 'string', format: 'binary', description: 'The file.', headers: fileHeaders },
          206: { type: 'string', format: 'binary', description: 'The requested range.' },
          ...errorResponses(401, 403, 404, 416),
        },
      },
    },
    download,
  );
}

/** What is made from a document: a page's preview, a duplicate, an XML receipt. */
export async function documentRenditionRoutes(
  app: FastifyInstance,
  opts: { reads: DocumentReadsService; blobs: BlobStore; renditions: Renditions; kind: DocumentKind; clock: Clock },
): Promise<void> {
  const { reads, blobs, renditions, kind, clock } = opts;
  const { api, base, tags, aKind } = routeContext(app, kind);

  api.get(
    `${base}/:id/preview`,
    {
      attachValidation: true,
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Preview a page of ${aKind} document`,
        description:
          'A PNG of one page of a PDF, or of an image (JPEG or PNG), rendered once and cached by the file’s checksum, page and size. 422: another type of file (`unsupported_file_type`), a damaged one (`unreadable_file`), one past the rendering limits (`rendering_limits`), a page past the end or a bad `page` or `size` (`validation_error`).',
        params: DocumentParams,
        querystring: DocumentPreviewQuery,
        response: { 200: PNG_RESPONSE, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const options = previewOptions(request);
      const doc = await reads.file(request.hrAuth.clientId, kind, request.params.id, actorOf(request));
      const rendition = await renditions.preview(
        { sha256: doc.sha256, contentType: doc.contentType },
        { ...options, missingPage: 'invalid' },
      );
      return sendBlob(reply, request, blobs, previewDownload(rendition, doc.filename, options.page));
    },
  );
  api.get(
    `${base}/:id/duplicate`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Download a duplicate of ${aKind} document`,
        description:
          'A copy of the PDF with "DUPLICATE" across each page and, at its foot, the file it copies and when the copy was made (the tenant’s clock). Made afresh on each call. PDF sources only: 422 `unsupported_file_type` otherwise, `unreadable_file` for a damaged or encrypted PDF.',
        params: DocumentParams,
        response: {
          200: {
            description: 'The duplicate.',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const doc = await reads.file(request.hrAuth.clientId, kind, request.params.id, actorOf(request));
      const copy = await renditions.duplicate(
        { sha256: doc.sha256, contentType: doc.contentType },
        `Duplicate of ${doc.filename} (document ${doc.id}), made ${formatUtcStamp(clock.now())}`,
      );
      const stem = doc.filename.replace(/\.[^.]*$/, '') || 'document';
      return reply
        .type('application/pdf')
        .header('Content-Disposition', formatContentDisposition(`${stem}-duplicate.pdf`))
        .header('Cache-Control', 'no-store')
        .send(Buffer.from(copy));
    },
  );
  api.get(
    `${base}/:id/receipt`,
    {
      schema: {
        tags,
        headers: ActingUserHeaders,
        summary: `Download the receipt of ${aKind} document`,
        description:
          'An XML receipt: what the document is (type, name, content type, size, SHA-256 of its bytes, pages, owner, organizations, dates) and when the receipt was issued (the tenant’s clock). Its shape is Atrium’s: see docs/hr-api.md.',
        params: DocumentParams,
        response: {
          200: { description: 'The receipt.', content: { 'application/xml': { schema: { type: 'string' } } } },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const view = await reads.get(request.hrAuth.clientId, kind, request.params.id, actorOf(request));
      return reply
        .type('application/xml; charset=utf-8')
        .header('Content-Disposition', formatContentDisposition(`receipt-${view.row.id}.xml`))
        .send(presentReceipt(view, clock.now(), `Atrium ${buildInfo().version}`));
    },
  );
}
