import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute, getRoute, upsertRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentSamlIdentityProvider } from './present.js';
import {
  SamlIdentityProvider,
  SamlIdentityProviderList,
  SamlIdentityProviderListQuery,
  SamlIdentityProviderParams,
  SamlIdentityProviderPatch,
  SamlIdentityProviderWrite,
} from './schemas.js';
import type { SamlIdentityProvidersService } from './service.js';

const TAG = ['SAML identity providers'];
const PATH = '/saml/identity_providers';
const ITEM = `${PATH}/:id`;
const UNIQUE = 'At most one **active** provider per scope (an unset scope counts as one) and per name: 409 otherwise.';

/** `/saml/identity_providers` (reference §5.7): search, POST, GET, HEAD, PUT upsert, PATCH, DELETE. */
export async function samlIdentityProviderRoutes(
  app: FastifyInstance,
  opts: { samlIdentityProviders: SamlIdentityProvidersService; paginator: Paginator },
): Promise<void> {
  const { samlIdentityProviders: providers, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(SamlIdentityProvider);

  listRoute(
    app,
    paginator,
    {
      path: PATH,
      tags: TAG,
      summary: 'Search SAML identity providers',
      description:
        'Cursor-paginated, in creation order. `scope` (any case) keeps the providers of that scope, or, when none matches the other filters, those whose scope is unset.',
      querystring: SamlIdentityProviderListQuery,
      item: full,
      list: SamlIdentityProviderList,
    },
    {
      page: (clientId, query, request) => providers.list(clientId, query, request),
      present: presentSamlIdentityProvider,
    },
  );

  api.post(
    PATH,
    {
      schema: {
        tags: TAG,
        summary: 'Create a SAML identity provider',
        description: `Its id is a new UUID. ${UNIQUE}`,
        body: SamlIdentityProviderWrite,
        response: { 201: full, ...errorResponses(400, 401, 403, 409, 422) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(presentSamlIdentityProvider(await providers.create(request.hrAuth.clientId, request.body))),
  );

  // Declared before GET so it replaces Fastify's automatic HEAD route.
  api.head(
    ITEM,
    {
      config: { swagger: { exposeHeadRoute: true } },
      schema: {
        tags: TAG,
        summary: 'Check that a SAML identity provider exists',
        params: SamlIdentityProviderParams,
        response: { 200: NoBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await providers.get(request.hrAuth.clientId, request.params.id);
      return reply.status(200).send();
    },
  );

  getRoute(
    app,
    { path: ITEM, tags: TAG, summary: 'Get a SAML identity provider', params: SamlIdentityProviderParams, item: full },
    (clientId, { id }) => providers.get(clientId, id),
    presentSamlIdentityProvider,
  );

  upsertRoute(
    app,
    {
      path: ITEM,
      tags: TAG,
      summary: 'Create or replace a SAML identity provider',
      description: `An upsert at the id (a UUID): 201 when created, 200 when replaced; attributes left out return to their defaults. ${UNIQUE}`,
      params: SamlIdentityProviderParams,
      item: full,
      body: SamlIdentityProviderWrite,
      key: 'provider',
      errors: [400, 401, 403, 409, 422],
    },
    (clientId, { id }, body) => providers.put(clientId, id, body),
    presentSamlIdentityProvider,
  );

  api.patch(
    ITEM,
    {
      schema: {
        tags: TAG,
        summary: 'Update some attributes of a SAML identity provider',
        description: `Only the attributes sent change; \`null\` unsets \`scope\` or \`workflow_type\`. ${UNIQUE}`,
        params: SamlIdentityProviderParams,
        body: SamlIdentityProviderPatch,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      presentSamlIdentityProvider(await providers.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );

  deleteRoute(
    app,
    { path: ITEM, tags: TAG, summary: 'Delete a SAML identity provider', params: SamlIdentityProviderParams },
    (clientId, { id }) => providers.delete(clientId, id),
  );
}
