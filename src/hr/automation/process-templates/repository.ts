import type { Insertable, Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import { containsText } from '../../../platform/db/search.js';
import type { TenantRow } from '../../../platform/db/tenant.js';
import type { ProcessTemplate, TaskSettings, TaskTemplate } from './schemas.js';
import type { HrProcessTemplatesTable, HrTaskTemplatesTable } from './tables.js';

type StoredTemplate = Selectable<HrProcessTemplatesTable>;
type StoredTaskTemplate = Selectable<HrTaskTemplatesTable>;
type Actor = ProcessTemplate['created_by'];

/** A process template as the domain sees it: its restrictions and authors decoded. */
export type ProcessTemplateRow = Omit<StoredTemplate, 'restrictions' | 'created_by' | 'updated_by'> & {
  restrictions: ProcessTemplate['restrictions'];
  created_by: Actor;
  updated_by: Actor;
};
export type ProcessTemplateValues = Omit<ProcessTemplateRow, 'pk' | 'client_id' | 'id' | 'created_at' | 'created_by'>;

/** A task template as the domain sees it: its notifications and type settings decoded. */
export type TaskTemplateRow = Omit<StoredTaskTemplate, 'email_notifications' | 'settings'> & {
  email_notifications: TaskTemplate['email_notifications'];
  settings: TaskSettings;
};
export type NewTaskTemplate = Omit<Insertable<HrTaskTemplatesTable>, 'pk' | 'email_notifications' | 'settings'> & {
  email_notifications: TaskTemplate['email_notifications'];
  settings: TaskSettings;
};

const ORDER: ListOrder = { tiebreak: 'pk' };

function toTemplate(row: StoredTemplate): ProcessTemplateRow {
  return {
    ...row,
    restrictions: JSON.parse(row.restrictions) as ProcessTemplate['restrictions'],
    created_by: JSON.parse(row.created_by) as Actor,
    updated_by: JSON.parse(row.updated_by) as Actor,
  };
}

function templateColumns<V extends Partial<Pick<ProcessTemplateRow, 'restrictions' | 'created_by' | 'updated_by'>>>(
  values: V,
) {
  const { restrictions, created_by, updated_by, ...plain } = values;
  return {
    ...plain,
    ...(restrictions !== undefined ? { restrictions: JSON.stringify(restrictions) } : {}),
    ...(created_by !== undefined ? { created_by: JSON.stringify(created_by) } : {}),
    ...(updated_by !== undefined ? { updated_by: JSON.stringify(updated_by) } : {}),
  };
}

function normalizeTask(row: StoredTaskTemplate): TaskTemplateRow {
  return {
    ...row,
    email_notifications: JSON.parse(row.email_notifications) as TaskTemplate['email_notifications'],
    settings: JSON.parse(row.settings) as TaskSettings,
    size: row.size === null ? null : Number(row.size),
  };
}

function taskColumns<V extends Partial<Pick<TaskTemplateRow, 'email_notifications' | 'settings'>>>(values: V) {
  const { email_notifications, settings, ...plain } = values;
  return {
    ...plain,
    ...(email_notifications !== undefined ? { email_notifications: JSON.stringify(email_notifications) } : {}),
    ...(settings !== undefined ? { settings: JSON.stringify(settings) } : {}),
  };
}

/** Process templates and their task templates. Every query takes the client first. */
export class ProcessTemplatesRepository extends HrRepository {
  private scoped(clientId: string, title?: string) {
    let q = this.tenant(clientId).selectFrom('hr_process_templates').selectAll();
    if (title !== undefined) q = q.where(containsText(['title'], title));
    return q;
  }

  async page(clientId: string, title: string | undefined, request: PageRequest): Promise<Page<ProcessTemplateRow>> {
    const page = await listPage(this.scoped(clientId, title), ORDER, request);
    return { ...page, items: page.items.map(toTemplate) };
  }

  async count(clientId: string, title: string | undefined): Promise<number> {
    const row = await this.scoped(clientId, title)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: string, id: string): Promise<ProcessTemplateRow | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? toTemplate(row) : undefined;
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  async insertIfAbsent(
    clientId: string,
    id: string,
    values: ProcessTemplateValues & { created_by: Actor },
    at: number,
  ): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_process_templates', {
      id,
      ...templateColumns(values),
      created_at: at,
    } as TenantRow<Tables, 'hr_process_templates'>);
  }

  async update(clientId: string, id: string, values: ProcessTemplateValues): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_process_templates')
      .set(templateColumns(values))
      .where('id', '=', id)
      .execute();
  }

  // ------------------------------------------------------------ task templates

  async tasks(clientId: string, processTemplateId: string): Promise<TaskTemplateRow[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_task_templates')
      .selectAll()
      .where('process_template_id', '=', processTemplateId)
      .orderBy('pk')
      .execute();
    return rows.map(normalizeTask);
  }

  async task(clientId: string, processTemplateId: string, id: string): Promise<TaskTemplateRow | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_task_templates')
      .selectAll()
      .where('process_template_id', '=', processTemplateId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? normalizeTask(row) : undefined;
  }

  async insertTask(row: NewTaskTemplate): Promise<void> {
    await this.db
      .insertInto('hr_task_templates')
      .values(taskColumns(row) as Insertable<HrTaskTemplatesTable>)
      .execute();
  }

  async updateTask(
    clientId: string,
    processTemplateId: string,
    id: string,
    values: Partial<NewTaskTemplate>,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_task_templates')
      .set(taskColumns(values))
      .where('process_template_id', '=', processTemplateId)
      .where('id', '=', id)
      .execute();
  }

  async deleteTask(clientId: string, processTemplateId: string, id: string): Promise<void> {
    await this.tenant(clientId)
      .deleteFrom('hr_task_templates')
      .where('process_template_id', '=', processTemplateId)
      .where('id', '=', id)
      .execute();
  }

  existingRoles(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }

  existingOrganizations(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }
}
