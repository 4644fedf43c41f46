/** Tasks of processes (`/tasks`): fill, complete, files. */

import type { RequestOptions } from '../http.js';
import type {
  Task,
  TaskComplete,
  TaskFile,
  TaskFilePatch,
  TaskFilePost,
  TaskFill,
  TaskGetQuery,
  TaskListQuery,
  TaskPatch,
} from '../schemas/hr/automation/tasks.js';
import { type DownloadResponse, enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.tasks`. */
export function tasks(core: HrCore, v: Verbs) {
  const path = '/tasks';
  const files = (taskId: Id) => `${path}/${enc(taskId)}/files`;
  return {
    list: v.list<Task, TaskListQuery>(path),
    retrieve: v.retrieve<Task, TaskGetQuery>(path),
    update: v.update<TaskPatch, Task>(path),
    /** Answers a `fill_form` task's form (`POST …/fill`). */
    fill: (id: Id, body: TaskFill, options?: RequestOptions): Promise<Task> =>
      core.json('POST', `${path}/${enc(id)}/fill`, { body }, options),
    /** Completes a task (`POST …/complete`). */
    complete: (id: Id, body: TaskComplete = {}, options?: RequestOptions): Promise<Task> =>
      core.json('POST', `${path}/${enc(id)}/complete`, { body }, options),
    files: {
      /** Attaches an upload to a `file` field of a task. */
      create: (taskId: Id, body: TaskFilePost, options?: RequestOptions): Promise<TaskFile> =>
        core.json('POST', files(taskId), { body }, options),
      /** One file of a task. */
      retrieve: (taskId: Id, fileId: Id, options?: RequestOptions): Promise<TaskFile> =>
        core.json('GET', `${files(taskId)}/${enc(fileId)}`, {}, options),
      /** Replaces a task file with another upload. */
      update: (taskId: Id, fileId: Id, body: TaskFilePatch, options?: RequestOptions): Promise<TaskFile> =>
        core.json('PATCH', `${files(taskId)}/${enc(fileId)}`, { body }, options),
      /** Removes a file from a task. */
      del: async (taskId: Id, fileId: Id, options?: RequestOptions): Promise<void> => {
        await core.call('DELETE', `${files(taskId)}/${enc(fileId)}`, {}, options);
      },
      /** Downloads a task file (raw `Response`). */
      download: (taskId: Id, fileId: Id, options?: RequestOptions): Promise<DownloadResponse> =>
        core.download(`${files(taskId)}/${enc(fileId)}/download`, options),
    },
    workingFiles: {
      /** Downloads a file the task generated: its completed document (raw `Response`). */
      download: (taskId: Id, fileId: Id, options?: RequestOptions): Promise<DownloadResponse> =>
        core.download(`${path}/${enc(taskId)}/workingfiles/${enc(fileId)}`, options),
    },
  };
}
