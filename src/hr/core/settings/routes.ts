import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import {
  apiBase,
  presentCaseManagement,
  presentClient,
  presentCore,
  presentKnowledgeBase,
  presentProcessAutomation,
} from './present.js';
import {
  CaseManagementSettings,
  CoreClient,
  CoreSettings,
  KnowledgeBaseSettings,
  PlatformUpdatePayload,
  ProcessAutomationSettings,
} from './schemas.js';
import type { ResolvedSettings, SettingsService } from './service.js';

const TAG = ['Clients, platform updates and settings'];

/** `GET /client`, `GET /settings/…` and `POST /platform_updates` (reference §5.1). */
export async function settingsRoutes(app: FastifyInstance, opts: { settings: SettingsService }): Promise<void> {
  const { settings } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/client',
    {
      schema: {
        tags: TAG,
        summary: 'Get the details of the client platform',
        response: { 200: CoreClient, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { client, settings: s, updatedAt } = await settings.resolve(request.hrAuth.clientId);
      return presentClient(client, s, updatedAt);
    },
  );

  const section = (
    name: string,
    summary: string,
    schema: unknown,
    present: (s: ResolvedSettings, base: string) => unknown,
  ) =>
    api.get(
      `/settings/${name}`,
      { schema: { tags: TAG, summary, response: { 200: schema, ...errorResponses(401, 403) } } },
      async (request) => present((await settings.resolve(request.hrAuth.clientId)).settings, apiBase(request)),
    );
  section('core', 'Get the core settings', CoreSettings, presentCore);
  section(
    'process_automation',
    'Get the Digital Process Manager settings',
    ProcessAutomationSettings,
    presentProcessAutomation,
  );
  section('knowledge_base', 'Get the Knowledge Base settings', KnowledgeBaseSettings, presentKnowledgeBase);
  section('case_management', 'Get the request management settings', CaseManagementSettings, presentCaseManagement);

  api.post(
    '/platform_updates',
    {
      schema: {
        tags: TAG,
        summary: 'Apply a platform configuration update',
        description:
          'Applies a configuration update an operator staged with the admin API (`POST /admin/v1/tenants/hr/{id}/config_updates`): its changes reach `GET /client` and `GET /settings/…`. Unknown is 404; applied already is 409.',
        body: PlatformUpdatePayload,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      await settings.applyUpdate(request.hrAuth.clientId, request.body.config_update_id);
      return reply.status(204).send();
    },
  );
}
