import type { Kysely } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * A webhook counts its deliveries refused in a row (a private address: a permanent failure, not retried); at
 * `ATRIUM_WEBHOOK_DEACTIVATE_AFTER` it is made inactive (docs/hr-api.md, "Private addresses"). A delivery that
 * succeeds, or a `PUT` of the webhook, sets the count back to 0. Existing webhooks start at 0 (the default).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('hr_webhooks')
    .addColumn('refused_in_row', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
