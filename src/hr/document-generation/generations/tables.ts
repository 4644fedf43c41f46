import type { Generated } from 'kysely';

/** Column types of generated documents, as Kysely sees them (instants in epoch ms, booleans as 0/1). */
export interface HrDocgenGenerationsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  /** The generation request's id (`/document_generation_requests/{id}`). */
  request_id: string;
  request_status: 'PROCESSED' | 'NOT_PROCESSED' | 'RECEIVED_ASYNC' | 'SENT_ASYNC' | 'FAILED';
  template_id: string;
  template_version: number;
  format: 'DOC' | 'DOCX' | 'ODT' | 'PDF';
  status: 'GENERATED' | 'NOT_GENERATED' | 'GENERATING' | 'FAILED' | 'CANCELED';
  strict: number;
  /** 1 for `POST /document_generations/async`. */
  async: number;
  /** JSON: the caller's `context`, as sent. */
  context: string | null;
  /** JSON: what an async generation still has to do ({fields, fragment_fields, …}); null once it ran. */
  payload: string | null;
  employee_id: string | null;
  document_type_id: string | null;
  /** JSON array of {field, code, message}. */
  errors: string;
  /** Why a generation failed (an async one). */
  failure: string | null;
  upload_id: string | null;
  sha256: string | null;
  /** The document laid out as a PDF for its previews (a PDF's own bytes, or stored at its first preview). */
  pdf_sha256: string | null;
  size: number | null;
  pages: number | null;
  archived_document_id: string | null;
  vaulted_at: number | null;
  generation_started_at: number | null;
  generation_finished_at: number | null;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_docgen_generations: HrDocgenGenerationsTable;
  }
}
