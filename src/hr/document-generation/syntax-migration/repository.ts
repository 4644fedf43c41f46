import type { Selectable } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrDocgenMigrationsTable } from './tables.js';

export type MigrationState = HrDocgenMigrationsTable['status'];

/** A client's V1 → V2 syntax migration. */
export interface MigrationRecord {
  status: MigrationState;
  autoStart: boolean;
  runs: number;
  startedAt: number | null;
  endedAt: number | null;
  updatedAt: number;
}

/** What a client that never used the migration has. */
export const NOT_STARTED: MigrationRecord = {
  status: 'not_started',
  autoStart: false,
  runs: 0,
  startedAt: null,
  endedAt: null,
  updatedAt: 0,
};

function toRecord(row: Selectable<HrDocgenMigrationsTable>): MigrationRecord {
  return {
    status: row.status,
    autoStart: row.auto_start === 1,
    runs: Number(row.runs),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Each client's syntax migration: one row, made on first use (docs/hr-api.md, "Document generation"). */
export class MigrationsRepository extends HrRepository {
  async find(clientId: HrTenantId): Promise<MigrationRecord | undefined> {
    const row = await this.tenant(clientId).selectFrom('hr_docgen_migrations').selectAll().executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The client's row, made `not_started` when it has none. */
  async ensure(clientId: HrTenantId, at: number): Promise<MigrationRecord> {
    await this.tenant(clientId).insertIfAbsent(
      'hr_docgen_migrations',
      { status: 'not_started', auto_start: 0, runs: 0, updated_at: at },
      ['client_id'],
    );
    return (await this.find(clientId)) as MigrationRecord;
  }

  /** A new run: `in_progress`, its number taken; answers it. */
  async start(clientId: HrTenantId, at: number, autoStart: boolean | undefined): Promise<number> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_migrations')
      .set((eb) => ({
        status: 'in_progress',
        runs: eb('runs', '+', 1),
        started_at: at,
        ended_at: null,
        updated_at: at,
        ...(autoStart === undefined ? {} : { auto_start: autoStart ? 1 : 0 }),
      }))
      .execute();
    return ((await this.find(clientId)) as MigrationRecord).runs;
  }

  /** Run `run` ends; false when it is not the run in progress (a newer one, or already ended). */
  async finish(clientId: HrTenantId, run: number, status: 'completed' | 'failed', at: number): Promise<boolean> {
    const done = await this.tenant(clientId)
      .updateTable('hr_docgen_migrations')
      .set({ status, ended_at: at, updated_at: at })
      .where('runs', '=', run)
      .where('status', '=', 'in_progress')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }
}
