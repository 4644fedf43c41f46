import { type Insertable, type Selectable, sql } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { TaskSettings } from '../process-templates/schemas.js';
import type { HrProcessesTable, ProcessState } from './tables.js';

export type ProcessRow = Selectable<HrProcessesTable>;
export type NewProcess = Omit<Insertable<HrProcessesTable>, 'pk'>;

/** Parsed, checked filters of `GET /processes`. */
export interface ProcessQuery {
  employeeId?: string;
  templateId?: string;
  creatorId?: string;
  publicationDate?: string;
  states?: string[];
  dueSince?: string;
  dueUntil?: string;
  createdSince?: number;
  createdUntil?: number;
  completedSince?: number;
  reference?: string;
}

const ORDER: ListOrder = { tiebreak: 'pk' };

function normalize(row: ProcessRow): ProcessRow {
  return {
    ...row,
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/** Processes, their per-client counter, and the people they name. Every query takes the client first. */
export class ProcessesRepository extends HrRepository {
  private scoped(clientId: string) {
    return this.tenant(clientId).selectFrom('hr_processes').selectAll();
  }

  async page(clientId: string, f: ProcessQuery, request: PageRequest): Promise<Page<ProcessRow>> {
    let q = this.scoped(clientId);
    if (f.employeeId !== undefined) q = q.where('employee_id', '=', f.employeeId);
    if (f.templateId !== undefined) q = q.where('process_template_id', '=', f.templateId);
    if (f.creatorId !== undefined) q = q.where('creator_id', '=', f.creatorId);
    if (f.publicationDate !== undefined) q = q.where('publication_date', '=', f.publicationDate);
    if (f.states !== undefined) q = q.where('state', 'in', f.states as ProcessState[]);
    if (f.dueSince !== undefined) q = q.where('due_date', '>=', f.dueSince);
    if (f.dueUntil !== undefined) q = q.where('due_date', '<=', f.dueUntil);
    if (f.createdSince !== undefined) q = q.where('created_at', '>=', f.createdSince);
    if (f.createdUntil !== undefined) q = q.where('created_at', '<=', f.createdUntil);
    if (f.completedSince !== undefined) q = q.where('completed_at', '>=', f.completedSince);
    if (f.reference !== undefined) q = q.where('reference', '=', f.reference);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(normalize) };
  }

  async find(clientId: string, id: string): Promise<ProcessRow | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? normalize(row) : undefined;
  }

  /**
   * The client's next process number. One upsert of the client's counter row: inside the caller's transaction it
   * locks the row until the commit, so concurrent creates get distinct, gap-free numbers on both dialects.
   */
  async nextNumber(clientId: string): Promise<number> {
    const row = await this.db
      .insertInto('hr_process_counters')
      .values({ client_id: clientId, last_number: 1 })
      .onConflict((oc) =>
        oc.column('client_id').doUpdateSet({ last_number: sql<number>`hr_process_counters.last_number + 1` }),
      )
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_number);
  }

  async insert(row: NewProcess): Promise<void> {
    await this.db.insertInto('hr_processes').values(row).execute();
  }

  async update(clientId: string, id: string, values: Partial<NewProcess>): Promise<void> {
    await this.tenant(clientId).updateTable('hr_processes').set(values).where('id', '=', id).execute();
  }

  async delete(clientId: string, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_processes').where('id', '=', id).execute();
  }

  processTemplate(clientId: string, id: string) {
    return this.tenant(clientId).selectFrom('hr_process_templates').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async taskTemplates(clientId: string, processTemplateId: string) {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_task_templates')
      .selectAll()
      .where('process_template_id', '=', processTemplateId)
      .orderBy('pk')
      .execute();
    return rows.map((r) => ({
      ...r,
      settings: JSON.parse(r.settings) as TaskSettings,
      size: r.size === null ? null : Number(r.size),
    }));
  }

  /** The employee's id, by id or external id. */
  async employeeId(clientId: string, by: { id: string } | { externalId: string }): Promise<string | undefined> {
    let q = this.tenant(clientId).selectFrom('hr_employees').select('id');
    q = 'id' in by ? q.where('id', '=', by.id) : q.where('external_id', '=', by.externalId);
    return (await q.executeTakeFirst())?.id;
  }

  /** The HR user's id, by id or external id. */
  async userId(clientId: string, by: { id: string } | { externalId: string }): Promise<string | undefined> {
    let q = this.tenant(clientId).selectFrom('hr_users').select('id');
    q = 'id' in by ? q.where('id', '=', by.id) : q.where('external_id', '=', by.externalId);
    return (await q.executeTakeFirst())?.id;
  }
}
