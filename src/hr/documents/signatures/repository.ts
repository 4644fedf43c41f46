import { type Selectable, sql } from 'kysely';
import { type ClientKeyedTable, existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listCount, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { organizationSubtree } from '../../core/organizations/repository.js';
import type { ProcessSortField } from './schemas.js';
import type { HrSignatureProcessesTable, HrSignersTable } from './tables.js';

export interface MetadataValue {
  code: string;
  value: string;
}

/** A signature process as the domain sees it. */
export interface ProcessRecord {
  pk: number;
  id: string;
  signatureTypeId: string;
  title: string;
  reason: string;
  location: string;
  expiryDate: string | null;
  expiresAt: number | null;
  notifyOnSignature: boolean;
  notifyOnRefusal: boolean;
  documentTypeId: string | null;
  documentMetadata: MetadataValue[];
  documentDate: string | null;
  cancellationComment: string | null;
  fileNumber: string;
  message: string | null;
  notifyEmployeeIds: string[];
  externalId: string | null;
  autoSend: string;
  callbackUrl: string | null;
  state: string;
  senderId: string | null;
  filename: string;
  sha256: string;
  size: number;
  pageCount: number;
  signedSha256: string | null;
  signedSize: number | null;
  archivedDocumentId: string | null;
  signingStartedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The attributes a client sets on a process. */
export type ProcessAttributes = Pick<
  ProcessRecord,
  | 'signatureTypeId'
  | 'title'
  | 'reason'
  | 'location'
  | 'expiryDate'
  | 'notifyOnSignature'
  | 'notifyOnRefusal'
  | 'documentTypeId'
  | 'documentMetadata'
  | 'documentDate'
  | 'cancellationComment'
  | 'message'
  | 'notifyEmployeeIds'
  | 'externalId'
  | 'autoSend'
  | 'callbackUrl'
  | 'senderId'
>;

/** What changes with a process's state. */
export type ProcessStateChange = Partial<
  Pick<
    ProcessRecord,
    | 'state'
    | 'expiryDate'
    | 'expiresAt'
    | 'cancellationComment'
    | 'signedSha256'
    | 'signedSize'
    | 'archivedDocumentId'
    | 'signingStartedAt'
  >
>;

/** A signer as the domain sees it. */
export interface SignerRecord {
  pk: number;
  id: string;
  processId: string;
  firstName: string;
  lastName: string;
  type: string;
  signaturePositions: SignaturePosition[];
  userId: string | null;
  employeeId: string | null;
  language: string | null;
  emailAddress: string | null;
  mobilePhoneNumber: string | null;
  signingOrder: number;
  accessCodeHash: string | null;
  smsNotification: boolean;
  twoFactorAuth: { sms: boolean; email: boolean } | null;
  message: string | null;
  sendSignedDocument: boolean;
  state: string;
  signedAt: number | null;
  signatureName: string | null;
  refusalComment: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface SignaturePosition {
  page: number;
  unit: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export type SignerAttributes = Omit<
  SignerRecord,
  'pk' | 'id' | 'processId' | 'state' | 'signedAt' | 'signatureName' | 'refusalComment' | 'createdAt' | 'updatedAt'
>;

export interface ProcessFilter {
  employeeId?: string | undefined;
  q?: string | undefined;
  organizationIds?: string[] | undefined;
  organizationBelow?: string | undefined;
  createdSince?: number | undefined;
  createdUntil?: number | undefined;
  states?: string[] | undefined;
  /** The client's current time: a `signing` process past its expiry counts as `expired`. */
  now: number;
}

const ORDER: ListOrder<ProcessSortField> = {
  fields: { created_at: 'p.created_at', expiry_date: 'p.expires_at', title: 'p.title' },
  tiebreak: 'p.pk',
};

type ProcessRow = Selectable<HrSignatureProcessesTable>;
type SignerRow = Selectable<HrSignersTable>;

function toProcess(row: ProcessRow): ProcessRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    signatureTypeId: row.signature_type_id,
    title: row.title,
    reason: row.reason,
    location: row.location,
    expiryDate: row.expiry_date,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    notifyOnSignature: row.notify_on_signature === 1,
    notifyOnRefusal: row.notify_on_refusal === 1,
    documentTypeId: row.document_type_id,
    documentMetadata: JSON.parse(row.document_metadata) as MetadataValue[],
    documentDate: row.document_date,
    cancellationComment: row.cancellation_comment,
    fileNumber: row.file_number,
    message: row.message,
    notifyEmployeeIds: JSON.parse(row.notify_employee_ids) as string[],
    externalId: row.external_id,
    autoSend: row.auto_send,
    callbackUrl: row.callback_url,
    state: row.state,
    senderId: row.sender_id,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    pageCount: Number(row.page_count),
    signedSha256: row.signed_sha256,
    signedSize: row.signed_size === null ? null : Number(row.signed_size),
    archivedDocumentId: row.archived_document_id,
    signingStartedAt: row.signing_started_at === null ? null : Number(row.signing_started_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toSigner(row: SignerRow): SignerRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    processId: row.signature_process_id,
    firstName: row.first_name,
    lastName: row.last_name,
    type: row.type,
    signaturePositions: JSON.parse(row.signature_positions) as SignaturePosition[],
    userId: row.user_id,
    employeeId: row.employee_id,
    language: row.language,
    emailAddress: row.email_address,
    mobilePhoneNumber: row.mobile_phone_number,
    signingOrder: Number(row.signing_order),
    accessCodeHash: row.access_code_hash,
    smsNotification: row.sms_notification === 1,
    twoFactorAuth:
      row.two_factor_auth === null ? null : (JSON.parse(row.two_factor_auth) as SignerRecord['twoFactorAuth']),
    message: row.message,
    sendSignedDocument: row.send_signed_document === 1,
    state: row.state,
    signedAt: row.signed_at === null ? null : Number(row.signed_at),
    signatureName: row.signature_name,
    refusalComment: row.refusal_comment,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function processColumns(attrs: ProcessAttributes) {
  return {
    signature_type_id: attrs.signatureTypeId,
    title: attrs.title,
    reason: attrs.reason,
    location: attrs.location,
    expiry_date: attrs.expiryDate,
    notify_on_signature: attrs.notifyOnSignature ? 1 : 0,
    notify_on_refusal: attrs.notifyOnRefusal ? 1 : 0,
    document_type_id: attrs.documentTypeId,
    document_metadata: JSON.stringify(attrs.documentMetadata),
    document_date: attrs.documentDate,
    cancellation_comment: attrs.cancellationComment,
    message: attrs.message,
    notify_employee_ids: JSON.stringify(attrs.notifyEmployeeIds),
    external_id: attrs.externalId,
    auto_send: attrs.autoSend,
    callback_url: attrs.callbackUrl,
    sender_id: attrs.senderId,
  };
}

function signerColumns(attrs: SignerAttributes) {
  return {
    first_name: attrs.firstName,
    last_name: attrs.lastName,
    type: attrs.type,
    signature_positions: JSON.stringify(attrs.signaturePositions),
    user_id: attrs.userId,
    employee_id: attrs.employeeId,
    language: attrs.language,
    email_address: attrs.emailAddress,
    mobile_phone_number: attrs.mobilePhoneNumber,
    signing_order: attrs.signingOrder,
    access_code_hash: attrs.accessCodeHash,
    sms_notification: attrs.smsNotification ? 1 : 0,
    two_factor_auth: attrs.twoFactorAuth === null ? null : JSON.stringify(attrs.twoFactorAuth),
    message: attrs.message,
    send_signed_document: attrs.sendSignedDocument ? 1 : 0,
  };
}

/** Signature processes, their organizations and their signers (reference §5.4). */
export class SignaturesRepository extends HrRepository {
  private filtered(clientId: HrTenantId, filter: ProcessFilter) {
    let q = this.tenant(clientId).selectFrom('hr_signature_processes as p').selectAll('p');
    const signers = () =>
      this.tenant(clientId)
        .selectFrom('hr_signers as s')
        .select('s.id')
        .where(sql<boolean>`s.signature_process_id = p.id`);
    if (filter.employeeId !== undefined) {
      const employee = filter.employeeId;
      q = q.where(({ exists }) => exists(signers().where('s.employee_id', '=', employee)));
    }
    if (filter.q !== undefined) {
      const text = filter.q;
      q = q.where((eb) =>
        eb.or([
          containsText(['p.title', 'p.file_number'], text),
          eb.exists(signers().where(containsText(['s.first_name', 's.last_name'], text))),
        ]),
      );
    }
    const organizations = () =>
      this.tenant(clientId)
        .selectFrom('hr_signature_process_organizations as o')
        .select('o.organization_id')
        .where(sql<boolean>`o.signature_process_id = p.id`);
    if (filter.organizationIds !== undefined) {
      const ids = filter.organizationIds;
      q = q.where(({ exists }) => exists(organizations().where('o.organization_id', 'in', ids)));
    }
    if (filter.organizationBelow !== undefined) {
      const below = organizationSubtree(clientId, filter.organizationBelow);
      q = q.where(({ exists }) => exists(organizations().where(sql<boolean>`o.organization_id in ${below}`)));
    }
    if (filter.createdSince !== undefined) q = q.where('p.created_at', '>=', filter.createdSince);
    if (filter.createdUntil !== undefined) q = q.where('p.created_at', '<', filter.createdUntil);
    if (filter.states !== undefined) {
      const states = filter.states;
      const at = filter.now;
      // A signing process past its expiry is `expired` (the runner writes it a moment later).
      q = q.where((eb) => {
        const running = eb.and([eb('p.state', '=', 'signing'), eb('p.expires_at', '<=', at)]);
        const plain = states.filter((s) => s !== 'expired');
        const terms = [];
        if (plain.length > 0) terms.push(eb.and([eb('p.state', 'in', plain), eb.not(running)]));
        if (states.includes('expired')) terms.push(eb.or([eb('p.state', '=', 'expired'), running]));
        return eb.or(terms);
      });
    }
    return q;
  }

  async page(
    clientId: HrTenantId,
    filter: ProcessFilter,
    request: PageRequest<ProcessSortField>,
  ): Promise<Page<ProcessRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toProcess) };
  }

  count(clientId: HrTenantId, filter: ProcessFilter): Promise<number> {
    return listCount(this.filtered(clientId, filter));
  }

  async find(clientId: HrTenantId, id: string): Promise<ProcessRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_signature_processes as p')
      .selectAll('p')
      .where('p.id', '=', id)
      .executeTakeFirst();
    return row ? toProcess(row) : undefined;
  }

  /** The processes of these ids that exist, locked for the transaction on PostgreSQL. */
  async findMany(clientId: HrTenantId, ids: readonly string[]): Promise<ProcessRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.tenant(clientId)
      .selectFrom('hr_signature_processes as p')
      .selectAll('p')
      .where('p.id', 'in', ids)
      .execute();
    return rows.map(toProcess);
  }

  async insert(
    clientId: HrTenantId,
    process: {
      id: string;
      fileNumber: string;
      file: { filename: string; sha256: string; size: number; pageCount: number };
    },
    attrs: ProcessAttributes,
    organizationIds: readonly string[],
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_signature_processes', {
        id: process.id,
        ...processColumns(attrs),
        file_number: process.fileNumber,
        state: 'draft',
        filename: process.file.filename,
        sha256: process.file.sha256,
        size: process.file.size,
        page_count: process.file.pageCount,
        expires_at: null,
        signed_sha256: null,
        signed_size: null,
        archived_document_id: null,
        signing_started_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await this.setOrganizations(clientId, process.id, organizationIds);
  }

  async update(clientId: HrTenantId, id: string, attrs: ProcessAttributes, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_signature_processes')
      .set({ ...processColumns(attrs), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Moves a process from `from` (one of these states) with `change`; false when it was no longer in one of them
   * (another call moved it first), so that each transition happens once.
   */
  async transition(
    clientId: HrTenantId,
    id: string,
    from: readonly string[],
    change: ProcessStateChange,
    at: number,
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_signature_processes')
      .set({
        ...(change.state !== undefined ? { state: change.state } : {}),
        ...(change.expiryDate !== undefined ? { expiry_date: change.expiryDate } : {}),
        ...(change.expiresAt !== undefined ? { expires_at: change.expiresAt } : {}),
        ...(change.cancellationComment !== undefined ? { cancellation_comment: change.cancellationComment } : {}),
        ...(change.signedSha256 !== undefined ? { signed_sha256: change.signedSha256 } : {}),
        ...(change.signedSize !== undefined ? { signed_size: change.signedSize } : {}),
        ...(change.archivedDocumentId !== undefined ? { archived_document_id: change.archivedDocumentId } : {}),
        ...(change.signingStartedAt !== undefined ? { signing_started_at: change.signingStartedAt } : {}),
        updated_at: at,
      })
      .where('id', '=', id)
      .where('state', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_signers').where('signature_process_id', '=', id).execute();
    await this.tenant(clientId)
      .deleteFrom('hr_signature_process_organizations')
      .where('signature_process_id', '=', id)
      .execute();
    await this.tenant(clientId).deleteFrom('hr_signature_processes').where('id', '=', id).execute();
  }

  async setOrganizations(clientId: HrTenantId, processId: string, organizationIds: readonly string[]): Promise<void> {
    await this.tenant(clientId)
      .deleteFrom('hr_signature_process_organizations')
      .where('signature_process_id', '=', processId)
      .execute();
    if (organizationIds.length === 0) return;
    await this.tenant(clientId)
      .insertInto(
        'hr_signature_process_organizations',
        organizationIds.map((organization_id) => ({ signature_process_id: processId, organization_id })),
      )
      .execute();
  }

  /** The organizations of these processes, with their names, by process id. */
  async organizationsOf(
    clientId: HrTenantId,
    processIds: readonly string[],
  ): Promise<Map<string, { id: string; name: string }[]>> {
    const result = new Map<string, { id: string; name: string }[]>();
    if (processIds.length === 0) return result;
    const rows = await this.tenant(clientId)
      .selectFrom('hr_signature_process_organizations as o')
      .innerJoin('hr_organizations as g', (j) =>
        // tenant-by-hand: the organization is joined to the process's row, read through `Tenant`, by its own client.
        j.onRef('g.id', '=', 'o.organization_id').onRef('g.client_id', '=', 'o.client_id'),
      )
      .select(['o.signature_process_id', 'g.id', 'g.name'])
      .where('o.signature_process_id', 'in', processIds)
      .orderBy('g.id')
      .execute();
    for (const row of rows) {
      const list = result.get(row.signature_process_id) ?? [];
      list.push({ id: row.id, name: row.name });
      result.set(row.signature_process_id, list);
    }
    return result;
  }

  /** The signers of these processes, in signing order, by process id. */
  async signersOf(clientId: HrTenantId, processIds: readonly string[]): Promise<Map<string, SignerRecord[]>> {
    const result = new Map<string, SignerRecord[]>();
    if (processIds.length === 0) return result;
    const rows = await this.tenant(clientId)
      .selectFrom('hr_signers as s')
      .selectAll('s')
      .where('s.signature_process_id', 'in', processIds)
      .orderBy('s.signing_order')
      .orderBy('s.pk')
      .execute();
    for (const row of rows) {
      const list = result.get(row.signature_process_id) ?? [];
      list.push(toSigner(row));
      result.set(row.signature_process_id, list);
    }
    return result;
  }

  /** The HR users of these ids, with their names. */
  async usersNamed(
    clientId: HrTenantId,
    ids: readonly string[],
  ): Promise<Map<string, { firstName: string; lastName: string }>> {
    const result = new Map<string, { firstName: string; lastName: string }>();
    if (ids.length === 0) return result;
    const rows = await this.tenant(clientId)
      .selectFrom('hr_users as u')
      .select(['u.id', 'u.firstname', 'u.lastname'])
      .where('u.id', 'in', ids)
      .execute();
    for (const row of rows) result.set(row.id, { firstName: row.firstname, lastName: row.lastname });
    return result;
  }

  async findSigner(clientId: HrTenantId, id: string): Promise<SignerRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_signers as s')
      .selectAll('s')
      .where('s.id', '=', id)
      .executeTakeFirst();
    return row ? toSigner(row) : undefined;
  }

  async findSigners(clientId: HrTenantId, ids: readonly string[]): Promise<SignerRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.tenant(clientId)
      .selectFrom('hr_signers as s')
      .selectAll('s')
      .where('s.id', 'in', ids)
      .execute();
    return rows.map(toSigner);
  }

  async insertSigner(
    clientId: HrTenantId,
    id: string,
    processId: string,
    attrs: SignerAttributes,
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_signers', {
        id,
        signature_process_id: processId,
        ...signerColumns(attrs),
        state: 'pending',
        signed_at: null,
        signature_name: null,
        refusal_comment: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async updateSigner(clientId: HrTenantId, id: string, attrs: SignerAttributes, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_signers')
      .set({ ...signerColumns(attrs), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Moves a signer from `from` to `state` with what goes with it; false when it was no longer in `from` (another
   * call moved it first).
   */
  async signerTransition(
    clientId: HrTenantId,
    id: string,
    from: string,
    change: { state: string; signedAt?: number; signatureName?: string; refusalComment?: string },
    at: number,
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_signers')
      .set({
        state: change.state,
        ...(change.signedAt !== undefined ? { signed_at: change.signedAt } : {}),
        ...(change.signatureName !== undefined ? { signature_name: change.signatureName } : {}),
        ...(change.refusalComment !== undefined ? { refusal_comment: change.refusalComment } : {}),
        updated_at: at,
      })
      .where('id', '=', id)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sets the state of every signer of a process in one of `from`. */
  async setSignersState(
    clientId: HrTenantId,
    processId: string,
    from: readonly string[],
    state: string,
    at: number,
    onlyOrder?: number,
  ): Promise<void> {
    let q = this.tenant(clientId)
      .updateTable('hr_signers')
      .set({ state, updated_at: at })
      .where('signature_process_id', '=', processId)
      .where('state', 'in', from);
    if (onlyOrder !== undefined) q = q.where('signing_order', '=', onlyOrder);
    await q.execute();
  }

  async deleteSigner(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_signers').where('id', '=', id).execute();
  }

  /** Which of these ids name a row of the client's table. */
  existing(clientId: HrTenantId, table: ClientKeyedTable, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, table, clientId, ids);
  }

  /** An HR user's name and address (mail to a process's sender). */
  async userContact(
    clientId: HrTenantId,
    id: string,
  ): Promise<{ firstName: string; lastName: string; email: string } | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_users as u')
      .select(['u.firstname', 'u.lastname', 'u.email'])
      .where('u.id', '=', id)
      .executeTakeFirst();
    return row ? { firstName: row.firstname, lastName: row.lastname, email: row.email } : undefined;
  }

  /** Makes a stamped PDF (a blob) the process's current file; false when the process is gone. */
  async setSignedFile(clientId: HrTenantId, id: string, sha256: string, size: number, at: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_signature_processes')
      .set({ signed_sha256: sha256, signed_size: size, updated_at: at })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
