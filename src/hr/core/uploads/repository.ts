import type { Insertable, Selectable } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrUploadsTable } from './tables.js';

export type UploadRow = Selectable<HrUploadsTable>;

/** A temporary file of one client. */
export interface Upload {
  id: string;
  clientId: string;
  /** Sanitized: no path, no control characters. */
  filename: string;
  sha256: string;
  size: number;
  /** Sniffed from the bytes. */
  contentType: string;
  /** Pages of a PDF the library could read; null for any other file. */
  pageCount: number | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

function normalize(row: UploadRow): UploadRow {
  return {
    ...row,
    size: Number(row.size),
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
    consumed_at: row.consumed_at === null ? null : Number(row.consumed_at),
    page_count: row.page_count === null ? null : Number(row.page_count),
  };
}

/** Temporary uploads. Every query but the sweeper's takes the client first. */
export class UploadsRepository extends HrRepository {
  async insert(row: Insertable<HrUploadsTable>): Promise<void> {
    await this.db.insertInto('hr_uploads').values(row).execute();
  }

  /** Records the page count of the client's upload (counted after its bytes were stored). */
  async setPageCount(clientId: string, id: string, pageCount: number | null): Promise<void> {
    await this.tenant(clientId).updateTable('hr_uploads').set({ page_count: pageCount }).where('id', '=', id).execute();
  }

  async find(clientId: string, id: string): Promise<UploadRow | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? normalize(row) : undefined;
  }

  /** Marks the upload consumed if it is unconsumed and unexpired at `at`; returns it, or undefined. */
  async consume(clientId: string, id: string, at: number): Promise<UploadRow | undefined> {
    const row = await this.tenant(clientId)
      .updateTable('hr_uploads')
      .set({ consumed_at: at })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', at)
      .returningAll()
      .executeTakeFirst();
    return row ? normalize(row) : undefined;
  }

  /** Uploads (of every client) whose expiry is at or before `at`. */
  async expired(at: number, limit: number): Promise<Pick<UploadRow, 'id' | 'sha256' | 'consumed_at'>[]> {
    return this.db
      .selectFrom('hr_uploads')
      .select(['id', 'sha256', 'consumed_at'])
      .where('expires_at', '<=', at)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  /** Deletes the upload if it is still expired at `at`; returns the deleted row. */
  async deleteExpired(id: string, at: number): Promise<Pick<UploadRow, 'sha256' | 'consumed_at'> | undefined> {
    return this.db
      .deleteFrom('hr_uploads')
      .where('id', '=', id)
      .where('expires_at', '<=', at)
      .returning(['sha256', 'consumed_at'])
      .executeTakeFirst();
  }
}
