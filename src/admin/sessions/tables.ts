/** A console session (migration 0027; docs/admin.md, "Sessions"): the cookie's hash, never the cookie. */
export interface AdminSessionsTable {
  /** SHA-256 (hex) of the cookie's value. */
  id_hash: string;
  /** The operator token signed in with: revoking it ends its sessions. */
  token_id: string;
  created_at: number;
  /** Moved forward by use (at most once a minute): the idle timeout counts from it. */
  last_seen_at: number;
  /** The absolute end, whatever the use. */
  expires_at: number;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    admin_sessions: AdminSessionsTable;
  }
}
