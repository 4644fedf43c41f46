import type { Db } from '../../platform/db/database.js';
import type { FaultEffect } from '../../platform/http/faults.js';
import type { TenantFaultsTable } from './tables.js';

/** A fault rule as the domain sees it. */
export interface FaultRecord {
  id: string;
  tenant: string;
  method: string | null;
  operationId: string | null;
  path: string | null;
  effect: FaultEffect;
  probability: number;
  remainingCount: number | null;
  until: number | null;
  appliedCount: number;
  createdAt: number;
  seed: number | null;
  beforeAuthentication: boolean;
}

const COLUMNS = [
  'id',
  'tenant',
  'method',
  'operation_id',
  'path',
  'effect',
  'probability',
  'remaining_count',
  'until',
  'applied_count',
  'created_at',
  'seed',
  'before_authentication',
] as const;

function toRecord(row: Omit<TenantFaultsTable, 'draw_count'>): FaultRecord {
  return {
    id: row.id,
    tenant: row.tenant,
    method: row.method,
    operationId: row.operation_id,
    path: row.path,
    effect: JSON.parse(row.effect) as FaultEffect,
    probability: Number(row.probability),
    remainingCount: row.remaining_count === null ? null : Number(row.remaining_count),
    until: row.until === null ? null : Number(row.until),
    appliedCount: Number(row.applied_count),
    createdAt: Number(row.created_at),
    seed: row.seed === null ? null : Number(row.seed),
    beforeAuthentication: Number(row.before_authentication) === 1,
  };
}

/** The fault rules: written by the admin API, read back by every process, spent by the tenant APIs' calls. */
export class TenantFaultsRepository {
  constructor(readonly db: Db) {}

  /** Every live rule of every tenant, oldest first (a counted rule with no use left is not live). */
  async all(): Promise<FaultRecord[]> {
    const rows = await this.db
      .selectFrom('tenant_faults')
      .select(COLUMNS)
      .where((eb) => eb.or([eb('remaining_count', 'is', null), eb('remaining_count', '>', 0)]))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  /** A tenant's rules, spent ones too, oldest first. */
  async list(tenant: string): Promise<FaultRecord[]> {
    const rows = await this.db
      .selectFrom('tenant_faults')
      .select(COLUMNS)
      .where('tenant', '=', tenant)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async find(tenant: string, id: string): Promise<FaultRecord | undefined> {
    const row = await this.db
      .selectFrom('tenant_faults')
      .select(COLUMNS)
      .where('tenant', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async count(tenant: string): Promise<number> {
    const row = await this.db
      .selectFrom('tenant_faults')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant', '=', tenant)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(fault: FaultRecord): Promise<void> {
    await this.db
      .insertInto('tenant_faults')
      .values({
        id: fault.id,
        tenant: fault.tenant,
        method: fault.method,
        operation_id: fault.operationId,
        path: fault.path,
        effect: JSON.stringify(fault.effect),
        probability: fault.probability,
        remaining_count: fault.remainingCount,
        until: fault.until,
        applied_count: 0,
        created_at: fault.createdAt,
        seed: fault.seed,
        draw_count: 0,
        before_authentication: fault.beforeAuthentication ? 1 : 0,
      })
      .execute();
  }

  /** Deletes one rule (`id`) or every rule of the tenant; answers how many. */
  async remove(tenant: string, id?: string): Promise<number> {
    let q = this.db.deleteFrom('tenant_faults').where('tenant', '=', tenant);
    if (id !== undefined) q = q.where('id', '=', id);
    return Number((await q.executeTakeFirst()).numDeletedRows);
  }

  /** Takes one use of a counted rule, unless none is left (another process may have taken the last). */
  async consume(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('tenant_faults')
      .set((eb) => ({
        remaining_count: eb('remaining_count', '-', 1),
        applied_count: eb('applied_count', '+', 1),
      }))
      .where('id', '=', id)
      .where('remaining_count', '>', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Takes the index of a seeded rule's next draw (0, 1…), one statement: undefined if the rule is gone. */
  async nextDraw(id: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('tenant_faults')
      .set((eb) => ({ draw_count: eb('draw_count', '+', 1) }))
      .where('id', '=', id)
      .returning('draw_count')
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.draw_count) - 1;
  }

  async applied(id: string, uses: number): Promise<void> {
    await this.db
      .updateTable('tenant_faults')
      .set((eb) => ({ applied_count: eb('applied_count', '+', uses) }))
      .where('id', '=', id)
      .execute();
  }
}
