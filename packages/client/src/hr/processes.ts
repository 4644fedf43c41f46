/** Processes (`/processes`): create, publish, delete, post-process actions. */

import type { RequestOptions } from '../http.js';
import type { PostProcessAction, PostProcessActionCreate } from '../schemas/hr/automation/post-process-actions.js';
import type { Process, ProcessCreate, ProcessGetQuery, ProcessListQuery } from '../schemas/hr/automation/processes.js';
import { enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.processes`. */
export function processes(core: HrCore, v: Verbs) {
  const path = '/processes';
  return {
    list: v.list<Process, ProcessListQuery>(path),
    create: v.create<ProcessCreate, Process>(path),
    retrieve: v.retrieve<Process, ProcessGetQuery>(path),
    del: v.del(path),
    /** Publishes a draft process: its tasks become `to_do` (or `blocked`). */
    publish: async (id: Id, options?: RequestOptions): Promise<void> => {
      await core.call('PUT', `${path}/${enc(id)}/publish`, {}, options);
    },
    /** Inboxes (HR users, or shared inboxes) that receive the process's documents when it ends. */
    postProcessAction: (id: Id, body: PostProcessActionCreate, options?: RequestOptions): Promise<PostProcessAction> =>
      core.json('POST', `${path}/${enc(id)}/post_process_action`, { body }, options),
  };
}
