import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, NotFoundError, StateError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import { taskFileEvents } from './events.js';
import { presentTaskFile } from './present.js';
import type { TaskFileRecord, TaskRecord, TasksRepository } from './repository.js';
import type { TaskFilePost } from './schemas.js';
import { bytesOf, filesByField, mustBeToDo, mustFill, type TasksWork } from './service.js';
import { formOf } from './workflow.js';

/**
 * A task's files (reference §3f.3, `/tasks/{id}/files` and `/workingfiles`): the uploads answering its form's file
 * fields, which change only while the task is `to_do`, and the files it generated.
 */
export class TaskFilesService {
  private readonly repo: TasksRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<TasksWork>>,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.tasks;
  }

  private async row(clientId: HrTenantId, id: string, repo = this.repo): Promise<TaskRecord> {
    const row = await repo.find(clientId, id);
    if (!row) throw new NotFoundError('task', id);
    return row;
  }

  /** Records `action` on the task file `fileId` in the transaction of `tx`, as its GET presents it now. */
  private async recordFile(
    clientId: HrTenantId,
    tx: Audited<TasksWork>,
    taskId: string,
    fileId: string,
    action: (typeof taskFileEvents.actions)[number],
  ): Promise<TaskFileRecord> {
    const file = await tx.tasks.file(clientId, taskId, fileId);
    if (!file) throw new NotFoundError('task file', fileId);
    await tx.audit.record(clientId, taskFileEvents, action, {
      id: fileId,
      name: file.filename,
      data: presentTaskFile(file),
    });
    return file;
  }

  async file(clientId: HrTenantId, taskId: string, fileId: string): Promise<TaskFileRecord> {
    await this.row(clientId, taskId);
    const file = await this.repo.file(clientId, taskId, fileId);
    if (!file) throw new NotFoundError('task file', fileId);
    return file;
  }

  /** `GET /tasks/{id}/workingfiles/{file_id}`: a file the task generated (its completed document), else 404. */
  async workingFile(clientId: HrTenantId, taskId: string, fileId: string): Promise<TaskFileRecord> {
    const file = await this.file(clientId, taskId, fileId);
    if (file.role !== 'result') throw new NotFoundError('working file', fileId);
    return file;
  }

  /** `POST /tasks/{id}/files`: an upload answers a `file` field of a to_do form task. */
  async addFile(clientId: HrTenantId, taskId: string, input: TaskFilePost): Promise<TaskFileRecord> {
    const fileId = randomUUID();
    return this.work.run(async (tx) => {
      const repo = tx.tasks;
      const task = await this.row(clientId, taskId, repo);
      if (input.task_id !== taskId) {
        throw new FieldValidationError([
          { field: 'task_id', code: 'mismatch', message: 'task_id must be the task of the path.' },
        ]);
      }
      mustFill(task, 'attach files to');
      mustBeToDo(task, 'attach files to');
      const field = formOf(task).fields.find((f) => f.slug === input.field_id);
      if (field?.type_id !== 'file') {
        throw new FieldValidationError([
          { field: 'field_id', code: 'unknown_field', message: 'The task’s form has no file field with this id.' },
        ]);
      }
      const existing = filesByField(await repo.files(clientId, [taskId])).get(field.slug) ?? 0;
      if (!field.multiple && existing > 0) {
        throw new FieldValidationError([
          {
            field: 'field_id',
            code: 'too_many',
            message: 'This field holds one file: replace it (PATCH) or delete it first.',
          },
        ]);
      }
      const upload = await this.uploads.consume(tx.uploads, clientId, input.upload_id, {
        field: 'upload_id',
      });
      await repo.insertFile(clientId, {
        id: fileId,
        taskId,
        role: 'form',
        fieldId: field.slug,
        ...bytesOf(upload),
        createdAt: this.clock.now(),
      });
      return this.recordFile(clientId, tx, taskId, fileId, 'created');
    });
  }

  /** A form file of a to_do task, in the unit of work's transaction, for a change. */
  private async changeable(
    repo: TasksRepository,
    clientId: HrTenantId,
    taskId: string,
    fileId: string,
    action: string,
  ) {
    const task = await this.row(clientId, taskId, repo);
    const file = await repo.file(clientId, taskId, fileId);
    if (!file) throw new NotFoundError('task file', fileId);
    mustBeToDo(task, action);
    if (file.role !== 'form') {
      throw new StateError('not_a_form_file', `Only files answering a form field can be ${action}d.`);
    }
    return file;
  }

  /** `PATCH /tasks/{id}/files/{file_id}`: replaces the file with another upload (task `to_do`). */
  async replaceFile(clientId: HrTenantId, taskId: string, fileId: string, uploadId: string): Promise<TaskFileRecord> {
    const { old, file } = await this.work.run(async (tx) => {
      const repo = tx.tasks;
      const file = await this.changeable(repo, clientId, taskId, fileId, 'replace');
      const upload = await this.uploads.consume(tx.uploads, clientId, uploadId, { field: 'upload_id' });
      await repo.updateFile(clientId, fileId, bytesOf(upload));
      return { old: file.sha256, file: await this.recordFile(clientId, tx, taskId, fileId, 'updated') };
    });
    await this.blobs.deleteIfUnreferenced(old);
    return file;
  }

  /** `DELETE /tasks/{id}/files/{file_id}` (task `to_do`); the bytes go once nothing else refers to them. */
  async deleteFile(clientId: HrTenantId, taskId: string, fileId: string): Promise<void> {
    const old = await this.work.run(async (tx) => {
      const repo = tx.tasks;
      const file = await this.changeable(repo, clientId, taskId, fileId, 'delete');
      await this.recordFile(clientId, tx, taskId, fileId, 'deleted');
      await repo.deleteFile(clientId, fileId);
      return file.sha256;
    });
    await this.blobs.deleteIfUnreferenced(old);
  }
}
