import { formatDateTime } from '../../../platform/time.js';
import type { UploadRecord } from './repository.js';
import type { UploadDocument } from './schemas.js';

export function presentUpload(upload: UploadRecord, retentionSeconds: number): UploadDocument {
  return {
    id: upload.id,
    filename: upload.filename,
    content_type: upload.contentType,
    size: upload.size,
    page_count: upload.pageCount,
    creation_date: formatDateTime(upload.createdAt),
    expires_at: formatDateTime(upload.expiresAt),
    retention_period: retentionSeconds,
  };
}
