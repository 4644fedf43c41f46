import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { DocumentKind, HrFoldersTable } from './tables.js';

type FolderRow = Selectable<HrFoldersTable>;

export interface LocalizedLabel {
  language_code: string;
  value: string;
}

/** A folder as the domain sees it (its labels decoded). */
export interface FolderRecord {
  pk: number;
  id: string;
  parentFolderId: string | null;
  label: string;
  localizedLabels: LocalizedLabel[];
  createdAt: number;
}

function toRecord(row: FolderRow): FolderRecord {
  return {
    pk: row.pk,
    id: row.id,
    parentFolderId: row.parent_folder_id,
    label: row.label,
    localizedLabels: JSON.parse(row.localized_labels) as LocalizedLabel[],
    createdAt: row.created_at,
  };
}

export interface FolderFilter {
  q?: string;
  /** Only these ids (a parent's descendants or a child's ancestors, worked out by the service). */
  ids?: string[];
}

/** In creation order. */
const ORDER: ListOrder = { tiebreak: 'pk' };

export type NewFolder = Pick<FolderRecord, 'id' | 'parentFolderId' | 'label' | 'localizedLabels'>;

export class FoldersRepository extends HrRepository {
  private filtered(clientId: HrTenantId, kind: DocumentKind, filter: FolderFilter) {
    let q = this.tenant(clientId).selectFrom('hr_folders').selectAll().where('kind', '=', kind);
    if (filter.ids) q = filter.ids.length ? q.where('id', 'in', filter.ids) : q.where('pk', '<', 0);
    if (filter.q !== undefined) q = q.where(containsText(['label', 'id'], filter.q));
    return q;
  }

  async page(
    clientId: HrTenantId,
    kind: DocumentKind,
    filter: FolderFilter,
    request: PageRequest,
  ): Promise<Page<FolderRecord>> {
    const page = await listPage(this.filtered(clientId, kind, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, kind: DocumentKind, id: string): Promise<FolderRecord | undefined> {
    const row = await this.filtered(clientId, kind, {}).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every folder of the kind (a client has tens of them): the tree is walked in memory. */
  async all(clientId: HrTenantId, kind: DocumentKind): Promise<FolderRecord[]> {
    return (await this.filtered(clientId, kind, {}).orderBy('pk').execute()).map(toRecord);
  }

  /** Inserts the folders that do not exist yet (idempotent, safe under concurrency). */
  async insertMissing(clientId: HrTenantId, kind: DocumentKind, folders: NewFolder[], at: number): Promise<void> {
    if (folders.length === 0) return;
    await this.tenant(clientId)
      .insertInto(
        'hr_folders',
        folders.map((f) => ({
          id: f.id,
          parent_folder_id: f.parentFolderId,
          label: f.label,
          localized_labels: JSON.stringify(f.localizedLabels),
          kind,
          created_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(['client_id', 'kind', 'id']).doNothing())
      .execute();
  }
}
