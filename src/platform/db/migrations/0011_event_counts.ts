import type { Kysely } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * An index that holds every column of the Academy event lists' filters (`status`, `dateStart`, `dateEnd`), so
 * counting the events a list matches (its `all` total) reads the index alone, never the events themselves:
 * at a million events the count went from reading every row to reading index entries (docs/PERFORMANCE.md).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('academy_events_filter')
    .on('academy_events')
    .columns(['academy_id', 'kind', 'canceled', 'auto_archive', 'end_at', 'start_at'])
    .execute();
}
