import { randomUUID } from 'node:crypto';
import { contentMatchesExtension } from '../../../platform/blobs/sniff.js';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { KeysetPosition, Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import {
  ConflictError,
  type FieldError,
  FieldValidationError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
} from '../../../platform/errors.js';
import { sanitizeFilename } from '../../../platform/filenames.js';
import { commaList } from '../../../platform/lists.js';
import { dayOf, now, parseDate, parseDateOrDateTime } from '../../../platform/time.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { DocumentAccessQuery } from '../../core/users/service.js';
import type { Audited } from '../../module.js';
import type { MetaDataDefinition } from '../document-types/schemas.js';
import { type DocumentTypeView, typeView } from '../document-types/service.js';
import type { DocumentKind } from '../folders/tables.js';
import { documentEvents } from './events.js';
import { presentDocument } from './present.js';
import type { DocumentQuery, DocumentsRepository, DocumentView, DocumentWithOwner, NewDocument } from './repository.js';
import { policyExpiryDate } from './retention.js';
import type { DocumentFilters, DocumentInput } from './schemas.js';

export type { DocumentView } from './repository.js';

const EMPTY_TRASH_BATCH = 200;

/**
 * Who is asking: the application itself (its token's scope already decides reads and writes), or an HR user it
 * acts for (the Atrium extension header `X-Atrium-User-Id`), whose roles and perimeters decide per document.
 */
export type DocumentActor = { kind: 'application' } | { kind: 'user'; userId: string };
export const APPLICATION: DocumentActor = { kind: 'application' };

/** The decisions the documents need from the HR users (UsersService). */
export interface DocumentAccess {
  /** Throws NotFoundError when the client has no such user. */
  get(clientId: string, userId: string): Promise<unknown>;
  mayActOnDocuments(clientId: string, query: DocumentAccessQuery): Promise<boolean>;
}

type Action = 'view' | 'upload' | 'update' | 'delete';

/** What a permission decision needs to know of a document, existing or about to be. */
interface AccessSubject {
  kind: DocumentKind;
  documentTypeId: string;
  employeeId: string | null;
  organizationIds: readonly string[];
  expired: boolean;
}

/** A page of the documents' fixed order (creation), of `limit` rows from `position`. */
function pageAt(limit: number, position?: KeysetPosition): PageRequest {
  return { limit, sort: [], at: position ? { position } : {} };
}

/** The repositories document writes touch: the documents and the uploads they are made from. */
export interface DocumentsWork {
  documents: DocumentsRepository;
  uploads: UploadsRepository;
}

/**
 * Employee and company documents (reference §3c.2, §3c.3): created from an
 * upload, filed under a type, attached to organizations; trash, expiry and
 * hard delete. Their bytes are blobs, removed once nothing refers to them.
 */
export class DocumentsService {
  private readonly repo: DocumentsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DocumentsWork>>,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly access: DocumentAccess,
  ) {
    this.repo = work.read.documents;
  }

  // ------------------------------------------------------------ access

  /** Checks that the acting user exists in the client (an unknown one is a 400 naming the header). */
  private async checkActor(clientId: string, actor: DocumentActor): Promise<void> {
    if (actor.kind === 'application') return;
    try {
      await this.access.get(clientId, actor.userId);
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new InvalidRequestError('Invalid header "X-Atrium-User-Id": no HR user of this client has this id.');
      }
      throw error;
    }
  }

  /**
   * Whether the actor may act on the document. The application may (its scope was checked by the bearer
   * guard); a user needs a role the type grants the action to, on a perimeter covering one of the document's
   * organizations (and the employee's custom fields), plus `view_expired` to see an expired document.
   */
  private async may(clientId: string, actor: DocumentActor, action: Action, subject: AccessSubject): Promise<boolean> {
    if (actor.kind === 'application') return true;
    const type = await this.repo.documentType(clientId, subject.kind, subject.documentTypeId);
    const grants = type ? (typeView(type).settings.user_access_permissions ?? []) : [];
    const employeeCustomFields =
      subject.kind === 'employee' && subject.employeeId
        ? await this.repo.employeeCustomValues(clientId, subject.employeeId)
        : null;
    const query = (a: DocumentAccessQuery['action']): DocumentAccessQuery => ({
      actor,
      action: a,
      userAccessPermissions: grants,
      organizationIds: subject.organizationIds,
      employeeCustomFields,
    });
    if (!(await this.access.mayActOnDocuments(clientId, query(action)))) return false;
    return !subject.expired || (await this.access.mayActOnDocuments(clientId, query('view_expired')));
  }

  private async mustMay(clientId: string, actor: DocumentActor, action: Action, view: DocumentView): Promise<void> {
    if (!(await this.may(clientId, actor, action, subjectOf(view)))) {
      throw new ForbiddenError('forbidden', `This user may not ${action} this document.`);
    }
  }

  /** The document, after checking that the actor may do `action` with it. */
  private async authorized(
    clientId: string,
    kind: DocumentKind,
    id: string,
    actor: DocumentActor,
    action: Action,
  ): Promise<DocumentView> {
    await this.checkActor(clientId, actor);
    const view = (await this.views(clientId, [await this.row(clientId, kind, id)]))[0] as DocumentView;
    await this.mustMay(clientId, actor, action, view);
    return view;
  }

  private async views(clientId: string, rows: DocumentWithOwner[], repo = this.repo): Promise<DocumentView[]> {
    const orgs = await repo.organizations(
      clientId,
      rows.map((r) => r.id),
    );
    const today = dayOf(now());
    return rows.map((row) => ({
      row,
      organizationIds: orgs.get(row.id) ?? [],
      expired: row.expiry_date !== null && row.expiry_date < today,
    }));
  }

  private async row(clientId: string, kind: DocumentKind, id: string, repo = this.repo): Promise<DocumentWithOwner> {
    const row = await repo.find(clientId, kind, id);
    if (!row) throw new NotFoundError(`${kind} document`, id);
    return row;
  }

  /**
   * Records the audit event of a write to the document, in the write's transaction: the document as GET presents
   * it, read through the transaction's repositories (after the write; before it, for a deletion).
   */
  private async record(
    { documents: repo, audit }: Audited<DocumentsWork>,
    clientId: string,
    kind: DocumentKind,
    action: (typeof documentEvents)[DocumentKind]['actions'][number],
    rows: DocumentWithOwner[],
  ): Promise<void> {
    for (const view of await this.views(clientId, rows, repo)) {
      await audit.record(clientId, documentEvents[kind], action, {
        id: view.row.id,
        name: view.row.filename,
        data: presentDocument(view),
      });
    }
  }

  async get(
    clientId: string,
    kind: DocumentKind,
    id: string,
    actor: DocumentActor = APPLICATION,
  ): Promise<DocumentView> {
    return this.authorized(clientId, kind, id, actor, 'view');
  }

  /** What a download needs: the blob and the name to offer. */
  async file(
    clientId: string,
    kind: DocumentKind,
    id: string,
    actor: DocumentActor = APPLICATION,
  ): Promise<DocumentWithOwner> {
    return (await this.authorized(clientId, kind, id, actor, 'view')).row;
  }

  // ------------------------------------------------------------ lists

  private query(f: DocumentFilters, inBody: boolean): DocumentQuery {
    const instant = (field: 'created_at_since' | 'created_at_until', end: boolean) => {
      const text = f[field];
      if (text === undefined) return undefined;
      const at = parseDateOrDateTime(text);
      if (at === undefined) {
        const message = 'Expected a date, YYYY-MM-DD.';
        if (inBody) throw new FieldValidationError([{ field, code: 'invalid_date', message }]);
        throw new InvalidRequestError(`Invalid query parameter "${field}": ${message}`);
      }
      return end ? at + 86_400_000 - 1 : at;
    };
    const q: DocumentQuery = { trashed: f.trashed === true, expired: f.expired === true, today: dayOf(now()) };
    if (f.employee_id !== undefined) q.employeeId = f.employee_id;
    if (f.document_type_id !== undefined) q.documentTypeId = f.document_type_id;
    if (f.q !== undefined) q.q = f.q;
    if (f.external_reference !== undefined) q.externalReference = f.external_reference;
    if (f.origin !== undefined) q.origin = f.origin;
    if (f.organization_id_below !== undefined) q.organizationBelow = f.organization_id_below;
    const orgs = commaList(f.organization_ids);
    if (orgs?.length) q.organizationIds = orgs;
    const numbers = commaList(f.employee_numbers);
    if (numbers?.length) q.employeeNumbers = numbers;
    if (f.date_since !== undefined) q.dateSince = f.date_since;
    if (f.date_until !== undefined) q.dateUntil = f.date_until;
    const since = instant('created_at_since', false);
    if (since !== undefined) q.createdSince = since;
    const until = instant('created_at_until', true);
    if (until !== undefined) q.createdUntil = until;
    if (f.expiry_date_since !== undefined) q.expirySince = f.expiry_date_since;
    if (f.expiry_date_until !== undefined) q.expiryUntil = f.expiry_date_until;
    if (f.expiration_date_until !== undefined) q.expirationUntil = f.expiration_date_until;
    return q;
  }

  /**
   * One page of matching documents. `page` (1-based, the reference's page
   * parameter) starts the page at that offset when no cursor is given.
   */
  async search(
    clientId: string,
    kind: DocumentKind,
    filters: DocumentFilters,
    options: { inBody: boolean; request: PageRequest; page?: number; actor?: DocumentActor },
  ): Promise<Page<DocumentView>> {
    const actor = options.actor ?? APPLICATION;
    await this.checkActor(clientId, actor);
    const query = this.query(filters, options.inBody);
    const { limit } = options.request;
    let position = options.request.at.position;
    if (!position && options.page !== undefined && options.page > 1) {
      position = await this.repo.positionAt(clientId, kind, query, (options.page - 1) * limit);
    }
    if (actor.kind === 'application') {
      const page = await this.repo.page(clientId, kind, query, pageAt(limit, position));
      return { ...page, items: await this.views(clientId, page.items) };
    }
    return this.visiblePage(clientId, kind, query, actor, limit, position);
  }

  /**
   * A page of the documents a user may view: matching rows are read in keyset order, batch after batch, and
   * those the user may not view are skipped until the page is full. One more visible row is looked for, so the
   * next page is announced only when it has something; the previous one is announced whenever the page was
   * reached from a cursor.
   */
  private async visiblePage(
    clientId: string,
    kind: DocumentKind,
    query: DocumentQuery,
    actor: DocumentActor,
    limit: number,
    position?: KeysetPosition,
  ): Promise<Page<DocumentView>> {
    const forward = !position || position.direction === 'after';
    const found: DocumentView[] = [];
    let cursor = position;
    for (;;) {
      const batch = await this.repo.page(clientId, kind, query, pageAt(limit + 1, cursor));
      const views = await this.views(clientId, batch.items);
      for (const view of forward ? views : views.reverse()) {
        if (found.length > limit) break;
        if (await this.may(clientId, actor, 'view', subjectOf(view))) found.push(view);
      }
      cursor = forward ? batch.next : batch.previous;
      if (found.length > limit || !cursor) break;
    }
    const more = found.length > limit;
    const items = found.slice(0, limit);
    if (!forward) items.reverse();
    const at = (view: DocumentView, direction: 'after' | 'before'): KeysetPosition => ({
      keys: [view.row.pk],
      direction,
      inclusive: false,
    });
    // Where the caller came from, seen from the other side (an empty page still leads back).
    const back = position && {
      keys: position.keys,
      direction: position.direction === 'after' ? ('before' as const) : ('after' as const),
      inclusive: !position.inclusive,
    };
    const first = items[0];
    const last = items[items.length - 1];
    const page: Page<DocumentView> = { items };
    const next = forward ? (more && last ? at(last, 'after') : undefined) : last ? at(last, 'after') : back;
    const previous = forward
      ? first && position
        ? at(first, 'before')
        : back
      : more && first
        ? at(first, 'before')
        : undefined;
    if (next) page.next = next;
    if (previous) page.previous = previous;
    return page;
  }

  // ------------------------------------------------------------ writing

  /** Checks every field against the type and the client's data; returns what to write. */
  private async prepare(
    repo: DocumentsRepository,
    clientId: string,
    kind: DocumentKind,
    input: DocumentInput,
    current?: DocumentWithOwner,
  ): Promise<{ values: Partial<NewDocument>; organizationIds?: string[]; type: DocumentTypeView | undefined }> {
    const errors: FieldError[] = [];
    const values: Partial<NewDocument> = {};
    const typeId = input.document_type_id ?? current?.document_type_id;
    // Read through `repo` (the transaction's): on SQLite a query outside it would wait for it to end.
    const typeRow = typeId === undefined ? undefined : await repo.documentType(clientId, kind, typeId);
    const type = typeRow ? typeView(typeRow) : undefined;
    if (typeId === undefined) {
      errors.push({ field: 'document_type_id', code: 'required', message: 'A document type is required.' });
    } else if (!type) {
      errors.push({ field: 'document_type_id', code: 'not_found', message: `No ${kind} document type has this id.` });
    }
    if (input.document_type_id !== undefined) values.document_type_id = input.document_type_id;

    let organizationIds: string[] | undefined;
    if (kind === 'employee') {
      let employee: Awaited<ReturnType<DocumentsRepository['employee']>>;
      if (input.employee_id !== undefined) {
        employee = await repo.employee(clientId, { id: input.employee_id });
        if (!employee) errors.push({ field: 'employee_id', code: 'not_found', message: 'No employee has this id.' });
      } else if (input.employee_external_id !== undefined) {
        employee = await repo.employee(clientId, { externalId: input.employee_external_id });
        if (!employee) {
          errors.push({
            field: 'employee_external_id',
            code: 'not_found',
            message: 'No employee has this external id.',
          });
        }
      } else if (current?.employee_id) {
        employee = await repo.employee(clientId, { id: current.employee_id });
      } else {
        errors.push({
          field: 'employee_id',
          code: 'required',
          message: 'Give employee_id or employee_external_id.',
        });
      }
      if (employee) {
        values.employee_id = employee.id;
        const member = new Set(employee.registrations.map((r) => r.organization_id));
        if (input.organization_ids !== undefined) {
          input.organization_ids.forEach((org, i) => {
            if (!member.has(org)) {
              errors.push({
                field: `organization_ids.${i}`,
                code: 'not_member',
                message: 'The employee has no registration reference in this organization.',
              });
            }
          });
          organizationIds = [...new Set(input.organization_ids)];
        } else if (!current || input.employee_id !== undefined || input.employee_external_id !== undefined) {
          const active = employee.registrations.filter((r) => r.active === 1);
          organizationIds = [
            ...new Set((active.length ? active : employee.registrations).map((r) => r.organization_id)),
          ];
        }
      }
    } else if (input.organization_ids !== undefined) {
      const existing = await repo.existingOrganizations(clientId, input.organization_ids);
      if (input.organization_ids.length === 0) {
        errors.push({ field: 'organization_ids', code: 'too_few', message: 'Attach the document to an organization.' });
      }
      input.organization_ids.forEach((org, i) => {
        if (!existing.has(org)) {
          errors.push({ field: `organization_ids.${i}`, code: 'not_found', message: 'No organization has this code.' });
        }
      });
      organizationIds = [...new Set(input.organization_ids)];
    }

    if (input.metadata !== undefined || (type && input.document_type_id !== undefined)) {
      const metadata = input.metadata ?? current?.metadata ?? [];
      if (type) errors.push(...metadataErrors(metadata, type.settings.metadata ?? []));
      values.metadata = metadata;
    }
    if (input.title !== undefined) values.title = input.title;
    if (input.date !== undefined) values.date = input.date;
    if (input.external_reference !== undefined) values.external_reference = input.external_reference;
    if (errors.length) throw new FieldValidationError(errors);
    return { values, ...(organizationIds ? { organizationIds } : {}), type };
  }

  private async checkUniqueReference(
    repo: DocumentsRepository,
    clientId: string,
    kind: DocumentKind,
    input: DocumentInput,
    exceptId?: string,
  ): Promise<void> {
    const reference = input.external_reference;
    if (input.external_reference_is_unique !== true || reference === undefined || reference === null) return;
    // One check at a time per client, each seeing the documents the previous one let through.
    await repo.lockExternalReferences(clientId);
    if (await repo.externalReferenceTaken(clientId, kind, reference, exceptId)) {
      throw new ConflictError('Conflict, the document already exists: another document has this external_reference.');
    }
  }

  async create(
    clientId: string,
    kind: DocumentKind,
    input: DocumentInput,
    actor: DocumentActor = APPLICATION,
  ): Promise<DocumentView> {
    const file = input.uploaded_file;
    if (!file) {
      throw new FieldValidationError([{ field: 'uploaded_file', code: 'required', message: 'The file is required.' }]);
    }
    if (actor.kind === 'user') {
      // Decided before the transaction: the permission reads cannot run inside it on SQLite's one connection.
      await this.checkActor(clientId, actor);
      const { values, organizationIds } = await this.prepare(this.repo, clientId, kind, input);
      const subject: AccessSubject = {
        kind,
        documentTypeId: values.document_type_id as string,
        employeeId: values.employee_id ?? null,
        organizationIds: organizationIds ?? [],
        expired: false,
      };
      if (!(await this.may(clientId, actor, 'upload', subject))) {
        throw new ForbiddenError('forbidden', 'This user may not upload documents of this type here.');
      }
    }
    const id = randomUUID();
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      const { values, organizationIds, type } = await this.prepare(repo, clientId, kind, input);
      const filename = sanitizeFilename(file.filename);
      const allowed = type?.settings.file_type_restrictions ?? [];
      const extension = filename.includes('.') ? (filename.split('.').pop() ?? '').toLowerCase() : '';
      if (allowed.length > 0 && !allowed.includes(extension)) {
        throw new FieldValidationError([
          {
            field: 'uploaded_file.filename',
            code: 'invalid_extension',
            message: `Documents of this type must be one of: ${allowed.join(', ')}.`,
          },
        ]);
      }
      await this.checkUniqueReference(repo, clientId, kind, input);
      const upload = await this.uploads.consume(tx.uploads, clientId, file.file_id, {
        field: 'uploaded_file.file_id',
      });
      // The name passed; the bytes must agree (an executable named x.pdf does not). Thrown inside the unit of
      // work, so the upload stays unconsumed.
      if (allowed.length > 0 && !contentMatchesExtension(extension, upload.contentType)) {
        throw new FieldValidationError([
          {
            field: 'uploaded_file.file_id',
            code: 'invalid_file_type',
            message: `The file's content (${upload.contentType}) is not a ${extension} file.`,
          },
        ]);
      }
      const at = now();
      const date = values.date ?? null;
      await repo.insert(
        clientId,
        kind,
        {
          id,
          employee_id: values.employee_id ?? null,
          document_type_id: values.document_type_id as string,
          title: values.title ?? null,
          filename,
          sha256: upload.sha256,
          size: upload.size,
          content_type: upload.contentType,
          page_count: upload.pageCount,
          date,
          effective_date: date ?? dayOf(at),
          metadata: values.metadata ?? [],
          external_reference: values.external_reference ?? null,
          origin: 'api',
          origin_details: null,
          sender_id: null,
          trashed_at: null,
          expiry_date: type ? policyExpiryDate(type.settings, at, values.metadata ?? []) : null,
          expiration_date: null,
          created_at: at,
          updated_at: at,
        },
        organizationIds ?? [],
      );
      await this.record(tx, clientId, kind, 'created', [await this.row(clientId, kind, id, repo)]);
    });
    return this.get(clientId, kind, id);
  }

  /**
   * Files a document that Atrium made itself (a signed PDF, archived by its signature process; a file dropped into
   * an employee's vault) in the caller's transaction, with its `origin` and audit event, as `create` does for an
   * upload. The bytes are a blob already stored (`sha256`); the caller's row keeps referring to them too.
   */
  async fileGenerated(
    tx: Audited<DocumentsWork>,
    clientId: string,
    file: {
      employeeId: string;
      documentTypeId: string;
      title: string | null;
      filename: string;
      sha256: string;
      size: number;
      pageCount: number | null;
      date: string | null;
      metadata: { code: string; value: string }[];
      origin: 'signature' | 'api' | 'distribution';
      /** Default: the origin (`signature`; null for `distribution`); `drop_in_vault` for a vault's document. */
      originDetails?: string;
      /** Default: a PDF. */
      contentType?: string;
      organizationIds: string[];
    },
  ): Promise<string> {
    const id = randomUUID();
    const at = now();
    const typeRow = await tx.documents.documentType(clientId, 'employee', file.documentTypeId);
    const type = typeRow ? typeView(typeRow) : undefined;
    await tx.documents.insert(
      clientId,
      'employee',
      {
        id,
        employee_id: file.employeeId,
        document_type_id: file.documentTypeId,
        title: file.title,
        filename: file.filename,
        sha256: file.sha256,
        size: file.size,
        content_type: file.contentType ?? 'application/pdf',
        page_count: file.pageCount,
        date: file.date,
        effective_date: file.date ?? dayOf(at),
        metadata: file.metadata,
        external_reference: null,
        origin: file.origin,
        origin_details: file.originDetails ?? (file.origin === 'distribution' ? null : file.origin),
        sender_id: null,
        trashed_at: null,
        expiry_date: type ? policyExpiryDate(type.settings, at, file.metadata) : null,
        expiration_date: null,
        created_at: at,
        updated_at: at,
      },
      file.organizationIds,
    );
    await this.record(tx, clientId, 'employee', 'created', [await this.row(clientId, 'employee', id, tx.documents)]);
    return id;
  }

  /** PUT replaces the attributes (absent ones are cleared); PATCH changes only those sent. */
  async update(
    clientId: string,
    kind: DocumentKind,
    id: string,
    input: DocumentInput,
    mode: 'replace' | 'merge',
    actor: DocumentActor = APPLICATION,
  ): Promise<DocumentView> {
    await this.authorized(clientId, kind, id, actor, 'update');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      const current = await this.row(clientId, kind, id, repo);
      const full: DocumentInput =
        mode === 'replace' ? { title: null, date: null, metadata: [], external_reference: null, ...input } : input;
      const { values, organizationIds } = await this.prepare(repo, clientId, kind, full, current);
      await this.checkUniqueReference(repo, clientId, kind, full, id);
      if (values.date !== undefined) values.effective_date = values.date ?? dayOf(current.created_at);
      await repo.update(clientId, kind, id, { ...values, updated_at: now() });
      if (organizationIds) await repo.setOrganizations(clientId, id, organizationIds);
      await this.record(tx, clientId, kind, 'updated', [await this.row(clientId, kind, id, repo)]);
    });
    return this.get(clientId, kind, id);
  }

  async trash(
    clientId: string,
    kind: DocumentKind,
    id: string,
    trashed: boolean,
    actor: DocumentActor = APPLICATION,
  ): Promise<void> {
    await this.authorized(clientId, kind, id, actor, 'delete');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      const row = await this.row(clientId, kind, id, repo);
      // Already where it was asked to be: nothing is written, so nothing is recorded.
      if ((row.trashed_at !== null) === trashed) return;
      const at = now();
      await repo.update(clientId, kind, id, { trashed_at: trashed ? at : null, updated_at: at });
      await this.record(tx, clientId, kind, trashed ? 'trashed' : 'restored', [
        await this.row(clientId, kind, id, repo),
      ]);
    });
  }

  /** Hard delete, bypassing the trash; the bytes go once nothing else refers to them. */
  async delete(clientId: string, kind: DocumentKind, id: string, actor: DocumentActor = APPLICATION): Promise<void> {
    await this.authorized(clientId, kind, id, actor, 'delete');
    const blobs = await this.work.run(async (tx) => {
      const row = await this.row(clientId, kind, id, tx.documents);
      await this.record(tx, clientId, kind, 'deleted', [row]);
      return tx.documents.delete(clientId, kind, [row.id]);
    });
    await this.release(blobs);
  }

  /**
   * Deletes those of the documents that are still in the trash, each with its `deleted` event, in one
   * transaction; answers the blobs they held (released by the caller once it is committed).
   */
  private deleteTrashed(clientId: string, kind: DocumentKind, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.work.run(async (tx) => {
      const rows = (await tx.documents.findMany(clientId, kind, ids)).filter((r) => r.trashed_at !== null);
      await this.record(tx, clientId, kind, 'deleted', rows);
      return tx.documents.delete(
        clientId,
        kind,
        rows.map((r) => r.id),
      );
    });
  }

  /** Permanently deletes every trashed document of the kind; answers how many. */
  async emptyTrash(clientId: string, kind: DocumentKind, actor: DocumentActor = APPLICATION): Promise<number> {
    await this.checkActor(clientId, actor);
    if (actor.kind === 'user') {
      // Only the trashed documents this user may delete.
      let total = 0;
      let position: KeysetPosition | undefined;
      const query: DocumentQuery = { trashed: true, expired: false, today: dayOf(now()) };
      for (const expired of [false, true]) {
        position = undefined;
        for (;;) {
          const page = await this.repo.page(clientId, kind, { ...query, expired }, pageAt(EMPTY_TRASH_BATCH, position));
          const ids: string[] = [];
          for (const view of await this.views(clientId, page.items)) {
            if (await this.may(clientId, actor, 'delete', subjectOf(view))) ids.push(view.row.id);
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
    clientId: string,
    kind: DocumentKind,
    id: string,
    expiryDate: string | null,
    actor: DocumentActor = APPLICATION,
  ): Promise<void> {
    await this.authorized(clientId, kind, id, actor, 'update');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      const current = await this.row(clientId, kind, id, repo);
      let expiry = expiryDate;
      if (expiry === null) {
        const type = await repo.documentType(clientId, kind, current.document_type_id);
        expiry = type ? policyExpiryDate(type.settings, current.created_at, current.metadata) : null;
      }
      await repo.update(clientId, kind, id, { expiry_date: expiry, expiration_date: expiryDate, updated_at: now() });
      await this.record(tx, clientId, kind, 'expired', [await this.row(clientId, kind, id, repo)]);
    });
  }

  /** `PUT …/expiration/update`: the end of validity. */
  async setExpiration(
    clientId: string,
    kind: DocumentKind,
    id: string,
    expirationDate: string | null,
    actor: DocumentActor = APPLICATION,
  ): Promise<void> {
    await this.authorized(clientId, kind, id, actor, 'update');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      await this.row(clientId, kind, id, repo);
      await repo.update(clientId, kind, id, { expiration_date: expirationDate, updated_at: now() });
      await this.record(tx, clientId, kind, 'updated', [await this.row(clientId, kind, id, repo)]);
    });
  }
}

function subjectOf({ row, organizationIds, expired }: DocumentView): AccessSubject {
  return {
    kind: row.kind,
    documentTypeId: row.document_type_id,
    employeeId: row.employee_id,
    organizationIds,
    expired,
  };
}

/** Metadata values against the type's definitions (reference `MetaDataDefinition`). */
function metadataErrors(values: { code: string; value: string }[], definitions: MetaDataDefinition[]): FieldError[] {
  const errors: FieldError[] = [];
  const byCode = new Map(definitions.map((d) => [d.code, d]));
  const seen = new Set<string>();
  values.forEach((m, i) => {
    const def = byCode.get(m.code);
    if (!def) {
      errors.push({
        field: `metadata.${i}.code`,
        code: 'not_found',
        message: 'The document type has no such metadata.',
      });
      return;
    }
    if (seen.has(m.code))
      errors.push({ field: `metadata.${i}.code`, code: 'duplicate', message: 'Give each code once.' });
    seen.add(m.code);
    const field = `metadata.${i}.value`;
    if (def.type === 'int' && !/^-?\d{1,15}$/.test(m.value)) {
      errors.push({ field, code: 'invalid_integer', message: 'Expected an integer.' });
    } else if (def.type === 'date' && parseDate(m.value) === undefined) {
      errors.push({ field, code: 'invalid_date', message: 'Expected a date, YYYY-MM-DD.' });
    } else if (def.type === 'list' && !(def.authorized_values ?? []).includes(m.value)) {
      errors.push({
        field,
        code: 'invalid_choice',
        message: `Expected one of: ${(def.authorized_values ?? []).join(', ')}.`,
      });
    }
  });
  for (const def of definitions) {
    if (def.is_required && !seen.has(def.code)) {
      errors.push({ field: 'metadata', code: 'required', message: `The metadata "${def.code}" is required.` });
    }
  }
  return errors;
}
