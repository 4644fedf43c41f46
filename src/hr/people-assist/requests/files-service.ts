/** A request's stored files: attachments and form-field files, read (for downloads and previews) and deleted. */
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { ForbiddenError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { RequestFileRecord, RequestsRepository } from './repository.js';
import { type RequestsWork, recordRequest, viewOf } from './views.js';

/** A request's attachments (its own and its comments') and form-field files. */
export class RequestFilesService {
  private readonly repo: RequestsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RequestsWork>>,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.requests;
  }

  async file(
    clientId: HrTenantId,
    requestId: string,
    fileId: string,
    kind: 'attachment' | 'form_file',
  ): Promise<RequestFileRecord> {
    await viewOf(this.repo, clientId, requestId, false);
    const file = await this.repo.findFile(clientId, requestId, fileId);
    if (!file || file.kind !== kind) throw new NotFoundError(kind === 'attachment' ? 'attachment' : 'file', fileId);
    return file;
  }

  async commentAttachment(
    clientId: HrTenantId,
    requestId: string,
    commentId: string,
    attachmentId: string,
  ): Promise<RequestFileRecord> {
    await viewOf(this.repo, clientId, requestId, false);
    const file = await this.repo.findFile(clientId, requestId, attachmentId);
    if (!file || file.commentId !== commentId) throw new NotFoundError('attachment', attachmentId);
    return file;
  }

  async deleteFile(
    clientId: HrTenantId,
    requestId: string,
    fileId: string,
    kind: 'attachment' | 'form_file',
  ): Promise<void> {
    const sha = await this.work.run(async (tx) => {
      const repo = tx.requests;
      const locked = await repo.lock(clientId, requestId);
      if (!locked) throw new NotFoundError('request', requestId);
      const file = await repo.findFile(clientId, requestId, fileId);
      if (!file || file.kind !== kind) throw new NotFoundError(kind === 'attachment' ? 'attachment' : 'file', fileId);
      if (locked.status === 'archived') {
        throw new ForbiddenError('request_read_only', 'The request is archived; its files can no longer change.');
      }
      await repo.deleteFile(clientId, fileId);
      const at = this.clock.now();
      if (kind === 'attachment') await repo.bumpCounters(clientId, requestId, { attachments: -1 }, at);
      else await repo.update(clientId, requestId, { updatedAt: at });
      await recordRequest(clientId, tx, requestId, 'updated');
      return file.sha256;
    });
    await this.blobs.deleteIfUnreferenced(sha);
  }
}
