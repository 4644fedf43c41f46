/** A fault rule of a tenant (migrations 0025, 0070; docs/admin.md, "Faults"). */
export interface TenantFaultsTable {
  id: string;
  /** `hr:<client_id>` or `academy:<acadId>`. */
  tenant: string;
  method: string | null;
  operation_id: string | null;
  /** The path pattern as given (`/employees/*`). */
  path: string | null;
  /** JSON: the effect as given. */
  effect: string;
  probability: number;
  remaining_count: number | null;
  /** The tenant's instant (epoch ms) the rule stops at. */
  until: number | null;
  applied_count: number;
  created_at: number;
  /** Null: unseeded. */
  seed: number | null;
  /** How many calls a seeded rule matched: the index of its next draw. */
  draw_count: number;
  /** 1: applies before the credentials are checked. */
  before_authentication: number;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    tenant_faults: TenantFaultsTable;
  }
}
