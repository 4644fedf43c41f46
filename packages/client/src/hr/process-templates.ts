/** Process templates (`/process_templates`) and their task templates. */

import type { RequestOptions } from '../http.js';
import type {
  ProcessTemplate,
  ProcessTemplateCountQuery,
  ProcessTemplateListQuery,
  ProcessTemplatePut,
  TaskTemplate,
  TaskTemplatePut,
} from '../schemas/hr/automation/process-templates.js';
import { enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.processTemplates`. */
export function processTemplates(core: HrCore, v: Verbs) {
  const path = '/process_templates';
  const tasks = (processTemplateId: Id) => `${path}/${enc(processTemplateId)}/task_templates`;
  return {
    list: v.list<ProcessTemplate, ProcessTemplateListQuery>(path),
    count: v.count<ProcessTemplateCountQuery>(path),
    retrieve: v.retrieve<ProcessTemplate>(path),
    upsert: v.upsert<ProcessTemplatePut, ProcessTemplate>(path),
    taskTemplates: {
      /** The task templates of a process template (one array, not paged). */
      list: (processTemplateId: Id, options?: RequestOptions): Promise<TaskTemplate[]> =>
        core.json('GET', tasks(processTemplateId), {}, options),
      /** One task template. */
      retrieve: (processTemplateId: Id, id: Id, options?: RequestOptions): Promise<TaskTemplate> =>
        core.json('GET', `${tasks(processTemplateId)}/${enc(id)}`, {}, options),
      /** Creates or replaces a task template. */
      upsert: (processTemplateId: Id, id: Id, body: TaskTemplatePut, options?: RequestOptions): Promise<TaskTemplate> =>
        core.json('PUT', `${tasks(processTemplateId)}/${enc(id)}`, { body }, options),
      /** Deletes a task template. */
      del: async (processTemplateId: Id, id: Id, options?: RequestOptions): Promise<void> => {
        await core.call('DELETE', `${tasks(processTemplateId)}/${enc(id)}`, {}, options);
      },
    },
  };
}
