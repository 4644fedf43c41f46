import type { Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { LocalizedLabel } from '../folders/repository.js';
import type { DocumentKind } from '../folders/tables.js';
import type { DocumentTypeAttributes } from './schemas.js';
import type { HrDocumentTypesTable } from './tables.js';

type DocumentTypeRow = Selectable<HrDocumentTypesTable>;

/** What a type stores besides its id, label, labels and folder (the `settings` JSON). */
export type DocumentTypeSettings = Omit<DocumentTypeAttributes, 'label' | 'localized_labels' | 'folder_id'>;

/** A document type as the domain sees it: its labels and settings decoded. */
export interface DocumentTypeRecord {
  pk: number;
  id: string;
  label: string;
  localizedLabels: LocalizedLabel[];
  folderId: string;
  settings: DocumentTypeSettings;
  createdAt: number;
  updatedAt: number;
}

export type DocumentTypeValues = Pick<DocumentTypeRecord, 'label' | 'localizedLabels' | 'folderId' | 'settings'>;

/** A stored type row as a record (also for the documents repository, which reads types with documents). */
export function toDocumentTypeRecord(row: DocumentTypeRow): DocumentTypeRecord {
  return {
    pk: row.pk,
    id: row.id,
    label: row.label,
    localizedLabels: JSON.parse(row.localized_labels) as LocalizedLabel[],
    folderId: row.folder_id,
    settings: JSON.parse(row.settings) as DocumentTypeSettings,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(values: Omit<DocumentTypeValues, 'label'>) {
  return {
    folder_id: values.folderId,
    localized_labels: JSON.stringify(values.localizedLabels),
    settings: JSON.stringify(values.settings),
  };
}

/** In creation order. */
const ORDER: ListOrder = { tiebreak: 'pk' };

export class DocumentTypesRepository extends HrRepository {
  private scoped(clientId: HrTenantId, kind: DocumentKind) {
    return this.tenant(clientId).selectFrom('hr_document_types').selectAll().where('kind', '=', kind);
  }

  /** A page of the types whose ids are given (undefined: every type of the kind). */
  async page(
    clientId: HrTenantId,
    kind: DocumentKind,
    ids: string[] | undefined,
    request: PageRequest,
  ): Promise<Page<DocumentTypeRecord>> {
    let q = this.scoped(clientId, kind);
    if (ids) q = ids.length ? q.where('id', 'in', ids) : q.where('pk', '<', 0);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(toDocumentTypeRecord) };
  }

  /** Every type of the kind (a client has tens of them): list filters over JSON settings are applied in memory. */
  async all(clientId: HrTenantId, kind: DocumentKind): Promise<DocumentTypeRecord[]> {
    return (await this.scoped(clientId, kind).orderBy('pk').execute()).map(toDocumentTypeRecord);
  }

  async find(clientId: HrTenantId, kind: DocumentKind, id: string): Promise<DocumentTypeRecord | undefined> {
    const row = await this.scoped(clientId, kind).where('id', '=', id).executeTakeFirst();
    return row ? toDocumentTypeRecord(row) : undefined;
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  insertIfAbsent(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    values: DocumentTypeValues,
    at: number,
  ): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent(
      'hr_document_types',
      {
        kind,
        id,
        label: values.label,
        ...toColumns(values),
        created_at: at,
        updated_at: at,
      },
      ['client_id', 'kind', 'id'],
    );
  }

  async update(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    values: Omit<DocumentTypeValues, 'label'>,
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_document_types')
      .set({ ...toColumns(values), updated_at: at })
      .where('kind', '=', kind)
      .where('id', '=', id)
      .execute();
  }

  async folderExists(clientId: HrTenantId, kind: DocumentKind, id: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_folders')
      .select('pk')
      .where('kind', '=', kind)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  existingRoles(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }

  existingCustomFields(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_custom_fields', clientId, ids);
  }
}

/** A type as the documents service needs it (and as its presenter takes it). */
export interface DocumentTypeView {
  row: DocumentTypeRecord;
  settings: DocumentTypeSettings;
}
