import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { ConsumedUpload, UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import { badId } from '../process-templates/task-template-rules.js';
import { pdfTemplateEvents } from './events.js';
import { presentPdfTemplate } from './present.js';
import type { PdfTemplateRecord, PdfTemplatesRepository, PdfTemplateValues } from './repository.js';
import type { PdfTemplatePut } from './schemas.js';

/** The repositories PDF template writes touch: the templates and the uploads they consume. */
export interface PdfTemplatesWork {
  pdfTemplates: PdfTemplatesRepository;
  uploads: UploadsRepository;
}

const PDF = 'application/pdf';

/** The zones and the mapping: unique zone ids, pages within the PDF (when counted), each PDF field mapped once. */
export function layoutErrors(input: PdfTemplatePut, pageCount: number | null): FieldError[] {
  const errors: FieldError[] = [];
  const zones = new Set<string>();
  (input.signature_zones ?? []).forEach((zone, i) => {
    if (zones.has(zone.id)) {
      errors.push({ field: `signature_zones.${i}.id`, code: 'duplicate', message: 'Another zone has this id.' });
    }
    zones.add(zone.id);
    if (pageCount !== null && zone.page > pageCount) {
      errors.push({
        field: `signature_zones.${i}.page`,
        code: 'out_of_range',
        message: `The PDF has ${pageCount} page(s).`,
      });
    }
  });
  const names = new Set<string>();
  (input.form_mapping ?? []).forEach((item, i) => {
    if (names.has(item.pdf_field_name)) {
      errors.push({
        field: `form_mapping.${i}.pdf_field_name`,
        code: 'duplicate',
        message: 'This PDF field is already mapped.',
      });
    }
    names.add(item.pdf_field_name);
  });
  return errors;
}

/** PDF templates of process automation (reference §3f.2, "PDF templates"). */
export class PdfTemplatesService {
  private readonly repo: PdfTemplatesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<PdfTemplatesWork>>,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.pdfTemplates;
  }

  list(clientId: HrTenantId, request: PageRequest): Promise<Page<PdfTemplateRecord>> {
    return this.repo.page(clientId, request);
  }

  count(clientId: HrTenantId): Promise<number> {
    return this.repo.count(clientId);
  }

  async get(clientId: HrTenantId, id: string): Promise<PdfTemplateRecord> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('PDF template', id);
    return row;
  }

  /** PUT: creates (201) or replaces every attribute (200); the file changes only with a new `upload_id`. */
  async put(
    clientId: HrTenantId,
    id: string,
    input: PdfTemplatePut,
  ): Promise<{ template: PdfTemplateRecord; created: boolean }> {
    let released: string | undefined;
    const result = await this.work.run(async (tx) => {
      released = undefined;
      const repo = tx.pdfTemplates;
      const errors: FieldError[] = [];
      const idError = badId(id);
      if (idError) errors.push(idError);
      if (input.id !== undefined && input.id !== id) {
        errors.push({ field: 'id', code: 'mismatch', message: 'The id in the body must be the one of the path.' });
      }
      const existing = await repo.find(clientId, id);
      if (!existing && input.upload_id === undefined) {
        errors.push({ field: 'upload_id', code: 'required', message: 'A new PDF template needs its PDF.' });
      }
      const documentTypeId = input.document_type_id ?? null;
      if (documentTypeId !== null && !(await repo.employeeDocumentType(clientId, documentTypeId))) {
        errors.push({
          field: 'document_type_id',
          code: 'not_found',
          message: 'No employee document type has this id.',
        });
      }
      let upload: ConsumedUpload | undefined;
      if (input.upload_id !== undefined && errors.length === 0) {
        upload = await this.uploads.consume(tx.uploads, clientId, input.upload_id, { field: 'upload_id' });
        if (upload.contentType !== PDF) {
          errors.push({ field: 'upload_id', code: 'not_a_pdf', message: 'A PDF template’s file is a PDF.' });
        }
      }
      const pageCount = upload ? upload.pageCount : (existing?.pageCount ?? null);
      errors.push(...layoutErrors(input, pageCount));
      if (errors.length) throw new FieldValidationError(errors);
      const file = upload ?? (existing as PdfTemplateRecord);
      const at = this.clock.now();
      const values: PdfTemplateValues = {
        name: input.name,
        fileName: input.file_name ?? (upload ? upload.filename : (existing as PdfTemplateRecord).fileName),
        documentTypeId,
        signatureZones: input.signature_zones ?? [],
        formMapping: input.form_mapping ?? [],
        sha256: file.sha256,
        size: file.size,
        contentType: file.contentType,
        pageCount,
        updatedAt: at,
      };
      const created = existing ? false : await repo.insertIfAbsent(clientId, id, values, at);
      if (!created) await repo.update(clientId, id, values);
      if (existing && existing.sha256 !== values.sha256) released = existing.sha256;
      const template = (await repo.find(clientId, id)) as PdfTemplateRecord;
      await tx.audit.record(clientId, pdfTemplateEvents, created ? 'created' : 'updated', {
        id,
        name: template.name,
        data: presentPdfTemplate(template),
      });
      return { template, created };
    });
    if (released) await this.blobs.deleteIfUnreferenced(released);
    return result;
  }
}
