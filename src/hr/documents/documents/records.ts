/**
 * What the documents' services share: a document's row by id, its views (with its organizations and whether it
 * has expired), a page of their fixed order, and the audit record of a write.
 */
import type { KeysetPosition } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { NotFoundError } from '../../../platform/errors.js';
import { type Clock, dayOf } from '../../../platform/time.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { Audited } from '../../module.js';
import type { DocumentKind } from '../folders/tables.js';
import { documentEvents } from './events.js';
import { presentDocument } from './present.js';
import type { DocumentRecord, DocumentsRepository, DocumentView } from './repository.js';

/** The repositories document writes touch: the documents and the uploads they are made from. */
export interface DocumentsWork {
  documents: DocumentsRepository;
  uploads: UploadsRepository;
}

/** A page of the documents' fixed order (creation), of `limit` rows from `position`. */
export function pageAt(limit: number, position?: KeysetPosition): PageRequest {
  return { limit, sort: [], at: position ? { position } : {} };
}

export async function documentViews(
  clock: Clock,
  repo: DocumentsRepository,
  clientId: HrTenantId,
  rows: DocumentRecord[],
): Promise<DocumentView[]> {
  const orgs = await repo.organizations(
    clientId,
    rows.map((r) => r.id),
  );
  const today = dayOf(clock.now());
  return rows.map((row) => ({
    row,
    organizationIds: orgs.get(row.id) ?? [],
    expired: row.expiryDate !== null && row.expiryDate < today,
  }));
}

export async function documentRow(
  repo: DocumentsRepository,
  clientId: HrTenantId,
  kind: DocumentKind,
  id: string,
): Promise<DocumentRecord> {
  const row = await repo.find(clientId, kind, id);
  if (!row) throw new NotFoundError(`${kind} document`, id);
  return row;
}

/**
 * Records the audit event of a write to the document, in the write's transaction: the document as GET presents
 * it, read through the transaction's repositories (after the write; before it, for a deletion).
 */
export async function recordDocuments(
  clock: Clock,
  { documents: repo, audit }: Audited<DocumentsWork>,
  clientId: HrTenantId,
  kind: DocumentKind,
  action: (typeof documentEvents)[DocumentKind]['actions'][number],
  rows: DocumentRecord[],
): Promise<void> {
  for (const view of await documentViews(clock, repo, clientId, rows)) {
    await audit.record(clientId, documentEvents[kind], action, {
      id: view.row.id,
      name: view.row.filename,
      data: presentDocument(view),
    });
  }
}
