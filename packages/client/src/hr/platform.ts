/** The client platform (`GET /client`), its settings (`GET /settings/…`) and platform updates (`/platform_updates`). */
import type { RequestOptions } from '../http.js';
import type {
  CaseManagementSettings,
  CoreClient,
  CoreSettings,
  KnowledgeBaseSettings,
  PlatformUpdatePayload,
  ProcessAutomationSettings,
} from '../schemas/hr/core/settings.js';
import type { HrCore } from './core.js';

/** `hr.platform`. */
export function platform(core: HrCore) {
  const get =
    <T>(path: string) =>
    (options?: RequestOptions): Promise<T> =>
      core.json<T>('GET', path, {}, options);
  return {
    /** The client platform: its languages, time zone and installed modules. */
    client: get<CoreClient>('/client'),
    /** Each module's settings, as an operator set them (the admin API's `settings`). */
    settings: {
      core: get<CoreSettings>('/settings/core'),
      processAutomation: get<ProcessAutomationSettings>('/settings/process_automation'),
      knowledgeBase: get<KnowledgeBaseSettings>('/settings/knowledge_base'),
      caseManagement: get<CaseManagementSettings>('/settings/case_management'),
    },
    /** Applies a configuration update an operator staged; resolves on 204. */
    applyUpdate: async (body: PlatformUpdatePayload, options?: RequestOptions): Promise<void> => {
      await core.json<undefined>('POST', '/platform_updates', { body }, options);
    },
  };
}
