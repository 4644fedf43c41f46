import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import { countRows, type KeysetPosition, keysetPageAt, type Page, sortedKeyset } from '../../../platform/db/keyset.js';
import { containsText } from '../../../platform/db/search.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { WorkflowSort } from '../custom-statuses/repository.js';
import type { PaMacrosTable } from './tables.js';

export type MacroRow = Selectable<PaMacrosTable>;
export type MacroAttributes = Omit<PaMacrosTable, 'pk' | 'client_id' | 'id' | 'created_at' | 'updated_at'>;

export interface MacroFilter {
  q?: string;
}

type IdTable = 'pa_request_forms' | 'hr_roles' | 'pa_custom_statuses' | 'hr_users';

export class MacrosRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: MacrosRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new MacrosRepository(trx)));
  }

  private filtered(clientId: string, filter: MacroFilter) {
    let q = this.db.selectFrom('pa_macros as m').selectAll('m').where('m.client_id', '=', clientId);
    if (filter.q) q = q.where(containsText(['m.name', 'm.label', 'm.description'], filter.q));
    return q;
  }

  page(
    clientId: string,
    filter: MacroFilter,
    sort: readonly WorkflowSort[],
    limit: number,
    at: { position?: KeysetPosition; offset?: number },
  ): Promise<Page<MacroRow>> {
    const { order, keysOf } = sortedKeyset<MacroRow>(
      sort.map((k) => ({ column: `m.${k.field}`, direction: k.direction })),
      'm.pk',
    );
    return keysetPageAt(this.filtered(clientId, filter), order, keysOf, limit, at);
  }

  count(clientId: string, filter: MacroFilter): Promise<number> {
    return countRows(this.filtered(clientId, filter));
  }

  find(clientId: string, id: string): Promise<MacroRow | undefined> {
    return this.filtered(clientId, {}).where('m.id', '=', id).executeTakeFirst();
  }

  /** Every active macro of the client, oldest first (the candidates offered on a request). */
  active(clientId: string): Promise<MacroRow[]> {
    return this.filtered(clientId, {}).where('m.active', '=', 1).orderBy('m.pk').execute();
  }

  /** Which of these ids exist in the client's table (request forms, roles, custom statuses or users). */
  existing(clientId: string, table: IdTable, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, table, clientId, ids);
  }

  async insertIfAbsent(clientId: string, id: string, attrs: MacroAttributes, at: number): Promise<boolean> {
    const row = await this.db
      .insertInto('pa_macros')
      .values({ client_id: clientId, id, ...attrs, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(clientId: string, id: string, attrs: MacroAttributes, at: number): Promise<void> {
    await this.db
      .updateTable('pa_macros')
      .set({ ...attrs, updated_at: at })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }
}
