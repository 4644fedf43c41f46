import type { Db } from '../../platform/db/database.js';
import { type AdminTokenRecord, toRecord } from '../tokens/repository.js';

/** A session as the domain sees it, with the operator token it was opened with. */
export interface AdminSessionRecord {
  idHash: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  token: AdminTokenRecord;
}

export class AdminSessionsRepository {
  constructor(readonly db: Db) {}

  async insert(row: { idHash: string; tokenId: string; at: number; expiresAt: number }): Promise<void> {
    await this.db
      .insertInto('admin_sessions')
      .values({
        id_hash: row.idHash,
        token_id: row.tokenId,
        created_at: row.at,
        last_seen_at: row.at,
        expires_at: row.expiresAt,
      })
      .execute();
  }

  /** The session of that cookie hash, with its token (revoked or not: the service decides). */
  async find(idHash: string): Promise<AdminSessionRecord | undefined> {
    const row = await this.db
      .selectFrom('admin_sessions as s')
      .innerJoin('admin_tokens as t', 't.id', 's.token_id')
      .select([
        's.id_hash',
        's.created_at',
        's.last_seen_at',
        's.expires_at',
        't.id',
        't.name',
        't.created_at as token_created_at',
        't.revoked_at',
        't.tenants',
        't.read_only',
      ])
      .where('s.id_hash', '=', idHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      idHash: row.id_hash,
      createdAt: Number(row.created_at),
      lastSeenAt: Number(row.last_seen_at),
      expiresAt: Number(row.expires_at),
      token: toRecord({ ...row, created_at: row.token_created_at }),
    };
  }

  async touch(idHash: string, at: number): Promise<void> {
    await this.db.updateTable('admin_sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
  }

  async delete(idHash: string): Promise<boolean> {
    const result = await this.db.deleteFrom('admin_sessions').where('id_hash', '=', idHash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes the sessions past their end or idle since before `idleSince`. */
  async sweep(at: number, idleSince: number): Promise<number> {
    const result = await this.db
      .deleteFrom('admin_sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', at), eb('last_seen_at', '<', idleSince)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
