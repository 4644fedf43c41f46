import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { callOrigin } from './origin.js';
import { presentSigner } from './present.js';
import {
  Signer,
  SignerCreate,
  SignerListQuery,
  SignerParams,
  SignerPatch,
  SignerPut,
  SignerRefuse,
  SignerRemind,
  SignerSign,
} from './schemas.js';
import type { SignersService } from './signers-service.js';
import type { SigningService } from './signing-service.js';
import type { SignerView } from './views.js';

const TAGS = ['Document manager: Signers'];
const EXTENSION = 'Atrium extension (not in the reference).';

/** Each answer makes the signer's link from the origin the request reached. */
const presenter = (signing: SigningService) => (request: FastifyRequest) => (view: SignerView) =>
  presentSigner(view, {
    urlOf: (v) => `${callOrigin(request).origin}${signing.signingPath(v.clientId, v.signer.id)}`,
  });

/** `/signers` (reference §5.4): CRUD in a draft, and reminders. The extensions that sign and refuse follow. */
export async function signerRoutes(
  app: FastifyInstance,
  opts: { signers: SignersService; signing: SigningService },
): Promise<void> {
  const { signers, signing } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Signer);
  const origin = callOrigin;
  const present = presenter(signing);

  api.get(
    '/signers',
    {
      schema: {
        tags: TAGS,
        summary: 'List the signers of a signature process',
        description: 'In signing order. `signature_process_id` is required.',
        querystring: SignerListQuery,
        response: { 200: Type.Array(full), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      (await signers.signers(request.hrAuth.clientId, request.query.signature_process_id)).map(present(request)),
  );

  api.post(
    '/signers',
    {
      schema: {
        tags: TAGS,
        summary: 'Add a signer',
        description: 'To a draft process only (otherwise 400).',
        body: SignerCreate,
        response: { 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(present(request)(await signers.createSigner(request.hrAuth.clientId, request.body))),
  );

  api.post(
    '/signers/remind',
    {
      schema: {
        tags: TAGS,
        summary: 'Remind several signers',
        description:
          'Each must be a signer whose turn it is (`in_progress`) in a process that is signing: all or nothing, otherwise 400. The reminders go to the outbox (`GET /outbox`).',
        body: SignerRemind,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      await signers.remind(request.hrAuth.clientId, request.body.signer_ids, origin(request));
      return reply.code(204).send();
    },
  );

  api.get(
    '/signers/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a signer',
        params: SignerParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => present(request)(await signers.signer(request.hrAuth.clientId, request.params.id)),
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      '/signers/:id',
      {
        schema: {
          tags: TAGS,
          summary: method === 'put' ? 'Update a signer' : 'Partially update a signer',
          description: 'While the process is a draft only (otherwise 400).',
          params: SignerParams,
          body: method === 'put' ? SignerPut : SignerPatch,
          response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (request) =>
        present(request)(await signers.updateSigner(request.hrAuth.clientId, request.params.id, request.body, method)),
    );
  }

  api.delete(
    '/signers/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a signer',
        description: 'While the process is a draft only (otherwise 400).',
        params: SignerParams,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await signers.deleteSigner(request.hrAuth.clientId, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    '/signers/:id/remind',
    {
      schema: {
        tags: TAGS,
        summary: 'Remind a signer',
        description: 'Only a signer whose turn it is (`in_progress`), otherwise 400. The reminder goes to the outbox.',
        params: SignerParams,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await signers.remind(request.hrAuth.clientId, [request.params.id], origin(request));
      return reply.code(204).send();
    },
  );
}

/** The Atrium extensions (not in the reference) that sign and refuse as a signer, as the signing page does. */
export async function signerSigningRoutes(app: FastifyInstance, opts: { signing: SigningService }): Promise<void> {
  const { signing } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Signer);
  const origin = callOrigin;
  const present = presenter(signing);

  api.post(
    '/signers/:id/sign',
    {
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Sign as a signer',
        description: `${EXTENSION} What the signer does on the signing page (\`signing_url\`), for tests without a browser: in their turn, while the process is signing, with their access code if they have one. After the last signature the process is \`signed\`, then \`done\` once the signed PDF is made.`,
        params: SignerParams,
        body: SignerSign,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      present(request)(await signing.sign(request.hrAuth.clientId, request.params.id, request.body, origin(request))),
  );

  api.post(
    '/signers/:id/refuse',
    {
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Refuse as a signer',
        description: `${EXTENSION} What the signer does on the signing page when they refuse, with a comment: the process is \`rejected\`.`,
        params: SignerParams,
        body: SignerRefuse,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => present(request)(await signing.refuse(request.hrAuth.clientId, request.params.id, request.body)),
  );
}
