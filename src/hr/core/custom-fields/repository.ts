import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { type KeysetPosition, keysetPage, type Page } from '../../../platform/db/keyset.js';
import { prepared } from '../../../platform/db/prepared.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { HrCustomFieldsTable } from './tables.js';

export type CustomFieldRow = Selectable<HrCustomFieldsTable>;
export type CustomFieldValues = Omit<Insertable<HrCustomFieldsTable>, 'pk' | 'client_id' | 'id' | 'created_at'>;

/** Read on every employee view, so prepared once (src/platform/db/prepared.ts). */
const allFields = prepared((db: Db, p: { clientId: string }) =>
  db.selectFrom('hr_custom_fields').selectAll().where('client_id', '=', p.clientId).orderBy('pk'),
);

export class CustomFieldsRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: CustomFieldsRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new CustomFieldsRepository(trx)));
  }

  page(clientId: string, limit: number, position?: KeysetPosition): Promise<Page<CustomFieldRow>> {
    const base = this.db.selectFrom('hr_custom_fields as f').selectAll('f').where('f.client_id', '=', clientId);
    return keysetPage(base, [{ column: 'f.pk', direction: 'asc' }], (r) => [r.pk], limit, position);
  }

  find(clientId: string, id: string): Promise<CustomFieldRow | undefined> {
    return this.db
      .selectFrom('hr_custom_fields')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  all(clientId: string): Promise<CustomFieldRow[]> {
    return allFields.all(this.db, { clientId });
  }

  async insertIfAbsent(clientId: string, id: string, values: CustomFieldValues, at: number): Promise<boolean> {
    const row = await this.db
      .insertInto('hr_custom_fields')
      .values({ ...values, client_id: clientId, id, created_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(clientId: string, id: string, values: Partial<CustomFieldValues>): Promise<void> {
    await this.db
      .updateTable('hr_custom_fields')
      .set(values)
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }
}
