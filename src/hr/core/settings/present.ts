import type { FastifyRequest } from 'fastify';
import { publicOrigin } from '../../../platform/http/public-origin.js';
import { formatDateTime } from '../../../platform/time.js';
import type { ClientRecord } from '../tenants/repository.js';
import type {
  AllSettings,
  CaseManagementSettings,
  CoreClient,
  CoreSettings,
  KnowledgeBaseSettings,
  ProcessAutomationSettings,
} from './schemas.js';
import type { ResolvedSettings } from './service.js';

/** The API root on the server that answered: each module's settings `url` is a collection under it. */
export const apiBase = (request: FastifyRequest): string => `${publicOrigin(request)}/api/v2/client`;

/** `CoreClientFull`: the client's identity, its languages and time zone, its modules. */
export function presentClient(client: ClientRecord, settings: ResolvedSettings, updatedAt: number): CoreClient {
  const name = client.name.slice(0, 50);
  return {
    id: client.id,
    name,
    title: settings.client.title,
    available_languages: settings.core.available_languages,
    default_language: settings.core.default_language,
    tenant_id: client.id,
    employee_available_languages: settings.client.employee_available_languages,
    timezone: settings.client.timezone,
    installed_modules: settings.client.installed_modules,
    created_at: formatDateTime(client.createdAt),
    updated_at: formatDateTime(updatedAt),
  };
}

export const presentCore = (s: ResolvedSettings): CoreSettings => ({ ...s.core });

/** `base` is the API root on this server (`https://host/api/v2/client`): each module's `url` is a collection of it. */
export const presentProcessAutomation = (s: ResolvedSettings, base: string): ProcessAutomationSettings => ({
  ...s.process_automation,
  url: `${base}/processes`,
});
export const presentKnowledgeBase = (s: ResolvedSettings, base: string): KnowledgeBaseSettings => ({
  ...s.knowledge_base,
  url: `${base}/kb_articles`,
});
export const presentCaseManagement = (s: ResolvedSettings, base: string): CaseManagementSettings => ({
  ...s.case_management,
  url: `${base}/requests`,
});

export function presentAll(client: ClientRecord, s: ResolvedSettings, updatedAt: number, base: string): AllSettings {
  return {
    client: presentClient(client, s, updatedAt),
    core: presentCore(s),
    process_automation: presentProcessAutomation(s, base),
    knowledge_base: presentKnowledgeBase(s, base),
    case_management: presentCaseManagement(s, base),
  };
}
