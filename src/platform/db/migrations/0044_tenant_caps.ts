import { type Kysely, sql } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The per-tenant caps on work running at once (platform/db/tenant-cap.ts) count a client's imports, dataset imports
 * and campaigns not ended, before each new one: partial indexes of the open ones, so that the count reads those only,
 * however many ended before them.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index hr_imports_open on hr_imports (client_id) where status in ('created', 'in_progress')`.execute(
    db,
  );
  await sql`create index hr_dataset_imports_open on hr_dataset_imports (client_id) where status in ('queued', 'in_progress')`.execute(
    db,
  );
  await sql`create index hr_docgen_campaigns_open on hr_docgen_campaigns (client_id) where status in ('created', 'in_progress')`.execute(
    db,
  );
}
