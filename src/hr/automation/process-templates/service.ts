import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError, StateError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import { processTemplateEvents, taskTemplateEvents } from './events.js';
import { presentProcessTemplate, presentTaskTemplate } from './present.js';
import type {
  ProcessTemplateRecord,
  ProcessTemplatesRepository,
  TaskTemplateFile,
  TaskTemplateRecord,
} from './repository.js';
import type { ProcessTemplatePut, TaskTemplatePut } from './schemas.js';
import { badId, pathErrors, placeErrors, roleErrors, typeSettings } from './task-template-rules.js';

/** Who writes a template: the calling application. */
export interface TemplateActor {
  origin: 'application' | 'user';
  id: string;
}

export { MAX_TASK_TEMPLATES } from './task-template-rules.js';

/** The repositories process-template writes touch: templates and the uploads a task template consumes. */
export interface ProcessTemplatesWork {
  processTemplates: ProcessTemplatesRepository;
  uploads: UploadsRepository;
}

/** Process templates and their task templates (reference §3f.2). */
export class ProcessTemplatesService {
  private readonly repo: ProcessTemplatesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<ProcessTemplatesWork>>,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.processTemplates;
  }

  list(clientId: HrTenantId, title: string | undefined, request: PageRequest) {
    return this.repo.page(clientId, title, request) as Promise<Page<ProcessTemplateRecord>>;
  }

  count(clientId: HrTenantId, title: string | undefined): Promise<number> {
    return this.repo.count(clientId, title);
  }

  async get(clientId: HrTenantId, id: string): Promise<ProcessTemplateRecord> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('process template', id);
    return row;
  }

  /** PUT: creates (201) or replaces every attribute (200). */
  async put(
    clientId: HrTenantId,
    id: string,
    input: ProcessTemplatePut,
    actor: TemplateActor,
  ): Promise<{ template: ProcessTemplateRecord; created: boolean }> {
    const checked: FieldError[] = [];
    const idError = badId(id);
    if (idError) checked.push(idError);
    if (input.id !== undefined && input.id !== id) {
      checked.push({ field: 'id', code: 'mismatch', message: 'The id in the body must be the one of the path.' });
    }
    return this.work.run(async ({ processTemplates: repo, audit }) => {
      // A fresh list per attempt: the transaction runs again after a serialization failure.
      const errors = [...checked];
      const restrictions = input.restrictions ?? [];
      const orgs = await repo.existingOrganizations(
        clientId,
        restrictions.flatMap((r) => r.organizations.map((o) => o.id)),
      );
      restrictions.forEach((r, i) => {
        r.organizations.forEach((o, k) => {
          if (!orgs.has(o.id)) {
            errors.push({
              field: `restrictions.${i}.organizations.${k}.id`,
              code: 'not_found',
              message: 'No organization has this code.',
            });
          }
        });
      });
      if (errors.length) throw new FieldValidationError(errors);
      const at = this.clock.now();
      const by = actor;
      const values = {
        title: input.title,
        publicTitle: input.public_title ?? null,
        description: input.description ?? null,
        automaticArchiving: input.automatic_archiving === true,
        restrictions,
        updatedBy: by,
        updatedAt: at,
      };
      const existing = await repo.find(clientId, id);
      let created = false;
      if (!existing) created = await repo.insertIfAbsent(clientId, id, { ...values, createdBy: by }, at);
      if (!created) await repo.update(clientId, id, values);
      const template = (await repo.find(clientId, id)) as ProcessTemplateRecord;
      await audit.record(clientId, processTemplateEvents, created ? 'created' : 'updated', {
        id,
        name: template.title,
        data: presentProcessTemplate(template),
      });
      return { template, created };
    });
  }

  // ------------------------------------------------------------ task templates

  async taskTemplates(clientId: HrTenantId, processTemplateId: string): Promise<TaskTemplateRecord[]> {
    await this.get(clientId, processTemplateId);
    return this.repo.tasks(clientId, processTemplateId);
  }

  async taskTemplate(clientId: HrTenantId, processTemplateId: string, id: string): Promise<TaskTemplateRecord> {
    await this.get(clientId, processTemplateId);
    const row = await this.repo.task(clientId, processTemplateId, id);
    if (!row) throw new NotFoundError('task template', id);
    return row;
  }

  /**
   * PUT: creates (201) or replaces (200) a task template. The type is immutable; the dependency must be another
   * task template of the same process template, without a cycle; roles must exist; each type takes its own fields.
   */
  async putTaskTemplate(
    clientId: HrTenantId,
    processTemplateId: string,
    id: string,
    input: TaskTemplatePut,
  ): Promise<{ template: TaskTemplateRecord; created: boolean }> {
    let released: string | null = null;
    const result = await this.work.run(async (tx) => {
      const repo = tx.processTemplates;
      if (!(await repo.find(clientId, processTemplateId))) {
        throw new NotFoundError('process template', processTemplateId);
      }
      const errors = pathErrors(id, processTemplateId, input);
      const siblings = await repo.tasks(clientId, processTemplateId);
      const existing = siblings.find((t) => t.id === id);
      const dependsOn = input.depends_on_id ?? null;
      placeErrors(errors, input, id, siblings, existing, dependsOn);
      const notifications = input.email_notifications ?? [];
      const roleIds = [...(input.role_id ? [input.role_id] : []), ...notifications.flatMap((n) => n.role_ids)];
      const roles = await repo.existingRoles(clientId, roleIds);
      roleErrors(errors, input, notifications, roles);
      const settings = typeSettings(errors, input, existing);
      if (errors.length) throw new FieldValidationError(errors);

      const at = this.clock.now();
      const values = {
        type: input.type,
        name: input.name,
        description: input.description ?? '',
        assignedTo: input.assigned_to,
        dependsOnId: dependsOn,
        fetchPreviousData: input.fetch_previous_data === true,
        roleId: input.role_id ?? null,
        emailNotifications: notifications,
        settings,
        updatedAt: at,
      };
      let file: TaskTemplateFile | undefined;
      if (input.type === 'acknowledgment' && input.upload_id !== undefined) {
        const upload = await this.uploads.consume(tx.uploads, clientId, input.upload_id, {
          field: 'upload_id',
        });
        file = {
          filename: upload.filename,
          sha256: upload.sha256,
          size: upload.size,
          contentType: upload.contentType,
        };
        if (existing?.sha256 && existing.sha256 !== upload.sha256) released = existing.sha256;
      }
      const written = { ...values, ...(file ? { file } : {}) };
      if (existing) await repo.updateTask(clientId, processTemplateId, id, written);
      else await repo.insertTask(clientId, processTemplateId, id, written, at);
      const template = (await repo.task(clientId, processTemplateId, id)) as TaskTemplateRecord;
      await tx.audit.record(clientId, taskTemplateEvents, existing ? 'updated' : 'created', {
        id,
        name: template.name,
        data: presentTaskTemplate(template),
      });
      return { template, created: !existing };
    });
    if (released) await this.blobs.deleteIfUnreferenced(released);
    return result;
  }

  /** DELETE: refused (422) while another task template depends on it. Existing processes keep their tasks. */
  async deleteTaskTemplate(clientId: HrTenantId, processTemplateId: string, id: string): Promise<void> {
    const sha256 = await this.work.run(async ({ processTemplates: repo, audit }) => {
      if (!(await repo.find(clientId, processTemplateId))) {
        throw new NotFoundError('process template', processTemplateId);
      }
      const siblings = await repo.tasks(clientId, processTemplateId);
      const row = siblings.find((t) => t.id === id);
      if (!row) throw new NotFoundError('task template', id);
      const dependants = siblings.filter((t) => t.dependsOnId === id).map((t) => t.id);
      if (dependants.length) {
        throw new StateError(
          'task_template_has_dependants',
          `Task templates ${dependants.map((d) => JSON.stringify(d)).join(', ')} depend on this one; change them first.`,
        );
      }
      await audit.record(clientId, taskTemplateEvents, 'deleted', {
        id,
        name: row.name,
        data: presentTaskTemplate(row),
      });
      await repo.deleteTask(clientId, processTemplateId, id);
      return row.sha256;
    });
    if (sha256) await this.blobs.deleteIfUnreferenced(sha256);
  }
}
