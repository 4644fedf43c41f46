import type { Db } from '../../platform/db/database.js';
import type { HrTenantId } from '../../platform/db/tenant.js';
import type { TenantTime } from '../../platform/time.js';

/** The tenants' clocks, and the one write a clock moving forward makes elsewhere: the tenant's waiting jobs. */
export class TenantClocksRepository {
  constructor(readonly db: Db) {}

  /** Every tenant whose time is moved or frozen. */
  async all(): Promise<Map<string, TenantTime>> {
    const rows = await this.db.selectFrom('tenant_clocks').select(['tenant', 'offset_ms', 'frozen_at']).execute();
    return new Map(
      rows.map((r) => [
        r.tenant,
        { offsetMs: Number(r.offset_ms), frozenAt: r.frozen_at === null ? null : Number(r.frozen_at) },
      ]),
    );
  }

  async find(tenant: string): Promise<TenantTime | undefined> {
    const row = await this.db
      .selectFrom('tenant_clocks')
      .select(['offset_ms', 'frozen_at'])
      .where('tenant', '=', tenant)
      .executeTakeFirst();
    return row && { offsetMs: Number(row.offset_ms), frozenAt: row.frozen_at === null ? null : Number(row.frozen_at) };
  }

  async save(tenant: string, time: TenantTime, at: number): Promise<void> {
    const values = { offset_ms: time.offsetMs, frozen_at: time.frozenAt, updated_at: at };
    await this.db
      .insertInto('tenant_clocks')
      .values({ tenant, ...values })
      .onConflict((oc) => oc.column('tenant').doUpdateSet(values))
      .execute();
  }

  /** True when the tenant had a clock of its own. */
  async remove(tenant: string): Promise<boolean> {
    const result = await this.db.deleteFrom('tenant_clocks').where('tenant', '=', tenant).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The waiting background jobs of an HR client (webhook retries, imports), brought `byMs` nearer: the client's
   * time moved forward by that much, so what was due later in its time is due sooner. Their deadlines too.
   */
  async bringJobsForward(clientId: HrTenantId, byMs: number): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        run_at: eb('run_at', '-', byMs),
        give_up_at: eb('give_up_at', '-', byMs),
      }))
      .where('tenant', '=', clientId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
