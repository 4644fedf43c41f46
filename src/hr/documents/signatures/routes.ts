import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { InvalidRequestError } from '../../../platform/errors.js';
import { NoBody } from '../../../platform/http/no-body.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import {
  PNG_RESPONSE,
  previewDownload,
  previewOptions,
  RequiredPagePreviewQuery,
} from '../../../platform/renditions/http.js';
import type { Renditions } from '../../../platform/renditions/renditions.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute, getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { callOrigin } from './origin.js';
import { presentProcess } from './present.js';
import type { ProcessFilter } from './repository.js';
import {
  type SignatureProcessListQuery as ListQuery,
  PROCESS_STATES,
  SignatureProcess,
  SignatureProcessCancel,
  SignatureProcessCreate,
  SignatureProcessList,
  SignatureProcessListQuery,
  SignatureProcessParams,
  SignatureProcessPatch,
  SignatureProcessPut,
} from './schemas.js';
import type { SignaturesService } from './service.js';

const PROCESSES = ['Document manager: Signature processes'];

const csvList = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');

/** A day's start (`since`) or the next day's start (`until`, exclusive), in epoch ms. */
const dayStart = (day: string, next = false) => Date.parse(`${day}T00:00:00Z`) + (next ? 86_400_000 : 0);

function processFilter(query: ListQuery): Omit<ProcessFilter, 'now'> {
  const states = csvList(query.state);
  const unknown = states?.filter((s) => !(PROCESS_STATES as readonly string[]).includes(s)) ?? [];
  if (unknown.length > 0) {
    throw new InvalidRequestError(
      `Invalid query parameter "state": ${unknown.join(', ')} is not a state (${PROCESS_STATES.join(', ')}).`,
    );
  }
  return {
    employeeId: query.employee_id,
    q: query.q,
    organizationIds: csvList(query.organization_ids),
    organizationBelow: query.organization_id_below,
    createdSince: query.created_date_since === undefined ? undefined : dayStart(query.created_date_since),
    createdUntil: query.created_date_until === undefined ? undefined : dayStart(query.created_date_until, true),
    states,
  };
}

/**
 * `/signature_processes` (reference §5.4; docs/hr-api.md, "Electronic signature"): list, create, read, update (PUT
 * and PATCH, `state` included), delete, cancel in bulk. Their document's routes follow (`processDocumentRoutes`).
 */
export async function signatureProcessRoutes(
  app: FastifyInstance,
  opts: { signatures: SignaturesService; paginator: Paginator },
): Promise<void> {
  const { signatures, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(SignatureProcess);

  listRoute(
    app,
    paginator,
    {
      path: '/signature_processes',
      tags: PROCESSES,
      summary: 'List and search signature processes',
      description:
        'Sorted by `sort` (default `-created_at`). Pages with `per_page` and `page` (the reference’s way), or with the `cursor` of Link / Next-Cursor / Previous-Cursor. `X-Total-Count` gives the number of matching processes.',
      querystring: SignatureProcessListQuery,
      item: full,
      list: SignatureProcessList,
      errors: [403, 422],
      totalCount: true,
    },
    {
      page: (clientId, query, request) => signatures.list(clientId, processFilter(query), request),
      count: (clientId, query) => signatures.count(clientId, processFilter(query)),
      present: presentProcess,
    },
  );

  api.post(
    '/signature_processes',
    {
      schema: {
        tags: PROCESSES,
        summary: 'Create a signature process',
        description:
          'A draft, from a PDF uploaded with `POST /uploads` (`upload_id`; any other file is a 422). Add signers (`POST /signers`), then set `state` to `signing`.',
        body: SignatureProcessCreate,
        response: { 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentProcess(await signatures.create(request.hrAuth.clientId, request.body))),
  );

  api.post(
    '/signature_processes/cancel',
    {
      schema: {
        tags: PROCESSES,
        summary: 'Cancel several signature processes',
        description:
          'All or nothing: when any process is unknown or cannot be canceled (only draft, signing and signed ones can), none is, and the answer is a 400 naming them.',
        body: SignatureProcessCancel,
        response: { 200: Type.Array(full), ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) =>
      (
        await signatures.cancelMany(
          request.hrAuth.clientId,
          request.body.signature_ids,
          request.body.cancellation_comment ?? null,
        )
      ).map(presentProcess),
  );

  getRoute(
    app,
    {
      path: '/signature_processes/:id',
      tags: PROCESSES,
      summary: 'Get a signature process',
      params: SignatureProcessParams,
      item: full,
    },
    (clientId, { id }) => signatures.get(clientId, id),
    presentProcess,
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      '/signature_processes/:id',
      {
        schema: {
          tags: PROCESSES,
          summary: method === 'put' ? 'Update a signature process' : 'Partially update a signature process',
          description:
            'Only a draft’s document and settings can change. `state`: `signing` starts a draft (it needs a signer), `canceled` cancels a draft, signing or signed process; any other change of state is a 400.',
          params: SignatureProcessParams,
          body: method === 'put' ? SignatureProcessPut : SignatureProcessPatch,
          response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) =>
        presentProcess(
          await signatures.update(
            request.hrAuth.clientId,
            request.params.id,
            request.body,
            method,
            callOrigin(request),
          ),
        ),
    );
  }

  deleteRoute(
    app,
    {
      path: '/signature_processes/:id',
      tags: PROCESSES,
      summary: 'Delete a signature process',
      description: 'Only in the states draft, rejected, canceled, expired, sent and done; otherwise 400.',
      params: SignatureProcessParams,
      errors: [400, 401, 403, 404],
    },
    (clientId, { id }) => signatures.delete(clientId, id),
  );
}

/** A signature process's document: the current PDF, a page's preview, and, once done, its archive and its mail. */
export async function processDocumentRoutes(
  app: FastifyInstance,
  opts: { signatures: SignaturesService; blobs: BlobStore; renditions: Renditions },
): Promise<void> {
  const { signatures, blobs, renditions } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/signature_processes/:id/file',
    {
      schema: {
        tags: PROCESSES,
        summary: 'Download the current PDF of a signature process',
        description:
          'The PDF as uploaded until someone has signed; then with a signature block per signer, and, once the process is done, its audit page.',
        params: SignatureProcessParams,
        response: {
          200: { type: 'string', format: 'binary', description: 'The PDF.' },
          206: { type: 'string', format: 'binary', description: 'The requested range.' },
          ...errorResponses(401, 403, 404, 416),
        },
      },
    },
    async (request, reply) => {
      const file = await signatures.file(request.hrAuth.clientId, request.params.id);
      return sendBlob(reply, request, blobs, { ...file, contentType: 'application/pdf' });
    },
  );

  api.get(
    '/signature_processes/:id/preview',
    {
      attachValidation: true,
      schema: {
        tags: PROCESSES,
        summary: 'Preview a page of a signature process’s current PDF',
        description:
          'A PNG of page `page` of the PDF that `GET …/file` answers (signature blocks included once stamped), cached like every preview. 422: a page past the end, a bad `page` or `size`, or a PDF past the rendering limits.',
        params: SignatureProcessParams,
        querystring: RequiredPagePreviewQuery,
        response: { 200: PNG_RESPONSE, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const options = previewOptions(request);
      const file = await signatures.file(request.hrAuth.clientId, request.params.id);
      const rendition = await renditions.preview(
        { sha256: file.sha256, contentType: 'application/pdf' },
        { ...options, missingPage: 'invalid' },
      );
      return sendBlob(reply, request, blobs, previewDownload(rendition, file.filename, options.page));
    },
  );

  api.post(
    '/signature_processes/:id/archive',
    {
      schema: {
        tags: PROCESSES,
        summary: 'Archive a signature process into an employee folder',
        description:
          'Files the signed PDF as an employee document (origin `signature`) of the employee signer, under the process’s `document_type_id`, once the process is done; again: nothing more. Otherwise 400.',
        params: SignatureProcessParams,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await signatures.archive(request.hrAuth.clientId, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    '/signature_processes/:id/send',
    {
      schema: {
        tags: PROCESSES,
        summary: 'Send the signed document to all signers',
        description: 'Once the process is done (otherwise 400). The mail goes to the outbox (`GET /outbox`).',
        params: SignatureProcessParams,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await signatures.send(request.hrAuth.clientId, request.params.id);
      return reply.code(204).send();
    },
  );
}
