import type { Db } from '../../platform/db/database.js';

/** An operator token, without its hash. */
export interface AdminTokenRecord {
  id: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

export class AdminTokensRepository {
  constructor(readonly db: Db) {}

  async insert(token: AdminTokenRecord, tokenHash: string): Promise<void> {
    await this.db
      .insertInto('admin_tokens')
      .values({
        id: token.id,
        name: token.name,
        token_hash: tokenHash,
        created_at: token.createdAt,
        revoked_at: token.revokedAt,
      })
      .execute();
  }

  /** The token with this hash, revoked or not. */
  async findByHash(tokenHash: string): Promise<(AdminTokenRecord & { tokenHash: string }) | undefined> {
    const row = await this.db
      .selectFrom('admin_tokens')
      .select(['id', 'name', 'token_hash', 'created_at', 'revoked_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? { ...toRecord(row), tokenHash: row.token_hash } : undefined;
  }

  async find(id: string): Promise<AdminTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('admin_tokens')
      .select(['id', 'name', 'created_at', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every token, oldest first, without hashes. */
  async list(): Promise<AdminTokenRecord[]> {
    const rows = await this.db
      .selectFrom('admin_tokens')
      .select(['id', 'name', 'created_at', 'revoked_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  /** Revokes a token that is not revoked yet; false when there is none such. */
  async revoke(id: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('admin_tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function toRecord(row: { id: string; name: string; created_at: number; revoked_at: number | null }): AdminTokenRecord {
  return {
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}
