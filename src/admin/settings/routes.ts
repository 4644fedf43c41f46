import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiBase, presentAll } from '../../hr/core/settings/present.js';
import type { ConfigUpdateRecord } from '../../hr/core/settings/repository.js';
import {
  AllSettings,
  CaseManagementSettings,
  ConfigUpdate,
  CoreClient,
  CoreSettings,
  KnowledgeBaseSettings,
  ProcessAutomationSettings,
  SettingsChanges,
} from '../../hr/core/settings/schemas.js';
import { errorResponses } from '../../hr/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { formatDateTime } from '../../platform/time.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import type { AdminSettingsService } from './service.js';

const tags = ['Admin: Settings'];

const UpdateParams = Type.Composite(
  [TenantParams, Type.Object({ update_id: Type.String({ minLength: 1, maxLength: 64 }) })],
  { additionalProperties: false },
);

const presentUpdate = (u: ConfigUpdateRecord): ConfigUpdate => ({
  id: u.id,
  changes: u.changes,
  created_at: formatDateTime(u.createdAt),
  applied_at: u.appliedAt === null ? null : formatDateTime(u.appliedAt),
});

/** The HR API's schemas these routes answer, added to the admin API's own schema set. */
export const settingsSchemas = [
  CoreClient,
  CoreSettings,
  ProcessAutomationSettings,
  KnowledgeBaseSettings,
  CaseManagementSettings,
  AllSettings,
  ConfigUpdate,
];

/**
 * `/tenants/hr/{id}/settings` and `/tenants/hr/{id}/config_updates`: an HR client's settings as `GET /client` and
 * `GET /settings/…` answer them, changed at once or staged for `POST /platform_updates` (docs/admin.md, "Settings").
 */
export async function settingsRoutes(
  app: FastifyInstance,
  opts: {
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    settings: AdminSettingsService;
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { resolve, settings, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const show = async (request: FastifyRequest, tenant: TenantRef) => {
    const { client, settings: s, updatedAt } = await settings.show(tenant);
    return presentAll(client, s, updatedAt, apiBase(request));
  };

  api.get(
    '/tenants/:kind/:id/settings',
    {
      schema: {
        tags,
        summary: "Get an HR client's settings",
        description: 'Every section, as the HR API answers `GET /client` and `GET /settings/…` to the client.',
        params: TenantParams,
        response: { 200: Type.Ref(AllSettings), ...errorResponses(401, 404) },
      },
    },
    async (request) => show(request, await resolve(request.params.kind, request.params.id)),
  );

  api.patch(
    '/tenants/:kind/:id/settings',
    {
      schema: {
        tags,
        summary: "Change an HR client's settings",
        description:
          'Any fields of any section; a field left out keeps its value. Checked as a whole (a known time zone, a default language among the available ones, `core` among the modules): 422 changes nothing. Recorded in the client’s audit trail as `settings.updated`. Answers every section.',
        params: TenantParams,
        body: SettingsChanges,
        response: { 200: Type.Ref(AllSettings), ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      await settings.change(tenant, request.body as SettingsChanges, actorOf(request));
      return show(request, tenant);
    },
  );

  api.post(
    '/tenants/:kind/:id/config_updates',
    {
      schema: {
        tags,
        summary: 'Stage a configuration update',
        description:
          "Changes, as `PATCH …/settings` takes them, kept until the client applies them with `POST /platform_updates` and the answer's `id` as `config_update_id`. Checked against the current settings now, and again when applied.",
        params: TenantParams,
        body: SettingsChanges,
        response: { 201: Type.Ref(ConfigUpdate), ...errorResponses(400, 401, 404, 422) },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const update = await settings.stage(tenant, request.body as SettingsChanges, actorOf(request));
      return reply.code(201).send(presentUpdate(update));
    },
  );

  api.get(
    '/tenants/:kind/:id/config_updates/:update_id',
    {
      schema: {
        tags,
        summary: 'Get a configuration update',
        description: 'Its changes, and when the client applied it (`null` while pending).',
        params: UpdateParams,
        response: { 200: Type.Ref(ConfigUpdate), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { kind, id, update_id } = request.params;
      return presentUpdate(await settings.findUpdate(await resolve(kind, id), update_id));
    },
  );
}
