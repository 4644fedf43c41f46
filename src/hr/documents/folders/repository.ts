import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { type KeysetColumn, type KeysetPosition, keysetPage, type Page } from '../../../platform/db/keyset.js';
import { containsText } from '../../../platform/db/search.js';
import type { DocumentKind, HrFoldersTable } from './tables.js';

export type FolderRow = Selectable<HrFoldersTable>;

export interface FolderFilter {
  q?: string;
  /** Only these ids (a parent's descendants or a child's ancestors, worked out by the service). */
  ids?: string[];
}

const ORDER: KeysetColumn[] = [{ column: 'pk', direction: 'asc' }];

export type NewFolder = Pick<FolderRow, 'id' | 'parent_folder_id' | 'label' | 'localized_labels'>;

export class FoldersRepository {
  constructor(private readonly db: Db) {}

  private filtered(clientId: string, kind: DocumentKind, filter: FolderFilter) {
    let q = this.db.selectFrom('hr_folders').selectAll().where('client_id', '=', clientId).where('kind', '=', kind);
    if (filter.ids) q = filter.ids.length ? q.where('id', 'in', filter.ids) : q.where('pk', '<', 0);
    if (filter.q !== undefined) q = q.where(containsText(['label', 'id'], filter.q));
    return q;
  }

  page(
    clientId: string,
    kind: DocumentKind,
    filter: FolderFilter,
    limit: number,
    position?: KeysetPosition,
  ): Promise<Page<FolderRow>> {
    return keysetPage(this.filtered(clientId, kind, filter), ORDER, (r) => [r.pk], limit, position);
  }

  find(clientId: string, kind: DocumentKind, id: string): Promise<FolderRow | undefined> {
    return this.filtered(clientId, kind, {}).where('id', '=', id).executeTakeFirst();
  }

  /** Every folder of the kind (a client has tens of them): the tree is walked in memory. */
  all(clientId: string, kind: DocumentKind): Promise<FolderRow[]> {
    return this.filtered(clientId, kind, {}).orderBy('pk').execute();
  }

  /** Inserts the folders that do not exist yet (idempotent, safe under concurrency). */
  async insertMissing(clientId: string, kind: DocumentKind, folders: NewFolder[], at: number): Promise<void> {
    if (folders.length === 0) return;
    await this.db
      .insertInto('hr_folders')
      .values(folders.map((f) => ({ ...f, client_id: clientId, kind, created_at: at })))
      .onConflict((oc) => oc.columns(['client_id', 'kind', 'id']).doNothing())
      .execute();
  }
}
