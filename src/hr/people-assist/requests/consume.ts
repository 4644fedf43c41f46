/** A request's files made from uploads: form-field files and attachments, consumed in the write's transaction. */
import { randomUUID } from 'node:crypto';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { FileAnswer } from '../../core/forms/rules.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { RequestsWork } from './views.js';

/** Consumes form-field files and attachments into the request's files; returns how many attachments. */
export async function consumeAll(
  uploads: UploadsService,
  clientId: HrTenantId,
  tx: RequestsWork,
  requestId: string,
  files: readonly FileAnswer[],
  attachmentUploads: readonly string[],
  at: number,
  commentId: string | null = null,
  attachmentField = 'attachment_upload_ids',
): Promise<{ attachments: number; ids: string[] }> {
  const repo = tx.requests;
  const ids: string[] = [];
  for (const f of files) {
    const upload = await uploads.consume(tx.uploads, clientId, f.uploadId, {
      field: f.path,
    });
    const id = randomUUID();
    await repo.insertFile({
      clientId,
      id,
      requestId,
      kind: 'form_file',
      commentId: null,
      fieldId: f.fieldId,
      filename: upload.filename,
      sha256: upload.sha256,
      size: upload.size,
      contentType: upload.contentType,
      createdAt: at,
    });
  }
  for (const [i, uploadId] of attachmentUploads.entries()) {
    const upload = await uploads.consume(tx.uploads, clientId, uploadId, {
      field: `${attachmentField}.${i}`,
    });
    const id = randomUUID();
    ids.push(id);
    await repo.insertFile({
      clientId,
      id,
      requestId,
      kind: 'attachment',
      commentId,
      fieldId: null,
      filename: upload.filename,
      sha256: upload.sha256,
      size: upload.size,
      contentType: upload.contentType,
      createdAt: at,
    });
  }
  return { attachments: attachmentUploads.length, ids };
}
