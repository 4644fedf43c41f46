import { type Kysely, sql } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * A bulk call's counts of settled items, kept on the call (`hr_bulk_operations`) by the transaction that settles
 * each item, so an import's live counts (`GET /imports/{id}`) and its end read one row instead of counting its
 * items (100,000 rows: 30–40 ms a read, docs/PERFORMANCE.md). Calls already stored get their counts from their
 * items.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const column of ['created_count', 'updated_count', 'failed_count']) {
    await db.schema
      .alterTable('hr_bulk_operations')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  const count = (condition: ReturnType<typeof sql>) => sql`(select count(*) from hr_bulk_items i
    where i.client_id = hr_bulk_operations.client_id and i.operation_id = hr_bulk_operations.id and ${condition})`;
  await sql`update hr_bulk_operations set
    created_count = ${count(sql`i.status = 'success' and i.outcome = 'created'`)},
    updated_count = ${count(sql`i.status = 'success' and i.outcome = 'updated'`)},
    failed_count = ${count(sql`i.status = 'failed'`)}`.execute(db);
}
