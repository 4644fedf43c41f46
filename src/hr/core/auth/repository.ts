import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { AuthEventsTable, SigningKeysTable } from './tables.js';

/** A key that signs (or signed) access tokens; its secret as stored (sealed, or plain text from an earlier release). */
export interface SigningKeyRecord {
  kid: string;
  secret: string;
  createdAt: number;
  retiredAt: number | null;
}

/** An entry of the log every process polls to keep its auth caches current. */
export interface AuthEventRecord {
  seq: number;
  kind: AuthEventsTable['kind'];
  ref: string;
  expiresAt: number | null;
  createdAt: number;
}

function toSigningKeyRecord(row: Selectable<SigningKeysTable>): SigningKeyRecord {
  return {
    kid: row.kid,
    secret: row.secret,
    createdAt: Number(row.created_at),
    retiredAt: row.retired_at === null ? null : Number(row.retired_at),
  };
}

function toAuthEventRecord(row: Selectable<AuthEventsTable>): AuthEventRecord {
  return {
    seq: Number(row.seq),
    kind: row.kind,
    ref: row.ref,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}

/** Signing keys, revocations and the event log the auth caches follow. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  async signingKeys(): Promise<SigningKeyRecord[]> {
    const rows = await this.db.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute();
    return rows.map(toSigningKeyRecord);
  }

  async hasSigningKey(): Promise<boolean> {
    return (await this.db.selectFrom('signing_keys').select('kid').limit(1).executeTakeFirst()) !== undefined;
  }

  async insertSigningKey(key: SigningKeyRecord): Promise<void> {
    await this.db
      .insertInto('signing_keys')
      .values({ kid: key.kid, secret: key.secret, created_at: key.createdAt, retired_at: key.retiredAt })
      .execute();
  }

  /** Deletes every signing key (`rotate-signing-key --revoke-previous`, before the new key is inserted). */
  async deleteSigningKeys(): Promise<void> {
    await this.db.deleteFrom('signing_keys').execute();
  }

  /** Retires every current key at `at`; retired keys still verify the tokens they signed, for one token lifetime. */
  async retireSigningKeys(at: number): Promise<void> {
    await this.db.updateTable('signing_keys').set({ retired_at: at }).where('retired_at', 'is', null).execute();
  }

  async recordKeyRotation(kid: string, at: number): Promise<void> {
    await this.db
      .insertInto('auth_events')
      .values({ kind: 'signing_key_rotated', ref: kid, expires_at: null, created_at: at })
      .execute();
  }

  /** Replaces a key's stored secret if it still holds `from` (sealing a plain-text key); 1 if replaced, else 0. */
  async replaceSecret(kid: string, from: string, to: string): Promise<number> {
    const result = await this.db
      .updateTable('signing_keys')
      .set({ secret: to })
      .where('kid', '=', kid)
      .where('secret', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async recordTokenRevocation(jti: string, expiresAt: number, at: number): Promise<void> {
    await this.db
      .insertInto('auth_events')
      .values({ kind: 'token_revoked', ref: jti, expires_at: expiresAt, created_at: at })
      .execute();
  }

  /**
   * Events after `afterSeq`, plus every event of the last `windowMs`: on
   * PostgreSQL a lower sequence number can commit after a higher one, and the
   * window catches it. Handling an event twice is harmless.
   */
  async eventsSince(afterSeq: number, since: number): Promise<AuthEventRecord[]> {
    const rows = await this.db
      .selectFrom('auth_events')
      .selectAll()
      .where((eb) => eb.or([eb('seq', '>', afterSeq), eb('created_at', '>=', since)]))
      .orderBy('seq')
      .execute();
    return rows.map(toAuthEventRecord);
  }

  /** Revocations still relevant at start-up: unexpired token revocations and every application revocation. */
  async liveEvents(at: number): Promise<AuthEventRecord[]> {
    const rows = await this.db
      .selectFrom('auth_events')
      .selectAll()
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
      .orderBy('seq')
      .execute();
    return rows.map(toAuthEventRecord);
  }

  async lastSeq(): Promise<number> {
    const row = await this.db
      .selectFrom('auth_events')
      .select((eb) => eb.fn.max('seq').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }
}
