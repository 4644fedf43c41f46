/** The end of employee and company documents: trash, hard delete, expiry and expiration. */
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { KeysetPosition } from '../../../platform/db/keyset.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type Clock, dayOf } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { DocumentKind } from '../folders/tables.js';
import { APPLICATION, type DocumentActor, type DocumentPermissions, subjectOf } from './access.js';
import { type DocumentsWork, documentRow, documentViews, pageAt, recordDocuments } from './records.js';
import type { DocumentQuery, DocumentsRepository } from './repository.js';
import { policyExpiryDate } from './retention.js';

const EMPTY_TRASH_BATCH = 200;

/**
 * Trash, expiry and hard delete of employee and company documents (reference §3c.2, §3c.3). Their bytes are
 * blobs, removed once nothing refers to them.
 */
export class DocumentLifecycleService {
  private readonly repo: DocumentsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DocumentsWork>>,
    private readonly permissions: DocumentPermissions,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.documents;
  }

  async trash(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    trashed: boolean,
    actor: DocumentActor = APPLICATION,
  ): Promise<void> {
    await this.permissions.authorized(clientId, kind, id, actor, 'delete');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      const row = await documentRow(repo, clientId, kind, id);
      // Already where it was asked to be: nothing is written, so nothing is recorded.
      if ((row.trashedAt !== null) === trashed) return;
      const at = this.clock.now();
      await repo.update(clientId, kind, id, { trashedAt: trashed ? at : null, updatedAt: at });
      await recordDocuments(this.clock, tx, clientId, kind, trashed ? 'trashed' : 'restored', [
        await documentRow(repo, clientId, kind, id),
      ]);
    });
  }

  /** Hard delete, bypassing the trash; the bytes go once nothing else refers to them. */
  async delete(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    actor: DocumentActor = APPLICATION,
  ): Promise<void> {
    await this.permissions.authorized(clientId, kind, id, actor, 'delete');
    const blobs = await this.work.run(async (tx) => {
      const row = await documentRow(tx.documents, clientId, kind, id);
      await recordDocuments(this.clock, tx, clientId, kind, 'deleted', [row]);
      return tx.documents.delete(clientId, kind, [row.id]);
    });
    await this.release(blobs);
  }

  /**
   * Deletes those of the documents that are still in the trash, each with its `deleted` event, in one
   * transaction; answers the blobs they held (released by the caller once it is committed).
   */
  private deleteTrashed(clientId: HrTenantId, kind: DocumentKind, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.work.run(async (tx) => {
      const rows = (await tx.documents.findMany(clientId, kind, ids)).filter((r) => r.trashedAt !== null);
      await recordDocuments(this.clock, tx, clientId, kind, 'deleted', rows);
      return tx.documents.delete(
        clientId,
        kind,
        rows.map((r) => r.id),
      );
    });
  }

  /** Permanently deletes every trashed document of the kind; answers how many. */
  async emptyTrash(clientId: HrTenantId, kind: DocumentKind, actor: DocumentActor = APPLICATION): Promise<number> {
    await this.permissions.checkActor(clientId, actor);
    if (actor.kind === 'user') {
      // Only the trashed documents this user may delete.
      let total = 0;
      let position: KeysetPosition | undefined;
      const query: DocumentQuery = { trashed: true, expired: false, today: dayOf(this.clock.now()) };
      for (const expired of [false, true]) {
        position = undefined;
        for (;;) {
          const page = await this.repo.page(clientId, kind, { ...query, expired }, pageAt(EMPTY_TRASH_BATCH, position));
          const ids: string[] = [];
          for (const view of await documentViews(this.clock, this.repo, clientId, page.items)) {
            if (await this.permissions.may(clientId, actor, 'delete', subjectOf(view))) ids.push(view.row.id);
          }
          const blobs = await this.deleteTrashed(clientId, kind, ids);
          total += blobs.length;
          await this.release(blobs);
          if (!page.next) break;
          position = page.next;
        }
      }
      return total;
    }
    let total = 0;
    for (;;) {
      const ids = await this.repo.trashedIds(clientId, kind, EMPTY_TRASH_BATCH);
      if (ids.length === 0) return total;
      const blobs = await this.deleteTrashed(clientId, kind, ids);
      total += blobs.length;
      await this.release(blobs);
    }
  }

  private async release(blobs: string[]): Promise<void> {
    for (const sha256 of new Set(blobs)) await this.blobs.deleteIfUnreferenced(sha256);
  }

  /**
   * `PUT …/expire`: the end of the retention period (and, as the reference describes, the expiration date). `null`
   * falls back to the document type's expiry policy, as the reference says, computed anew from the document's
   * current type and metadata.
   */
  async expire(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    expiryDate: string | null,
    actor: DocumentActor = APPLICATION,
  ): Promise<void> {
    await this.permissions.authorized(clientId, kind, id, actor, 'update');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      const current = await documentRow(repo, clientId, kind, id);
      let expiry = expiryDate;
      if (expiry === null) {
        const type = await repo.documentType(clientId, kind, current.documentTypeId);
        expiry = type ? policyExpiryDate(type.settings, current.createdAt, current.metadata) : null;
      }
      await repo.update(clientId, kind, id, {
        expiryDate: expiry,
        expirationDate: expiryDate,
        updatedAt: this.clock.now(),
      });
      await recordDocuments(this.clock, tx, clientId, kind, 'expired', [await documentRow(repo, clientId, kind, id)]);
    });
  }

  /** `PUT …/expiration/update`: the end of validity. */
  async setExpiration(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    expirationDate: string | null,
    actor: DocumentActor = APPLICATION,
  ): Promise<void> {
    await this.permissions.authorized(clientId, kind, id, actor, 'update');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      await documentRow(repo, clientId, kind, id);
      await repo.update(clientId, kind, id, { expirationDate, updatedAt: this.clock.now() });
      await recordDocuments(this.clock, tx, clientId, kind, 'updated', [await documentRow(repo, clientId, kind, id)]);
    });
  }
}
