import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import { countRows, type KeysetPosition, keysetPageAt, type Page, sortedKeyset } from '../../../platform/db/keyset.js';
import { containsText } from '../../../platform/db/search.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { PaCustomStatusesTable } from './tables.js';

export type CustomStatusRow = Selectable<PaCustomStatusesTable>;

export interface CustomStatusAttributes {
  name: string;
  is_active: number;
}

export interface CustomStatusFilter {
  q?: string;
}

export interface WorkflowSort {
  field: 'name' | 'created_at' | 'updated_at';
  direction: 'asc' | 'desc';
}

export class CustomStatusesRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: CustomStatusesRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new CustomStatusesRepository(trx)));
  }

  private filtered(clientId: string, filter: CustomStatusFilter) {
    let q = this.db.selectFrom('pa_custom_statuses as s').selectAll('s').where('s.client_id', '=', clientId);
    if (filter.q) q = q.where(containsText(['s.name'], filter.q));
    return q;
  }

  page(
    clientId: string,
    filter: CustomStatusFilter,
    sort: readonly WorkflowSort[],
    limit: number,
    at: { position?: KeysetPosition; offset?: number },
  ): Promise<Page<CustomStatusRow>> {
    const { order, keysOf } = sortedKeyset<CustomStatusRow>(
      sort.map((k) => ({ column: `s.${k.field}`, direction: k.direction })),
      's.pk',
    );
    return keysetPageAt(this.filtered(clientId, filter), order, keysOf, limit, at);
  }

  count(clientId: string, filter: CustomStatusFilter): Promise<number> {
    return countRows(this.filtered(clientId, filter));
  }

  find(clientId: string, id: string): Promise<CustomStatusRow | undefined> {
    return this.filtered(clientId, {}).where('s.id', '=', id).executeTakeFirst();
  }

  /** Which of these ids are custom statuses of the client. */
  existingIds(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'pa_custom_statuses', clientId, ids);
  }

  async insertIfAbsent(clientId: string, id: string, attrs: CustomStatusAttributes, at: number): Promise<boolean> {
    const row = await this.db
      .insertInto('pa_custom_statuses')
      .values({ client_id: clientId, id, ...attrs, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(clientId: string, id: string, attrs: CustomStatusAttributes, at: number): Promise<void> {
    await this.db
      .updateTable('pa_custom_statuses')
      .set({ ...attrs, updated_at: at })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }
}
