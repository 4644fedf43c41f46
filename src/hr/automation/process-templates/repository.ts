import type { Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { ProcessTemplate, TaskSettings, TaskTemplate } from './schemas.js';
import type { HrProcessTemplatesTable, HrTaskTemplatesTable, TaskAssignee, TaskType } from './tables.js';

type StoredTemplate = Selectable<HrProcessTemplatesTable>;
type StoredTaskTemplate = Selectable<HrTaskTemplatesTable>;
type Actor = ProcessTemplate['created_by'];

/** A process template as the domain sees it: its restrictions and authors decoded. */
export interface ProcessTemplateRecord {
  pk: number;
  id: string;
  title: string;
  publicTitle: string | null;
  description: string | null;
  automaticArchiving: boolean;
  restrictions: ProcessTemplate['restrictions'];
  createdBy: Actor;
  updatedBy: Actor;
  createdAt: number;
  updatedAt: number;
}
export type ProcessTemplateValues = Omit<ProcessTemplateRecord, 'pk' | 'id' | 'createdAt' | 'createdBy'>;

/** A task template as the domain sees it: its notifications and type settings decoded. */
export interface TaskTemplateRecord {
  pk: number;
  processTemplateId: string;
  id: string;
  type: TaskType;
  name: string;
  description: string;
  assignedTo: TaskAssignee;
  dependsOnId: string | null;
  fetchPreviousData: boolean;
  roleId: string | null;
  emailNotifications: TaskTemplate['email_notifications'];
  settings: TaskSettings;
  /** The document to acknowledge (acknowledgment templates). */
  filename: string | null;
  sha256: string | null;
  size: number | null;
  contentType: string | null;
  createdAt: number;
  updatedAt: number;
}
/** What a task template's write sets (its file only when an upload replaces it). */
export type TaskTemplateValues = Omit<
  TaskTemplateRecord,
  'pk' | 'processTemplateId' | 'id' | 'filename' | 'sha256' | 'size' | 'contentType' | 'createdAt'
> & { file?: TaskTemplateFile };
export type TaskTemplateFile = Pick<TaskTemplateRecord, 'filename' | 'sha256' | 'size' | 'contentType'>;

const ORDER: ListOrder = { tiebreak: 'pk' };

export function toProcessTemplateRecord(row: StoredTemplate): ProcessTemplateRecord {
  return {
    pk: row.pk,
    id: row.id,
    title: row.title,
    publicTitle: row.public_title,
    description: row.description,
    automaticArchiving: row.automatic_archiving === 1,
    restrictions: JSON.parse(row.restrictions) as ProcessTemplate['restrictions'],
    createdBy: JSON.parse(row.created_by) as Actor,
    updatedBy: JSON.parse(row.updated_by) as Actor,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function templateColumns(values: ProcessTemplateValues) {
  return {
    title: values.title,
    public_title: values.publicTitle,
    description: values.description,
    automatic_archiving: values.automaticArchiving ? 1 : 0,
    restrictions: JSON.stringify(values.restrictions),
    updated_by: JSON.stringify(values.updatedBy),
    updated_at: values.updatedAt,
  };
}

export function toTaskTemplateRecord(row: StoredTaskTemplate): TaskTemplateRecord {
  return {
    pk: row.pk,
    processTemplateId: row.process_template_id,
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    assignedTo: row.assigned_to,
    dependsOnId: row.depends_on_id,
    fetchPreviousData: row.fetch_previous_data === 1,
    roleId: row.role_id,
    emailNotifications: JSON.parse(row.email_notifications) as TaskTemplate['email_notifications'],
    settings: JSON.parse(row.settings) as TaskSettings,
    filename: row.filename,
    sha256: row.sha256,
    size: row.size === null ? null : Number(row.size),
    contentType: row.content_type,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function taskColumns(values: TaskTemplateValues) {
  return {
    type: values.type,
    name: values.name,
    description: values.description,
    assigned_to: values.assignedTo,
    depends_on_id: values.dependsOnId,
    fetch_previous_data: values.fetchPreviousData ? 1 : 0,
    role_id: values.roleId,
    email_notifications: JSON.stringify(values.emailNotifications),
    settings: JSON.stringify(values.settings),
    updated_at: values.updatedAt,
    ...(values.file
      ? {
          filename: values.file.filename,
          sha256: values.file.sha256,
          size: values.file.size,
          content_type: values.file.contentType,
        }
      : {}),
  };
}

/** Process templates and their task templates. Every query takes the client first. */
export class ProcessTemplatesRepository extends HrRepository {
  private scoped(clientId: HrTenantId, title?: string) {
    let q = this.tenant(clientId).selectFrom('hr_process_templates').selectAll();
    if (title !== undefined) q = q.where(containsText(['title'], title));
    return q;
  }

  async page(
    clientId: HrTenantId,
    title: string | undefined,
    request: PageRequest,
  ): Promise<Page<ProcessTemplateRecord>> {
    const page = await listPage(this.scoped(clientId, title), ORDER, request);
    return { ...page, items: page.items.map(toProcessTemplateRecord) };
  }

  async count(clientId: HrTenantId, title: string | undefined): Promise<number> {
    const row = await this.scoped(clientId, title)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: HrTenantId, id: string): Promise<ProcessTemplateRecord | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? toProcessTemplateRecord(row) : undefined;
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  async insertIfAbsent(
    clientId: HrTenantId,
    id: string,
    values: ProcessTemplateValues & { createdBy: Actor },
    at: number,
  ): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_process_templates', {
      id,
      ...templateColumns(values),
      created_by: JSON.stringify(values.createdBy),
      created_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, values: ProcessTemplateValues): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_process_templates')
      .set(templateColumns(values))
      .where('id', '=', id)
      .execute();
  }

  // ------------------------------------------------------------ task templates

  async tasks(clientId: HrTenantId, processTemplateId: string): Promise<TaskTemplateRecord[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_task_templates')
      .selectAll()
      .where('process_template_id', '=', processTemplateId)
      .orderBy('pk')
      .execute();
    return rows.map(toTaskTemplateRecord);
  }

  async task(clientId: HrTenantId, processTemplateId: string, id: string): Promise<TaskTemplateRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_task_templates')
      .selectAll()
      .where('process_template_id', '=', processTemplateId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toTaskTemplateRecord(row) : undefined;
  }

  async insertTask(
    clientId: HrTenantId,
    processTemplateId: string,
    id: string,
    values: TaskTemplateValues,
    at: number,
  ): Promise<void> {
    await this.db
      .insertInto('hr_task_templates')
      .values({
        client_id: clientId,
        process_template_id: processTemplateId,
        id,
        filename: null,
        sha256: null,
        size: null,
        content_type: null,
        ...taskColumns(values),
        created_at: at,
      })
      .execute();
  }

  async updateTask(
    clientId: HrTenantId,
    processTemplateId: string,
    id: string,
    values: TaskTemplateValues,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_task_templates')
      .set(taskColumns(values))
      .where('process_template_id', '=', processTemplateId)
      .where('id', '=', id)
      .execute();
  }

  async deleteTask(clientId: HrTenantId, processTemplateId: string, id: string): Promise<void> {
    await this.tenant(clientId)
      .deleteFrom('hr_task_templates')
      .where('process_template_id', '=', processTemplateId)
      .where('id', '=', id)
      .execute();
  }

  existingRoles(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }

  existingOrganizations(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }
}
