/** An operator's token for the admin API: its SHA-256 only, never the token itself. */
export interface AdminTokensTable {
  id: string;
  name: string;
  /** Hex SHA-256 of the token. */
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
  /** JSON array of the tenants (`hr/<client_id>`, `academy/<acadId>`) the token may see; null: every tenant. */
  tenants: string | null;
  /** 1: the token reads only (migration 0067). */
  read_only: number;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    admin_tokens: AdminTokensTable;
  }
}
