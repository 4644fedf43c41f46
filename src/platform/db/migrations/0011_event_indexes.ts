import type { Kysely } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Two indexes found by the benchmarks (docs/PERFORMANCE.md):
 *
 * - `academy_events_filter` holds every column of the Academy event lists' filters (`status`, `dateStart`,
 *   `dateEnd`), so counting the events a list matches (its `all` total) reads the index alone, never the events.
 * - `academy_events_bundle_start` finds a bundle's last-starting event in one seek, which every addOffers and
 *   convertToBundle answers with; it used to sort the whole bundle.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('academy_events_filter')
    .on('academy_events')
    .columns(['academy_id', 'kind', 'canceled', 'auto_archive', 'end_at', 'start_at'])
    .execute();
  await db.schema
    .createIndex('academy_events_bundle_start')
    .on('academy_events')
    .columns(['bundle_id', 'start_at', 'id'])
    .execute();
}
