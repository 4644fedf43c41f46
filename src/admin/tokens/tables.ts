/** An operator's token for the admin API: its SHA-256 only, never the token itself. */
export interface AdminTokensTable {
  id: string;
  name: string;
  /** Hex SHA-256 of the token. */
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    admin_tokens: AdminTokensTable;
  }
}
