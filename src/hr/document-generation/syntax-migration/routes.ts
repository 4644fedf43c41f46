import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { TAG_MIGRATION } from '../tags.js';
import { presentTemplate } from '../templates/present.js';
import { Template } from '../templates/schemas.js';
import { presentVersion } from '../versions/present.js';
import { TemplateVersion } from '../versions/schemas.js';
import { presentRestart, presentStatus } from './present.js';
import {
  MigrationCampaign,
  MigrationList,
  MigrationListQuery,
  MigrationStart,
  MigrationStatus,
  MigrationTemplateParams,
} from './schemas.js';
import type { MigrationService } from './service.js';

/** `/document_generations/syntax_migration`: converting V1 templates to V2 syntax, one or all. */
export async function migrationRoutes(
  app: FastifyInstance,
  opts: { migration: MigrationService; paginator: Paginator },
): Promise<void> {
  const { migration, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = TAG_MIGRATION;
  const base = '/document_generations/syntax_migration';
  const Status = Type.Ref(MigrationStatus);

  api.get(
    `${base}/status`,
    {
      schema: {
        tags,
        summary: 'The status of the V1 → V2 syntax migration',
        description: '`new_migration_available` says whether some template’s latest version is still in V1 syntax.',
        response: { 200: Status, ...errorResponses(401, 403) },
      },
    },
    async (request) => presentStatus(await migration.status(request.hrAuth.clientId)),
  );

  api.put(
    `${base}/status`,
    {
      schema: {
        tags,
        summary: 'Start the V1 → V2 syntax migration',
        description:
          'From `not_started` to `in_progress` only (422 `invalid_transition` otherwise: use `restart`). A durable job converts every template whose latest version is V1 (as `POST …/syntax_migration/{id}`), then sets `completed` (`failed` when a template could not be converted).',
        body: MigrationStart,
        response: { 200: Status, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) => presentStatus(await migration.start(request.hrAuth.clientId, request.body)),
  );

  api.post(
    `${base}/restart`,
    {
      schema: {
        tags,
        summary: 'Restart the V1 → V2 syntax migration',
        description:
          'From any status but `in_progress` (422 `invalid_transition`): `in_progress` again, and its job converts the templates still in V1.',
        response: { 200: Type.Ref(MigrationCampaign), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => presentRestart(await migration.restart(request.hrAuth.clientId)),
  );

  listRoute(
    app,
    paginator,
    {
      path: `${base}/list`,
      tags,
      summary: 'List the templates the syntax migration would convert',
      description: 'The templates whose latest version is in V1 syntax, in creation order.',
      querystring: MigrationListQuery,
      item: Type.Ref(Template),
      list: MigrationList,
      errors: [],
    },
    {
      page: (clientId, query, request) => migration.list(clientId, query.q, request),
      present: presentTemplate,
    },
  );

  api.post(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: 'Convert a V1 template to V2 syntax',
        description:
          'Its latest version, converted, becomes its next version (active when it has no ERROR), with the same fragment mapping, output formats and field typings; it generates the same documents. 422 `not_v1` when the latest version is V2 already.',
        params: MigrationTemplateParams,
        response: { 201: Type.Ref(TemplateVersion), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentVersion(await migration.convert(request.hrAuth.clientId, request.params.id))),
  );
}
