import { randomUUID } from 'node:crypto';
import { contentMatchesExtension } from '../../../platform/blobs/sniff.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { ConflictError, type FieldError, FieldValidationError, ForbiddenError } from '../../../platform/errors.js';
import { sanitizeFilename } from '../../../platform/filenames.js';
import { type Clock, dayOf, parseDate } from '../../../platform/time.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import type { MetaDataDefinition } from '../document-types/schemas.js';
import { type DocumentTypeView, typeView } from '../document-types/service.js';
import type { DocumentKind } from '../folders/tables.js';
import { type AccessSubject, APPLICATION, type DocumentActor, type DocumentPermissions } from './access.js';
import { type DocumentsWork, documentRow, recordDocuments } from './records.js';
import type { DocumentRecord, DocumentsRepository, DocumentView, NewDocument } from './repository.js';
import { policyExpiryDate } from './retention.js';
import type { DocumentInput } from './schemas.js';

export type { DocumentView } from './repository.js';

/**
 * Employee and company documents (reference §3c.2, §3c.3): created from an
 * upload, filed under a type, attached to organizations, updated. Reading them is
 * DocumentReadsService's (reads-service.ts); trash, expiry and hard delete are
 * DocumentLifecycleService's (lifecycle-service.ts).
 */
export class DocumentsService {
  private readonly repo: DocumentsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DocumentsWork>>,
    private readonly permissions: DocumentPermissions,
    private readonly uploads: UploadsService,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.documents;
  }

  /** Checks every field against the type and the client's data; returns what to write. */
  private async prepare(
    repo: DocumentsRepository,
    clientId: HrTenantId,
    kind: DocumentKind,
    input: DocumentInput,
    current?: DocumentRecord,
  ): Promise<{ values: Partial<NewDocument>; organizationIds?: string[]; type: DocumentTypeView | undefined }> {
    const errors: FieldError[] = [];
    const values: Partial<NewDocument> = {};
    const typeId = input.document_type_id ?? current?.documentTypeId;
    // Read through `repo` (the transaction's): on SQLite a query outside it would wait for it to end.
    const typeRow = typeId === undefined ? undefined : await repo.documentType(clientId, kind, typeId);
    const type = typeRow ? typeView(typeRow) : undefined;
    if (typeId === undefined) {
      errors.push({ field: 'document_type_id', code: 'required', message: 'A document type is required.' });
    } else if (!type) {
      errors.push({ field: 'document_type_id', code: 'not_found', message: `No ${kind} document type has this id.` });
    }
    if (input.document_type_id !== undefined) values.documentTypeId = input.document_type_id;

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
      } else if (current?.employeeId) {
        employee = await repo.employee(clientId, { id: current.employeeId });
      } else {
        errors.push({
          field: 'employee_id',
          code: 'required',
          message: 'Give employee_id or employee_external_id.',
        });
      }
      if (employee) {
        values.employeeId = employee.id;
        const member = new Set(employee.registrations.map((r) => r.organizationId));
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
          const active = employee.registrations.filter((r) => r.active);
          organizationIds = [
            ...new Set((active.length ? active : employee.registrations).map((r) => r.organizationId)),
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
    if (input.external_reference !== undefined) values.externalReference = input.external_reference;
    if (errors.length) throw new FieldValidationError(errors);
    return { values, ...(organizationIds ? { organizationIds } : {}), type };
  }

  private async checkUniqueReference(
    repo: DocumentsRepository,
    clientId: HrTenantId,
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
    clientId: HrTenantId,
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
      await this.permissions.checkActor(clientId, actor);
      const { values, organizationIds } = await this.prepare(this.repo, clientId, kind, input);
      const subject: AccessSubject = {
        kind,
        documentTypeId: values.documentTypeId as string,
        employeeId: values.employeeId ?? null,
        organizationIds: organizationIds ?? [],
        expired: false,
      };
      if (!(await this.permissions.may(clientId, actor, 'upload', subject))) {
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
      const at = this.clock.now();
      const date = values.date ?? null;
      await repo.insert(
        clientId,
        kind,
        {
          id,
          employeeId: values.employeeId ?? null,
          documentTypeId: values.documentTypeId as string,
          title: values.title ?? null,
          filename,
          sha256: upload.sha256,
          size: upload.size,
          contentType: upload.contentType,
          pageCount: upload.pageCount,
          date,
          effectiveDate: date ?? dayOf(at),
          metadata: values.metadata ?? [],
          externalReference: values.externalReference ?? null,
          origin: 'api',
          originDetails: null,
          senderId: null,
          trashedAt: null,
          expiryDate: type ? policyExpiryDate(type.settings, at, values.metadata ?? []) : null,
          expirationDate: null,
          createdAt: at,
          updatedAt: at,
        },
        organizationIds ?? [],
      );
      await recordDocuments(this.clock, tx, clientId, kind, 'created', [await documentRow(repo, clientId, kind, id)]);
    });
    return this.permissions.authorized(clientId, kind, id, APPLICATION, 'view');
  }

  /**
   * Files a document that Atrium made itself (a signed PDF, archived by its signature process; a file dropped into
   * an employee's vault) in the caller's transaction, with its `origin` and audit event, as `create` does for an
   * upload. The bytes are a blob already stored (`sha256`); the caller's row keeps referring to them too.
   */
  async fileGenerated(
    tx: Audited<DocumentsWork>,
    clientId: HrTenantId,
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
    const at = this.clock.now();
    const typeRow = await tx.documents.documentType(clientId, 'employee', file.documentTypeId);
    const type = typeRow ? typeView(typeRow) : undefined;
    await tx.documents.insert(
      clientId,
      'employee',
      {
        id,
        employeeId: file.employeeId,
        documentTypeId: file.documentTypeId,
        title: file.title,
        filename: file.filename,
        sha256: file.sha256,
        size: file.size,
        contentType: file.contentType ?? 'application/pdf',
        pageCount: file.pageCount,
        date: file.date,
        effectiveDate: file.date ?? dayOf(at),
        metadata: file.metadata,
        externalReference: null,
        origin: file.origin,
        originDetails: file.originDetails ?? (file.origin === 'distribution' ? null : file.origin),
        senderId: null,
        trashedAt: null,
        expiryDate: type ? policyExpiryDate(type.settings, at, file.metadata) : null,
        expirationDate: null,
        createdAt: at,
        updatedAt: at,
      },
      file.organizationIds,
    );
    await recordDocuments(this.clock, tx, clientId, 'employee', 'created', [
      await documentRow(tx.documents, clientId, 'employee', id),
    ]);
    return id;
  }

  /** PUT replaces the attributes (absent ones are cleared); PATCH changes only those sent. */
  async update(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    input: DocumentInput,
    mode: 'replace' | 'merge',
    actor: DocumentActor = APPLICATION,
  ): Promise<DocumentView> {
    await this.permissions.authorized(clientId, kind, id, actor, 'update');
    await this.work.run(async (tx) => {
      const repo = tx.documents;
      const current = await documentRow(repo, clientId, kind, id);
      const full: DocumentInput =
        mode === 'replace' ? { title: null, date: null, metadata: [], external_reference: null, ...input } : input;
      const { values, organizationIds } = await this.prepare(repo, clientId, kind, full, current);
      await this.checkUniqueReference(repo, clientId, kind, full, id);
      if (values.date !== undefined) values.effectiveDate = values.date ?? dayOf(current.createdAt);
      await repo.update(clientId, kind, id, { ...values, updatedAt: this.clock.now() });
      if (organizationIds) await repo.setOrganizations(clientId, id, organizationIds);
      await recordDocuments(this.clock, tx, clientId, kind, 'updated', [await documentRow(repo, clientId, kind, id)]);
    });
    return this.permissions.authorized(clientId, kind, id, APPLICATION, 'view');
  }
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
