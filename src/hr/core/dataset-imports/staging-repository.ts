import { sql } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';

/** The key an import stages its values under (never a dataset's id: those are codes, without `~`). */
export function stagingKey(importId: string): string {
  return `~${importId}`;
}

/**
 * The rows of `hr_dataset_values` by values key, apart from any dataset: an import's staging, and the keys to
 * discard (`hr_dataset_value_discards`). docs/imports.md, "Dataset imports".
 */
export class DatasetStagingRepository extends HrRepository {
  /** How many of these value ids are stored under the key. */
  async countExisting(clientId: HrTenantId, valuesKey: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const row = await this.tenant(clientId)
      .selectFrom('hr_dataset_values as v')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('v.dataset_id', '=', valuesKey)
      .where('v.id', 'in', ids)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Deletes up to `limit` rows stored under the key; answers how many. */
  async deleteSome(clientId: HrTenantId, valuesKey: string, limit: number): Promise<number> {
    const t = this.tenant(clientId);
    const result = await t
      .deleteFrom('hr_dataset_values as v')
      .where(
        'v.pk',
        'in',
        t.selectFrom('hr_dataset_values as s').select('s.pk').where('s.dataset_id', '=', valuesKey).limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Lists the key to discard: owned by `importId` while that import stages under it (its rows are then kept until
   * the import ends), by no one (null) once nothing will use it.
   */
  async discard(clientId: HrTenantId, valuesKey: string, importId: string | null, at: number): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_dataset_value_discards', { values_key: valuesKey, import_id: importId, created_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'values_key']).doUpdateSet({ import_id: importId }))
      .execute();
  }

  /** Takes the key off the list: its rows are a dataset's values now, or all deleted. */
  async keep(clientId: HrTenantId, valuesKey: string): Promise<void> {
    await this.tenant(clientId)
      .deleteFrom('hr_dataset_value_discards as x')
      .where('x.values_key', '=', valuesKey)
      .execute();
  }

  /** The keys whose rows may be deleted now: owned by no import, or by one that has finished. */
  async discardable(clientId: HrTenantId): Promise<string[]> {
    const t = this.tenant(clientId);
    const rows = await t
      .selectFrom('hr_dataset_value_discards as x')
      .select('x.values_key')
      .where((eb) =>
        eb.or([
          eb('x.import_id', 'is', null),
          eb.exists(
            t
              .selectFrom('hr_dataset_imports as i')
              .select('i.pk')
              .where('i.id', '=', sql.ref<string>('x.import_id'))
              .where('i.status', '=', 'finished'),
          ),
        ]),
      )
      .orderBy('x.pk')
      .execute();
    return rows.map((r) => r.values_key);
  }
}
