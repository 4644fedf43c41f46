import type { Kysely } from 'kysely';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * The richer fault rules (docs/admin.md, "Faults"): a rule's `seed` (null: unseeded), the number of calls a seeded
 * rule matched so far (the index of its next draw, shared by every process), and whether it applies before
 * authentication (1) or after (0, every existing rule).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('tenant_faults').addColumn('seed', 'bigint').execute();
  await db.schema
    .alterTable('tenant_faults')
    .addColumn('draw_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('tenant_faults')
    .addColumn('before_authentication', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
