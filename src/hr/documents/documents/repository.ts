import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { KeysetPosition, Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrEmployeesTable } from '../../core/employees/tables.js';
import { organizationSubtree } from '../../core/organizations/repository.js';
import { type DocumentTypeRecord, toDocumentTypeRecord } from '../document-types/repository.js';
import type { DocumentKind } from '../folders/tables.js';
import type { HrDocumentsTable } from './tables.js';

type StoredDocument = Selectable<HrDocumentsTable>;

/** A document's metadata value. */
export interface MetadataValue {
  code: string;
  value: string;
}

/** A document as the domain sees it, with what a response shows of its owner: its metadata decoded. */
export interface DocumentRecord {
  pk: number;
  kind: DocumentKind;
  id: string;
  employeeId: string | null;
  /** The owner's external id (null for company documents). */
  employeeExternalId: string | null;
  documentTypeId: string;
  title: string | null;
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
  pageCount: number | null;
  date: string | null;
  effectiveDate: string;
  metadata: MetadataValue[];
  externalReference: string | null;
  origin: string;
  originDetails: string | null;
  senderId: string | null;
  trashedAt: number | null;
  expiryDate: string | null;
  expirationDate: string | null;
  createdAt: number;
  updatedAt: number;
}

type DocumentWithOwnerRow = StoredDocument & { employee_external_id: string | null };

function toRecord(row: DocumentWithOwnerRow): DocumentRecord {
  return {
    pk: row.pk,
    kind: row.kind,
    id: row.id,
    employeeId: row.employee_id,
    employeeExternalId: row.employee_external_id,
    documentTypeId: row.document_type_id,
    title: row.title,
    filename: row.filename,
    sha256: row.sha256,
    size: row.size,
    contentType: row.content_type,
    pageCount: row.page_count,
    date: row.date,
    effectiveDate: row.effective_date,
    metadata: JSON.parse(row.metadata) as MetadataValue[],
    externalReference: row.external_reference,
    origin: row.origin,
    originDetails: row.origin_details,
    senderId: row.sender_id,
    trashedAt: row.trashed_at,
    expiryDate: row.expiry_date,
    expirationDate: row.expiration_date,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type NewDocument = Omit<DocumentRecord, 'pk' | 'kind' | 'employeeExternalId'>;

/** The columns of the values (Kysely leaves the undefined ones out of an update). */
function toColumns(values: Partial<NewDocument>) {
  return {
    id: values.id,
    employee_id: values.employeeId,
    document_type_id: values.documentTypeId,
    title: values.title,
    filename: values.filename,
    sha256: values.sha256,
    size: values.size,
    content_type: values.contentType,
    page_count: values.pageCount,
    date: values.date,
    effective_date: values.effectiveDate,
    metadata: values.metadata === undefined ? undefined : JSON.stringify(values.metadata),
    external_reference: values.externalReference,
    origin: values.origin,
    origin_details: values.originDetails,
    sender_id: values.senderId,
    trashed_at: values.trashedAt,
    expiry_date: values.expiryDate,
    expiration_date: values.expirationDate,
    created_at: values.createdAt,
    updated_at: values.updatedAt,
  };
}

/** A document with the organizations it is attached to (as its presenter takes it). */
export interface DocumentView {
  row: DocumentRecord;
  organizationIds: string[];
  expired: boolean;
}

/** Parsed, checked filters (the service turns the API's filters into this). */
export interface DocumentQuery {
  employeeId?: string;
  documentTypeId?: string;
  q?: string;
  trashed: boolean;
  externalReference?: string;
  organizationIds?: string[];
  employeeNumbers?: string[];
  organizationBelow?: string;
  dateSince?: string;
  dateUntil?: string;
  createdSince?: number;
  createdUntil?: number;
  origin?: string;
  /** true: only past retention; false: only within it. `today` is what "past" compares with. */
  expired: boolean;
  today: string;
  expirySince?: string;
  expiryUntil?: string;
  expirationUntil?: string;
}

type DocDb = Tables & { d: HrDocumentsTable; e: HrEmployeesTable };
type DocQuery = SelectQueryBuilder<DocDb, 'd' | 'e', DocumentWithOwnerRow>;

/** Lists are in upload order. */
/** In creation order. */
const ORDER: ListOrder = { tiebreak: 'd.pk' };

export class DocumentsRepository extends HrRepository {
  private scoped(clientId: HrTenantId, kind: DocumentKind): DocQuery {
    return this.tenant(clientId)
      .selectFrom('hr_documents as d')
      .leftJoin('hr_employees as e', (j) =>
        // tenant-by-hand: the employee is joined to the document's row, read through `Tenant`, by its own client.
        j.onRef('e.id', '=', 'd.employee_id').onRef('e.client_id', '=', 'd.client_id'),
      )
      .selectAll('d')
      .select('e.external_id as employee_external_id')
      .where('d.kind', '=', kind) as unknown as DocQuery;
  }

  private filtered(clientId: HrTenantId, kind: DocumentKind, f: DocumentQuery): DocQuery {
    let q = this.scoped(clientId, kind);
    const orgs = () =>
      this.tenant(clientId)
        .selectFrom('hr_document_organizations as o')
        .select('o.document_id')
        .where(sql<boolean>`o.document_id = d.id`);
    const regs = () =>
      this.tenant(clientId)
        .selectFrom('hr_employee_registrations as r')
        .select('r.employee_id')
        .where(sql<boolean>`r.employee_id = d.employee_id`);
    q = q.where('d.trashed_at', f.trashed ? 'is not' : 'is', null);
    q = f.expired
      ? q.where('d.expiry_date', '<', f.today)
      : q.where((eb) => eb.or([eb('d.expiry_date', 'is', null), eb('d.expiry_date', '>=', f.today)]));
    if (f.employeeId !== undefined) q = q.where('d.employee_id', '=', f.employeeId);
    if (f.documentTypeId !== undefined) q = q.where('d.document_type_id', '=', f.documentTypeId);
    if (f.externalReference !== undefined) q = q.where('d.external_reference', '=', f.externalReference);
    if (f.origin !== undefined) q = q.where('d.origin', '=', f.origin);
    if (f.dateSince !== undefined) q = q.where('d.effective_date', '>=', f.dateSince);
    if (f.dateUntil !== undefined) q = q.where('d.effective_date', '<=', f.dateUntil);
    if (f.createdSince !== undefined) q = q.where('d.created_at', '>=', f.createdSince);
    if (f.createdUntil !== undefined) q = q.where('d.created_at', '<=', f.createdUntil);
    if (f.expirySince !== undefined) q = q.where('d.expiry_date', '>=', f.expirySince);
    if (f.expiryUntil !== undefined) q = q.where('d.expiry_date', '<=', f.expiryUntil);
    if (f.expirationUntil !== undefined) q = q.where('d.expiration_date', '<=', f.expirationUntil);
    if (f.organizationIds?.length) {
      const ids = f.organizationIds;
      q = q.where((eb) => eb.exists(orgs().where('o.organization_id', 'in', ids)));
    }
    if (f.employeeNumbers?.length) {
      const numbers = f.employeeNumbers;
      q = q.where((eb) => eb.exists(regs().where('r.employee_number', 'in', numbers)));
    }
    if (f.organizationBelow !== undefined) {
      const root = f.organizationBelow;
      q = q.where((eb) =>
        eb.exists(orgs().where(sql<boolean>`o.organization_id in ${organizationSubtree(clientId, root)}`)),
      );
    }
    if (f.q !== undefined) {
      const text = f.q;
      q = q.where((eb) =>
        eb.or(
          kind === 'employee'
            ? [
                containsText(['d.title', 'd.filename', 'e.firstname', 'e.lastname'], text),
                eb.exists(regs().where(containsText(['r.employee_number'], text))),
              ]
            : [
                containsText(['d.title', 'd.filename'], text),
                eb.exists(orgs().where(containsText(['o.organization_id'], text))),
              ],
        ),
      );
    }
    return q;
  }

  async page(
    clientId: HrTenantId,
    kind: DocumentKind,
    filter: DocumentQuery,
    request: PageRequest,
  ): Promise<Page<DocumentRecord>> {
    const page = await listPage(this.filtered(clientId, kind, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  /**
   * The keyset position just before the `offset`-th matching row (0-based), for the reference's `page`
   * parameter; a position past the end when there are fewer rows.
   */
  async positionAt(
    clientId: HrTenantId,
    kind: DocumentKind,
    filter: DocumentQuery,
    offset: number,
  ): Promise<KeysetPosition> {
    const row = await this.filtered(clientId, kind, filter)
      .clearSelect()
      .select('d.pk')
      .orderBy('d.pk')
      .offset(offset - 1)
      .limit(1)
      .executeTakeFirst();
    return { keys: [row ? row.pk : Number.MAX_SAFE_INTEGER], direction: 'after', inclusive: false };
  }

  async find(clientId: HrTenantId, kind: DocumentKind, id: string): Promise<DocumentRecord | undefined> {
    const row = await this.scoped(clientId, kind).where('d.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The documents of the kind among `ids` (those that exist), in creation order. */
  async findMany(clientId: HrTenantId, kind: DocumentKind, ids: string[]): Promise<DocumentRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.scoped(clientId, kind).where('d.id', 'in', ids).orderBy('d.pk').execute();
    return rows.map(toRecord);
  }

  async organizations(clientId: HrTenantId, ids: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (ids.length === 0) return out;
    const rows = await this.tenant(clientId)
      .selectFrom('hr_document_organizations')
      .select(['document_id', 'organization_id'])
      .where('document_id', 'in', ids)
      .orderBy('organization_id')
      .execute();
    for (const r of rows) out.set(r.document_id, [...(out.get(r.document_id) ?? []), r.organization_id]);
    return out;
  }

  async insert(clientId: HrTenantId, kind: DocumentKind, doc: NewDocument, organizationIds: string[]): Promise<void> {
    await this.db
      .insertInto('hr_documents')
      .values({
        ...toColumns(doc),
        // The columns an insert requires, again with their types not partial.
        id: doc.id,
        document_type_id: doc.documentTypeId,
        filename: doc.filename,
        sha256: doc.sha256,
        size: doc.size,
        content_type: doc.contentType,
        effective_date: doc.effectiveDate,
        metadata: JSON.stringify(doc.metadata),
        origin: doc.origin,
        created_at: doc.createdAt,
        updated_at: doc.updatedAt,
        client_id: clientId,
        kind,
      })
      .execute();
    await this.setOrganizations(clientId, doc.id, organizationIds);
  }

  async update(clientId: HrTenantId, kind: DocumentKind, id: string, values: Partial<NewDocument>): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_documents')
      .set(toColumns(values))
      .where('kind', '=', kind)
      .where('id', '=', id)
      .execute();
  }

  async setOrganizations(clientId: HrTenantId, documentId: string, organizationIds: string[]): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_document_organizations').where('document_id', '=', documentId).execute();
    if (organizationIds.length) {
      await this.db
        .insertInto('hr_document_organizations')
        .values(
          organizationIds.map((organization_id) => ({ client_id: clientId, document_id: documentId, organization_id })),
        )
        .execute();
    }
  }

  /** Deletes the documents (their organization links go with them); answers the blobs they held. */
  async delete(clientId: HrTenantId, kind: DocumentKind, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.tenant(clientId)
      .deleteFrom('hr_documents')
      .where('kind', '=', kind)
      .where('id', 'in', ids)
      .returning('sha256')
      .execute();
    return rows.map((r) => r.sha256);
  }

  async trashedIds(clientId: HrTenantId, kind: DocumentKind, limit: number): Promise<string[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_documents')
      .select('id')
      .where('kind', '=', kind)
      .where('trashed_at', 'is not', null)
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Holds back every other transaction that checks one of this client's unique external references until this one
   * ends: a write to the client's row, which PostgreSQL locks until the commit (a non-key column, so inserts that
   * only reference the client are not held back). Without it two transactions could both find a reference free
   * and both take it. SQLite runs one writing transaction at a time already.
   */
  async lockExternalReferences(clientId: HrTenantId): Promise<void> {
    await this.db
      .updateTable('hr_clients')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', clientId)
      .execute();
  }

  async externalReferenceTaken(
    clientId: HrTenantId,
    kind: DocumentKind,
    reference: string,
    exceptId?: string,
  ): Promise<boolean> {
    let q = this.tenant(clientId)
      .selectFrom('hr_documents')
      .select('pk')
      .where('kind', '=', kind)
      .where('external_reference', '=', reference);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  }

  /** The employee (by id, else by external id) with its registrations, or undefined. */
  async employee(
    clientId: HrTenantId,
    by: { id: string } | { externalId: string },
  ): Promise<{ id: string; registrations: { organizationId: string; active: boolean }[] } | undefined> {
    let q = this.tenant(clientId).selectFrom('hr_employees').select('id');
    q = 'id' in by ? q.where('id', '=', by.id) : q.where('external_id', '=', by.externalId);
    const row = await q.executeTakeFirst();
    if (!row) return undefined;
    const registrations = await this.tenant(clientId)
      .selectFrom('hr_employee_registrations')
      .select(['organization_id', 'active'])
      .where('employee_id', '=', row.id)
      .execute();
    return {
      id: row.id,
      registrations: registrations.map((r) => ({ organizationId: r.organization_id, active: r.active === 1 })),
    };
  }

  async documentType(clientId: HrTenantId, kind: DocumentKind, id: string): Promise<DocumentTypeRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_document_types')
      .selectAll()
      .where('kind', '=', kind)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDocumentTypeRecord(row) : undefined;
  }

  /** The employee's custom field values (code → value), for perimeter filters. */
  async employeeCustomValues(clientId: HrTenantId, employeeId: string): Promise<Record<string, string>> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_employee_custom_values')
      .select(['custom_field_id', 'value'])
      .where('employee_id', '=', employeeId)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.custom_field_id, r.value]));
  }

  existingOrganizations(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }
}
