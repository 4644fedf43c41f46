import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import { NoBody } from '../../../platform/http/no-body.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import type { TaskFilesService } from './files-service.js';
import { presentTask, presentTaskFile } from './present.js';
import {
  Task,
  TaskComplete,
  TaskFile,
  TaskFileParams,
  TaskFilePatch,
  TaskFilePost,
  TaskFill,
  TaskGetQuery,
  TaskList,
  TaskListQuery,
  TaskParams,
  TaskPatch,
} from './schemas.js';
import type { TasksService } from './service.js';

const TAG = ['Tasks'];
const EXTENSION = 'Atrium extension (not in the reference).';

/** `/tasks` (reference §3f.3) and the Atrium extension `POST /tasks/{id}/complete`. */
export async function taskRoutes(
  app: FastifyInstance,
  opts: { tasks: TasksService; paginator: Paginator },
): Promise<void> {
  const { tasks, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(Task);

  listRoute(
    app,
    paginator,
    {
      path: '/tasks',
      tags: TAG,
      summary: 'List and search tasks',
      description:
        'Tasks of every process, sorted by `sort` (default `-created_at`), cursor-paginated; a cursor only serves the order it was made for.',
      querystring: TaskListQuery,
      item: full,
      list: TaskList,
      errors: [403],
    },
    { page: (clientId, query, request) => tasks.list(clientId, query, request), present: (v) => presentTask(v) },
  );

  api.get(
    '/tasks/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a task',
        description:
          'Typed by its `type`: `basic` has `message`; `acknowledgment` has `files` (the document) and `uploaded_document`; `fill_form` has `form_id`, `form_data`, `form_files`; `fill_pdf` those and `pdf_template_id`, `files`; `signature` has `pdf_template_id`, `files`, `signature_zone_id`.',
        params: TaskParams,
        querystring: TaskGetQuery,
        response: { 200: full, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { view, embed } = await tasks.get(request.hrAuth.clientId, request.params.id, request.query.embed);
      return presentTask(view, embed);
    },
  );

  api.patch(
    '/tasks/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update the due date or the reminder of a task',
        description: '`scheduled_reminder_at` follows from both.',
        params: TaskParams,
        body: TaskPatch,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentTask(await tasks.patch(request.hrAuth.clientId, request.params.id, request.body ?? {})),
  );

  api.post(
    '/tasks/:id/fill',
    {
      schema: {
        tags: TAG,
        summary: 'Save answers of a fill_form or fill_pdf task as a draft',
        description:
          'The answers are checked against the task’s form like request forms’ (each wrong one a 422 field error such as `form_data.2.values.0`) and merged over the saved draft field by field (an empty `values` clears a field); required fields may stay empty. File answers `{"upload_id"}` attach the uploads as form files. The task must be `to_do` (422 `task_blocked`, `task_completed`, `task_not_published`); another type is a 422 `invalid_task_type`. It does not complete the task.',
        params: TaskParams,
        body: TaskFill,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentTask(await tasks.fill(request.hrAuth.clientId, request.params.id, request.body.form_data)),
  );

  api.post(
    '/tasks/:id/complete',
    {
      // The body is optional: no body completes the task as `{}` would.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Complete a task',
        description: `${EXTENSION} Completes a \`to_do\` task (422 \`task_blocked\`, \`task_completed\`, \`task_not_published\` otherwise). fill_form and fill_pdf tasks take their last answers in \`form_data\` (merged over the draft; required fields must then be answered); fill_pdf and signature tasks need \`upload_id\` (the filled or signed document); a validation task takes \`state\` (\`accepted\` by default; \`refused\` sends the reviewed task back to \`to_do\` with \`has_requested_changes\`, and the validation task back to \`blocked\`). Tasks waiting for this one become \`to_do\`; the process is recounted and becomes \`done\` with its last task. Answers the task.`,
        params: TaskParams,
        body: TaskComplete,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentTask(await tasks.complete(request.hrAuth.clientId, request.params.id, request.body ?? {})),
  );
}

/** `/tasks/{id}/files`: a task's files (its form's files, the document to acknowledge, the completed document). */
export async function taskFileRoutes(
  app: FastifyInstance,
  opts: { files: TaskFilesService; blobs: BlobStore },
): Promise<void> {
  const { files: tasks, blobs } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const file = Type.Ref(TaskFile);

  api.post(
    '/tasks/:id/files',
    {
      schema: {
        tags: TAG,
        summary: 'Attach an uploaded file to a file field of a task’s form',
        description:
          'The upload (`POST /uploads`) is used up. The task must be a `to_do` fill_form or fill_pdf task, and `field_id` a `file` field of its form (one file unless the field is `multiple`).',
        params: TaskParams,
        body: TaskFilePost,
        response: { 200: file, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentTaskFile(await tasks.addFile(request.hrAuth.clientId, request.params.id, request.body)),
  );

  api.get(
    '/tasks/:id/files/:file_id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a task file',
        description:
          'Any file of the task: a form file, the document to acknowledge or the completed document (`field_id` is empty for the last two).',
        params: TaskFileParams,
        response: { 200: file, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      presentTaskFile(await tasks.file(request.hrAuth.clientId, request.params.id, request.params.file_id)),
  );

  api.patch(
    '/tasks/:id/files/:file_id',
    {
      schema: {
        tags: TAG,
        summary: 'Replace a task file',
        description: 'A form file of a `to_do` task takes the bytes of another upload (used up).',
        params: TaskFileParams,
        body: TaskFilePatch,
        response: { 200: file, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentTaskFile(
        await tasks.replaceFile(
          request.hrAuth.clientId,
          request.params.id,
          request.params.file_id,
          request.body.upload_id,
        ),
      ),
  );

  api.delete(
    '/tasks/:id/files/:file_id',
    {
      schema: {
        tags: TAG,
        summary: 'Delete a task file',
        description: 'A form file of a `to_do` task.',
        params: TaskFileParams,
        response: { 204: NoBody, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await tasks.deleteFile(request.hrAuth.clientId, request.params.id, request.params.file_id);
      return reply.status(204).send();
    },
  );

  /** A task's file, downloaded: the bytes with Range support; `read` finds it (not found: 404). */
  const download = (path: string, summary: string, description: string, read: typeof tasks.file) =>
    api.get(
      path,
      {
        schema: {
          tags: TAG,
          summary,
          description,
          params: TaskFileParams,
          response: {
            200: { type: 'string', format: 'binary', description: 'The file.' },
            206: { type: 'string', format: 'binary', description: 'The requested range.' },
            ...errorResponses(401, 403, 404, 416),
          },
        },
      },
      async (request, reply) => {
        const f = await read(request.hrAuth.clientId, request.params.id, request.params.file_id);
        return sendBlob(reply, request, blobs, {
          sha256: f.sha256,
          size: f.size,
          contentType: f.contentType,
          filename: f.filename,
        });
      },
    );
  download('/tasks/:id/files/:file_id/download', 'Download a task file', 'The bytes, with Range support.', (c, t, f) =>
    tasks.file(c, t, f),
  );
  download(
    '/tasks/:id/workingfiles/:file_id',
    'Download a file the task generated',
    'The completed document of a fill_pdf or signature task (the file its completion attached, listed in its `files`): the bytes, with Range support. Any other file id, a form file or the document to acknowledge included, is a 404.',
    (c, t, f) => tasks.workingFile(c, t, f),
  );
}
