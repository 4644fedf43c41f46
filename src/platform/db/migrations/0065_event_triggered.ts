import type { Kysely } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * An audit event fired by an operator (`POST /admin/v1/tenants/hr/{id}/events/trigger`, docs/admin.md, "Event
 * triggers") is marked `triggered` (1); every event a write recorded is 0, existing ones included (the default).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('hr_events')
    .addColumn('triggered', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
