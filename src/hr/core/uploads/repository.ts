import type { Selectable } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId } from '../../../platform/db/tenant.js';
import type { HrUploadsTable } from './tables.js';

/** A temporary file of one client. */
export interface UploadRecord {
  id: string;
  clientId: HrTenantId;
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

function toRecord(row: Selectable<HrUploadsTable>): UploadRecord {
  return {
    id: row.id,
    clientId: hrTenantId(row.client_id),
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    pageCount: row.page_count === null ? null : Number(row.page_count),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    consumedAt: row.consumed_at === null ? null : Number(row.consumed_at),
  };
}

/** Temporary uploads. Every query but the sweeper's takes the client first. */
export class UploadsRepository extends HrRepository {
  async insert(upload: UploadRecord): Promise<void> {
    await this.db
      .insertInto('hr_uploads')
      .values({
        id: upload.id,
        client_id: upload.clientId,
        filename: upload.filename,
        sha256: upload.sha256,
        size: upload.size,
        content_type: upload.contentType,
        page_count: upload.pageCount,
        created_at: upload.createdAt,
        expires_at: upload.expiresAt,
        consumed_at: upload.consumedAt,
      })
      .execute();
  }

  /** Records the page count of the client's upload (counted after its bytes were stored). */
  async setPageCount(clientId: HrTenantId, id: string, pageCount: number | null): Promise<void> {
    await this.tenant(clientId).updateTable('hr_uploads').set({ page_count: pageCount }).where('id', '=', id).execute();
  }

  async find(clientId: HrTenantId, id: string): Promise<UploadRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Marks the upload consumed if it is unconsumed and unexpired at `at`; returns it, or undefined. */
  async consume(clientId: HrTenantId, id: string, at: number): Promise<UploadRecord | undefined> {
    const row = await this.tenant(clientId)
      .updateTable('hr_uploads')
      .set({ consumed_at: at })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', at)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Uploads (of every client) whose expiry is at or before `at`. */
  async expired(at: number, limit: number): Promise<Pick<UploadRecord, 'id' | 'sha256' | 'consumedAt'>[]> {
    const rows = await this.db
      .selectFrom('hr_uploads')
      .select(['id', 'sha256', 'consumed_at'])
      .where('expires_at', '<=', at)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, sha256: row.sha256, consumedAt: row.consumed_at }));
  }

  /** Deletes the upload if it is still expired at `at`; returns the deleted row. */
  async deleteExpired(id: string, at: number): Promise<Pick<UploadRecord, 'sha256' | 'consumedAt'> | undefined> {
    const row = await this.db
      .deleteFrom('hr_uploads')
      .where('id', '=', id)
      .where('expires_at', '<=', at)
      .returning(['sha256', 'consumed_at'])
      .executeTakeFirst();
    return row ? { sha256: row.sha256, consumedAt: row.consumed_at } : undefined;
  }
}
