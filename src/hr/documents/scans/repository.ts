import type { Selectable } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrScansTable } from './tables.js';

export const SCAN_STATUSES = ['pending', 'clean', 'infected', 'failed'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

/** Which family of endpoints received the file. */
export type ScanSource = 'document' | 'file';

/** A scan as the domain sees it. */
export interface ScanRecord {
  id: string;
  fileId: string;
  source: ScanSource;
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
  status: ScanStatus;
  message: string | null;
  retentionPeriod: number;
  callbackUrl: string | null;
  createdAt: number;
  scannedAt: number | null;
}

function toRecord(row: Selectable<HrScansTable>): ScanRecord {
  return {
    id: row.id,
    fileId: row.file_id,
    source: row.source as ScanSource,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
    status: row.status as ScanStatus,
    message: row.message,
    retentionPeriod: Number(row.retention_period),
    callbackUrl: row.callback_url,
    createdAt: Number(row.created_at),
    scannedAt: row.scanned_at === null ? null : Number(row.scanned_at),
  };
}

/** Antivirus scans. Every query takes the client first. */
export class ScansRepository extends HrRepository {
  async insert(clientId: HrTenantId, scan: ScanRecord): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_scans', {
        id: scan.id,
        file_id: scan.fileId,
        source: scan.source,
        filename: scan.filename,
        sha256: scan.sha256,
        size: scan.size,
        content_type: scan.contentType,
        status: scan.status,
        message: scan.message,
        retention_period: scan.retentionPeriod,
        callback_url: scan.callbackUrl,
        created_at: scan.createdAt,
        scanned_at: scan.scannedAt,
      })
      .execute();
  }

  async find(clientId: HrTenantId, id: string): Promise<ScanRecord | undefined> {
    const row = await this.tenant(clientId).selectFrom('hr_scans').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Records the verdict of a pending scan; false when it is no longer pending (another run settled it). */
  async settle(
    clientId: HrTenantId,
    id: string,
    verdict: { status: Exclude<ScanStatus, 'pending'>; message: string },
    at: number,
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_scans')
      .set({ status: verdict.status, message: verdict.message, scanned_at: at })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
