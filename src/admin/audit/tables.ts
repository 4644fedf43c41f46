import type { Generated } from 'kysely';

/** One admin action: who (a token's name and id, or `cli`), what, on what, and its details (JSON, no secrets). */
export interface AdminAuditTable {
  seq: Generated<number>;
  at: number;
  actor: string;
  /** `admin_token.created`, `admin_token.revoked`… */
  action: string;
  /** The object acted on: a token id, `hr:<client_id>`, `academy:<acadId>`. */
  target: string | null;
  /** JSON. */
  detail: string;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    admin_audit: AdminAuditTable;
  }
}
