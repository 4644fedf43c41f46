import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import { containsText } from '../../../platform/db/search.js';
import { Tenant } from '../../../platform/db/tenant.js';
import type { HrProcessTemplatesTable, HrTaskTemplatesTable } from './tables.js';

export type ProcessTemplateRow = Selectable<HrProcessTemplatesTable>;
export type ProcessTemplateValues = Omit<ProcessTemplateRow, 'pk' | 'client_id' | 'id' | 'created_at' | 'created_by'>;
export type TaskTemplateRow = Selectable<HrTaskTemplatesTable>;
export type NewTaskTemplate = Omit<Insertable<HrTaskTemplatesTable>, 'pk'>;

const ORDER: ListOrder = { tiebreak: 'pk' };

function normalizeTask(row: TaskTemplateRow): TaskTemplateRow {
  return { ...row, size: row.size === null ? null : Number(row.size) };
}

/** Process templates and their task templates. Every query takes the client first. */
export class ProcessTemplatesRepository {
  constructor(private readonly db: Db) {}

  private tenant(clientId: string): Tenant<Tables> {
    return new Tenant<Tables>(this.db, clientId);
  }

  private scoped(clientId: string, title?: string) {
    let q = this.tenant(clientId).selectFrom('hr_process_templates').selectAll();
    if (title !== undefined) q = q.where(containsText(['title'], title));
    return q;
  }

  page(clientId: string, title: string | undefined, request: PageRequest) {
    return listPage(this.scoped(clientId, title), ORDER, request) as Promise<Page<ProcessTemplateRow>>;
  }

  async count(clientId: string, title: string | undefined): Promise<number> {
    const row = await this.scoped(clientId, title)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  find(clientId: string, id: string): Promise<ProcessTemplateRow | undefined> {
    return this.scoped(clientId).where('id', '=', id).executeTakeFirst();
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  async insertIfAbsent(
    clientId: string,
    id: string,
    values: ProcessTemplateValues & { created_by: string },
    at: number,
  ): Promise<boolean> {
    const row = await this.db
      .insertInto('hr_process_templates')
      .values({ client_id: clientId, id, ...values, created_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(clientId: string, id: string, values: ProcessTemplateValues): Promise<void> {
    await this.tenant(clientId).updateTable('hr_process_templates').set(values).where('id', '=', id).execute();
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
    await this.db.insertInto('hr_task_templates').values(row).execute();
  }

  async updateTask(
    clientId: string,
    processTemplateId: string,
    id: string,
    values: Partial<NewTaskTemplate>,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_task_templates')
      .set(values)
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
