import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Wrong access codes given for a signer (docs/hr-api.md, "Electronic signature"): after 5 the signer is locked
 * until the sender reminds them. One row per signer that has failed at least once.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('hr_signer_code_attempts')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('signer_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_signer_code_attempts_pk', ['client_id', 'signer_id'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
