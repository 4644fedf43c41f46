import { type Selectable, sql, type Updateable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import {
  type ProcessTemplateRecord,
  type TaskTemplateRecord,
  toProcessTemplateRecord,
  toTaskTemplateRecord,
} from '../process-templates/repository.js';
import type { HrProcessesTable, ProcessState } from './tables.js';

/** A process as the domain sees it: `published` a boolean, instants in epoch ms. */
export interface ProcessRecord {
  pk: number;
  id: string;
  reference: string;
  title: string;
  publicTitle: string | null;
  description: string | null;
  employeeId: string;
  creatorId: string;
  processTemplateId: string;
  publicationDate: string | null;
  dueDate: string | null;
  state: ProcessState;
  published: boolean;
  employeeTasksCount: number;
  companyTasksCount: number;
  doneEmployeeTasksCount: number;
  doneCompanyTasksCount: number;
  completedAt: number | null;
  createdAt: number;
  updatedAt: number;
}
export type NewProcess = Omit<ProcessRecord, 'pk'>;

/** What changes on a process after its creation: its state, publication and counters. */
export type ProcessChanges = Partial<
  Pick<
    ProcessRecord,
    | 'state'
    | 'published'
    | 'employeeTasksCount'
    | 'companyTasksCount'
    | 'doneEmployeeTasksCount'
    | 'doneCompanyTasksCount'
    | 'completedAt'
    | 'updatedAt'
  >
>;

function toColumns(values: ProcessChanges): Updateable<HrProcessesTable> {
  const columns: Updateable<HrProcessesTable> = {};
  if (values.state !== undefined) columns.state = values.state;
  if (values.published !== undefined) columns.published = values.published ? 1 : 0;
  if (values.employeeTasksCount !== undefined) columns.employee_tasks_count = values.employeeTasksCount;
  if (values.companyTasksCount !== undefined) columns.company_tasks_count = values.companyTasksCount;
  if (values.doneEmployeeTasksCount !== undefined) columns.done_employee_tasks_count = values.doneEmployeeTasksCount;
  if (values.doneCompanyTasksCount !== undefined) columns.done_company_tasks_count = values.doneCompanyTasksCount;
  if (values.completedAt !== undefined) columns.completed_at = values.completedAt;
  if (values.updatedAt !== undefined) columns.updated_at = values.updatedAt;
  return columns;
}

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

function toRecord(row: Selectable<HrProcessesTable>): ProcessRecord {
  return {
    pk: row.pk,
    id: row.id,
    reference: row.reference,
    title: row.title,
    publicTitle: row.public_title,
    description: row.description,
    employeeId: row.employee_id,
    creatorId: row.creator_id,
    processTemplateId: row.process_template_id,
    publicationDate: row.publication_date,
    dueDate: row.due_date,
    state: row.state,
    published: row.published === 1,
    employeeTasksCount: row.employee_tasks_count,
    companyTasksCount: row.company_tasks_count,
    doneEmployeeTasksCount: row.done_employee_tasks_count,
    doneCompanyTasksCount: row.done_company_tasks_count,
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Processes, their per-client counter, and the people they name. Every query takes the client first. */
export class ProcessesRepository extends HrRepository {
  private scoped(clientId: HrTenantId) {
    return this.tenant(clientId).selectFrom('hr_processes').selectAll();
  }

  async page(clientId: HrTenantId, f: ProcessQuery, request: PageRequest): Promise<Page<ProcessRecord>> {
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
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<ProcessRecord | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /**
   * The client's next process number. One upsert of the client's counter row: inside the caller's transaction it
   * locks the row until the commit, so concurrent creates get distinct, gap-free numbers on both dialects.
   */
  async nextNumber(clientId: HrTenantId): Promise<number> {
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

  async insert(clientId: HrTenantId, process: NewProcess): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_processes', {
        id: process.id,
        reference: process.reference,
        title: process.title,
        public_title: process.publicTitle,
        description: process.description,
        employee_id: process.employeeId,
        creator_id: process.creatorId,
        process_template_id: process.processTemplateId,
        publication_date: process.publicationDate,
        due_date: process.dueDate,
        state: process.state,
        published: process.published ? 1 : 0,
        employee_tasks_count: process.employeeTasksCount,
        company_tasks_count: process.companyTasksCount,
        done_employee_tasks_count: process.doneEmployeeTasksCount,
        done_company_tasks_count: process.doneCompanyTasksCount,
        completed_at: process.completedAt,
        created_at: process.createdAt,
        updated_at: process.updatedAt,
      })
      .execute();
  }

  async update(clientId: HrTenantId, id: string, values: ProcessChanges): Promise<void> {
    await this.tenant(clientId).updateTable('hr_processes').set(toColumns(values)).where('id', '=', id).execute();
  }

  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_processes').where('id', '=', id).execute();
  }

  async processTemplate(clientId: HrTenantId, id: string): Promise<ProcessTemplateRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_process_templates')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toProcessTemplateRecord(row) : undefined;
  }

  async taskTemplates(clientId: HrTenantId, processTemplateId: string): Promise<TaskTemplateRecord[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_task_templates')
      .selectAll()
      .where('process_template_id', '=', processTemplateId)
      .orderBy('pk')
      .execute();
    return rows.map(toTaskTemplateRecord);
  }

  /** The employee's id, by id or external id. */
  async employeeId(clientId: HrTenantId, by: { id: string } | { externalId: string }): Promise<string | undefined> {
    let q = this.tenant(clientId).selectFrom('hr_employees').select('id');
    q = 'id' in by ? q.where('id', '=', by.id) : q.where('external_id', '=', by.externalId);
    return (await q.executeTakeFirst())?.id;
  }

  /** The HR user's id, by id or external id. */
  async userId(clientId: HrTenantId, by: { id: string } | { externalId: string }): Promise<string | undefined> {
    let q = this.tenant(clientId).selectFrom('hr_users').select('id');
    q = 'id' in by ? q.where('id', '=', by.id) : q.where('external_id', '=', by.externalId);
    return (await q.executeTakeFirst())?.id;
  }
}
