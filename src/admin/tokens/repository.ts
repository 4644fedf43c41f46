import type { Db } from '../../platform/db/database.js';

/** What a token may reach: some tenants only (null: every one), and whether it may change anything. */
export interface AdminTokenScope {
  /** `hr/<client_id>` and `academy/<acadId>`; null: every tenant, and the routes of no tenant. */
  tenants: string[] | null;
  readOnly: boolean;
}

/** An operator token, without its hash. */
export interface AdminTokenRecord extends AdminTokenScope {
  id: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
}

/** The columns a token record is read from (the sessions' join reads them too). */
export const TOKEN_COLUMNS = ['id', 'name', 'created_at', 'revoked_at', 'tenants', 'read_only'] as const;

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
        tenants: token.tenants === null ? null : JSON.stringify(token.tenants),
        read_only: token.readOnly ? 1 : 0,
      })
      .execute();
  }

  /** The token with this hash, revoked or not. */
  async findByHash(tokenHash: string): Promise<(AdminTokenRecord & { tokenHash: string }) | undefined> {
    const row = await this.db
      .selectFrom('admin_tokens')
      .select([...TOKEN_COLUMNS, 'token_hash'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? { ...toRecord(row), tokenHash: row.token_hash } : undefined;
  }

  async find(id: string): Promise<AdminTokenRecord | undefined> {
    const row = await this.db.selectFrom('admin_tokens').select(TOKEN_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every token, oldest first, without hashes. */
  async list(): Promise<AdminTokenRecord[]> {
    const rows = await this.db
      .selectFrom('admin_tokens')
      .select(TOKEN_COLUMNS)
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

/** A token's row as its record. */
export function toRecord(row: {
  id: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
  tenants: string | null;
  read_only: number;
}): AdminTokenRecord {
  return {
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    tenants: row.tenants === null ? null : (JSON.parse(row.tenants) as string[]),
    readOnly: Number(row.read_only) === 1,
  };
}
