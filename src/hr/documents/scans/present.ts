import { formatDateTime } from '../../../platform/time.js';
import type { ScanRecord } from './repository.js';
import type {
  AsyncUploadResponse,
  PendingDocumentFile,
  ScannedDocumentFile,
  ScanStatusBody,
  SyncUploadResponse,
} from './schemas.js';

/** Seconds a client should wait before asking again about a pending scan (`next_ping`, `nextPing`). */
export const NEXT_PING_SECONDS = 5;

type Final = ScannedDocumentFile['scan_status'];

/** `POST /document/upload`. */
export function presentScannedDocument(scan: ScanRecord): ScannedDocumentFile {
  return { filename: scan.filename, file_id: scan.fileId, scan_status: scan.status as Final };
}

/** `POST /document/upload/async`. */
export function presentPendingDocument(scan: ScanRecord): PendingDocumentFile {
  return { filename: scan.filename, file_id: scan.fileId, scan_id: scan.id };
}

/** `POST /file/upload/async`. */
export function presentAsyncUpload(scan: ScanRecord): AsyncUploadResponse {
  return {
    scan_id: scan.id,
    filename: scan.filename,
    sae_file_id: scan.fileId,
    scan_status: scan.status,
    next_ping: NEXT_PING_SECONDS,
  };
}

/** `POST /file/upload/sync`: everything for a clean file, only the verdict otherwise (reference §3c.1). */
export function presentSyncUpload(scan: ScanRecord, pageCount: number | null): SyncUploadResponse {
  if (scan.status !== 'clean') return { scan_id: scan.id, scan_status: scan.status as Final };
  return {
    id: scan.fileId,
    filename: scan.filename,
    expires_at: formatDateTime(scan.createdAt + scan.retentionPeriod * 1000),
    retention_period: String(scan.retentionPeriod),
    content_type: scan.contentType,
    page_count: pageCount,
    creation_date: formatDateTime(scan.createdAt),
    scan_id: scan.id,
    scan_status: 'clean',
  };
}

/** `GET /file/scan/{scan_id}/status`, and the body POSTed to `X-Callback-Url`. */
export function presentScanStatus(scan: ScanRecord): ScanStatusBody {
  return {
    scanId: scan.id,
    saeFileId: scan.fileId,
    status: scan.status,
    message: scan.message ?? 'The scan is in progress.',
    ...(scan.status === 'pending' ? { nextPing: NEXT_PING_SECONDS } : {}),
  };
}
