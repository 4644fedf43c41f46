import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface SigningKeysTable {
  kid: string;
  secret: string;
  created_at: number;
  retired_at: number | null;
}
/** Append-only log that every process polls to keep its auth caches current. */
export interface AuthEventsTable {
  seq: Generated<number>;
  kind: 'token_revoked' | 'application_revoked' | 'signing_key_rotated';
  ref: string;
  expires_at: number | null;
  created_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    signing_keys: SigningKeysTable;
    auth_events: AuthEventsTable;
  }
}
