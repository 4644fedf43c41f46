import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { AuthEventsTable, SigningKeysTable } from './tables.js';

export type SigningKeyRow = Selectable<SigningKeysTable>;
export type AuthEventRow = Selectable<AuthEventsTable>;

/** Signing keys, revocations and the event log the auth caches follow. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  signingKeys(): Promise<SigningKeyRow[]> {
    return this.db.selectFrom('signing_keys').selectAll().orderBy('created_at').orderBy('kid').execute();
  }

  async hasSigningKey(): Promise<boolean> {
    return (await this.db.selectFrom('signing_keys').select('kid').limit(1).executeTakeFirst()) !== undefined;
  }

  async insertSigningKey(row: SigningKeyRow): Promise<void> {
    await this.db.insertInto('signing_keys').values(row).execute();
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
  eventsSince(afterSeq: number, since: number): Promise<AuthEventRow[]> {
    return this.db
      .selectFrom('auth_events')
      .selectAll()
      .where((eb) => eb.or([eb('seq', '>', afterSeq), eb('created_at', '>=', since)]))
      .orderBy('seq')
      .execute();
  }

  /** Revocations still relevant at start-up: unexpired token revocations and every application revocation. */
  liveEvents(at: number): Promise<AuthEventRow[]> {
    return this.db
      .selectFrom('auth_events')
      .selectAll()
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
      .orderBy('seq')
      .execute();
  }

  async lastSeq(): Promise<number> {
    const row = await this.db
      .selectFrom('auth_events')
      .select((eb) => eb.fn.max('seq').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }
}
