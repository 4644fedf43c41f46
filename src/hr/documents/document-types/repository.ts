import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import { type KeysetColumn, type KeysetPosition, keysetPage, type Page } from '../../../platform/db/keyset.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { DocumentKind } from '../folders/tables.js';
import type { HrDocumentTypesTable } from './tables.js';

export type DocumentTypeRow = Selectable<HrDocumentTypesTable>;
export type DocumentTypeValues = Pick<DocumentTypeRow, 'label' | 'localized_labels' | 'folder_id' | 'settings'>;

const ORDER: KeysetColumn[] = [{ column: 'pk', direction: 'asc' }];

export class DocumentTypesRepository {
  constructor(private readonly db: Db) {}

  private scoped(clientId: string, kind: DocumentKind) {
    return this.db
      .selectFrom('hr_document_types')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('kind', '=', kind);
  }

  /** A page of the types whose ids are given (undefined: every type of the kind). */
  page(
    clientId: string,
    kind: DocumentKind,
    ids: string[] | undefined,
    limit: number,
    position?: KeysetPosition,
  ): Promise<Page<DocumentTypeRow>> {
    let q = this.scoped(clientId, kind);
    if (ids) q = ids.length ? q.where('id', 'in', ids) : q.where('pk', '<', 0);
    return keysetPage(q, ORDER, (r) => [r.pk], limit, position);
  }

  /** Every type of the kind (a client has tens of them): list filters over JSON settings are applied in memory. */
  all(clientId: string, kind: DocumentKind): Promise<DocumentTypeRow[]> {
    return this.scoped(clientId, kind).orderBy('pk').execute();
  }

  find(clientId: string, kind: DocumentKind, id: string): Promise<DocumentTypeRow | undefined> {
    return this.scoped(clientId, kind).where('id', '=', id).executeTakeFirst();
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  async insertIfAbsent(
    clientId: string,
    kind: DocumentKind,
    id: string,
    values: DocumentTypeValues,
    at: number,
  ): Promise<boolean> {
    const row = await this.db
      .insertInto('hr_document_types')
      .values({ client_id: clientId, kind, id, ...values, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'kind', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(
    clientId: string,
    kind: DocumentKind,
    id: string,
    values: Omit<DocumentTypeValues, 'label'>,
    at: number,
  ): Promise<void> {
    await this.db
      .updateTable('hr_document_types')
      .set({ ...values, updated_at: at })
      .where('client_id', '=', clientId)
      .where('kind', '=', kind)
      .where('id', '=', id)
      .execute();
  }

  async folderExists(clientId: string, kind: DocumentKind, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('hr_folders')
      .select('pk')
      .where('client_id', '=', clientId)
      .where('kind', '=', kind)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  existingRoles(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }

  existingCustomFields(clientId: string, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_custom_fields', clientId, ids);
  }

  transaction<T>(work: (repo: DocumentTypesRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new DocumentTypesRepository(trx)));
  }
}
