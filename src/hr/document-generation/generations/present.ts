import { formatDateTime } from '../../../platform/time.js';
import type { GenerationRecord } from './repository.js';
import type { Generation, GenerationRequest, GenerationWithErrors } from './schemas.js';

const instant = (ms: number | null) => (ms === null ? null : formatDateTime(ms));

/** A generated document on the wire (reference §5.5, `DocGenFull`). */
export function presentGeneration(g: GenerationRecord): Generation {
  return {
    id: g.id,
    format: g.format,
    document_generation_template_id: g.templateId,
    document_generation_template_version: g.templateVersion,
    context: g.context ?? null,
    upload_id: g.uploadId,
    status: g.status,
    employee_id: g.employeeId,
    document_type_id: g.documentTypeId,
    page_count: g.pages,
    archived_document_id: g.archivedDocumentId,
    generation_started_at: instant(g.generationStartedAt),
    generation_finished_at: instant(g.generationFinishedAt),
    created_at: formatDateTime(g.createdAt),
    updated_at: formatDateTime(g.updatedAt),
  };
}

/** `DocGenFullWithErrors`: with what permissive generation let through. */
export function presentGenerationWithErrors(g: GenerationRecord): GenerationWithErrors {
  return {
    ...presentGeneration(g),
    errors: g.errors.map((e) => ({ field: e.field, code: e.code, message: e.message })),
  };
}

/** A generation request (`RequestListingDto`). */
export function presentRequest(g: GenerationRecord): GenerationRequest {
  return {
    id: g.requestId,
    status: g.requestStatus,
    document_generation_id: g.id,
    document_generation_template_id: g.templateId,
    document_generation_template_version: g.templateVersion,
    format: g.format,
    errors: g.errors.map((e) => ({ field: e.field, code: e.code, message: e.message })),
    failure: g.failure,
    created_at: formatDateTime(g.createdAt),
    updated_at: formatDateTime(g.updatedAt),
  };
}
