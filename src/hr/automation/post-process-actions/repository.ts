import type { Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrProcessPostActionsTable, PostProcessActionType } from './tables.js';

/** A post-process action as the domain sees it. */
export interface PostProcessActionRecord {
  id: string;
  processId: string;
  type: PostProcessActionType;
  ids: string[];
  deliveredAt: number | null;
  createdAt: number;
}

function toRecord(row: Selectable<HrProcessPostActionsTable>): PostProcessActionRecord {
  return {
    id: row.id,
    processId: row.process_id,
    type: row.type,
    ids: JSON.parse(row.ids) as string[],
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    createdAt: Number(row.created_at),
  };
}

/** Post-process actions of processes, and the few facts of a process they need. Every query takes the client. */
export class PostProcessActionsRepository extends HrRepository {
  /** The process's state and what its inbox items are titled with; undefined when it is not the client's. */
  async process(
    clientId: HrTenantId,
    id: string,
  ): Promise<{ id: string; state: string; title: string; reference: string } | undefined> {
    return this.tenant(clientId)
      .selectFrom('hr_processes')
      .select(['id', 'state', 'title', 'reference'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async ofProcess(clientId: HrTenantId, processId: string): Promise<PostProcessActionRecord[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_process_post_actions')
      .selectAll()
      .where('process_id', '=', processId)
      .orderBy('pk')
      .execute();
    return rows.map(toRecord);
  }

  async insert(clientId: HrTenantId, action: Omit<PostProcessActionRecord, 'deliveredAt'>): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_process_post_actions', {
        id: action.id,
        process_id: action.processId,
        type: action.type,
        ids: JSON.stringify(action.ids),
        delivered_at: null,
        created_at: action.createdAt,
      })
      .execute();
  }

  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_process_post_actions').where('id', '=', id).execute();
  }

  async deleteOfProcess(clientId: HrTenantId, processId: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_process_post_actions').where('process_id', '=', processId).execute();
  }

  async markDelivered(clientId: HrTenantId, id: string, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_process_post_actions')
      .set({ delivered_at: at })
      .where('id', '=', id)
      .execute();
  }

  existingUsers(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_users', clientId, ids);
  }
}
