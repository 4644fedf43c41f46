/** A tenant whose time is moved or frozen (migration 0024). No row: the tenant reads the installation's clock. */
export interface TenantClocksTable {
  /** `hr:<client_id>` or `academy:<acadId>`. */
  tenant: string;
  /** The tenant's time minus the installation's, in ms. */
  offset_ms: number;
  /** The instant the tenant's time stands still at; null while it flows. */
  frozen_at: number | null;
  updated_at: number;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    tenant_clocks: TenantClocksTable;
  }
}
