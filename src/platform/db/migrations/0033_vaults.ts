import type { Kysely } from 'kysely';
import type { DialectName } from '../database.js';
import { textColumnsCollateC } from './0010_collation.js';

type AnyDb = Kysely<Record<string, unknown>>;

/**
 * Employees' electronic vault options and state, and their portal invitations (docs/hr-api.md, "Electronic
 * vaults"): one row per employee once something was written; an employee without a row has the defaults.
 */
export async function up(db: AnyDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('hr_electronic_vaults')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('hr_clients.id'))
    .addColumn('employee_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('electronic_vault_id', 'varchar(36)')
    .addColumn('subscription_enabled', 'integer', (c) => c.notNull())
    .addColumn('paper_enabled', 'integer', (c) => c.notNull())
    .addColumn('electronic_enabled', 'integer', (c) => c.notNull())
    .addColumn('payslips_opted_out', 'integer', (c) => c.notNull())
    .addColumn('payslips_choice_updated_at', 'bigint')
    .addColumn('payslips_choice_origin', 'varchar(16)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('invited_at', 'bigint')
    .addColumn('portal_invited_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('hr_electronic_vaults_pk', ['client_id', 'employee_id'])
    .execute();
  if (dialect === 'postgres') await textColumnsCollateC(db);
}
