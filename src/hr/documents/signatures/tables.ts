import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/**
 * A signature process (reference §5.4): a PDF to sign (blob `sha256`; once someone has signed, the current PDF is
 * `signed_sha256`: both in BLOB_REFERENCES), its settings and its state.
 */
export interface HrSignatureProcessesTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, made by the server. */
  id: string;
  signature_type_id: string;
  title: string;
  reason: string;
  location: string;
  /** YYYY-MM-DD: the last day of signing (its end, UTC); set when signing starts if the client gave none. */
  expiry_date: string | null;
  /** The end of `expiry_date` (epoch ms), once signing has started. */
  expires_at: number | null;
  notify_on_signature: number;
  notify_on_refusal: number;
  document_type_id: string | null;
  /** JSON array of {code, value}. */
  document_metadata: string;
  document_date: string | null;
  cancellation_comment: string | null;
  file_number: string;
  message: string | null;
  /** JSON array of employee ids. */
  notify_employee_ids: string;
  external_id: string | null;
  /** `"true"` or `"false"`: the reference types it as a string. */
  auto_send: string;
  callback_url: string | null;
  state: string;
  sender_id: string | null;
  filename: string;
  sha256: string;
  size: number;
  page_count: number;
  signed_sha256: string | null;
  signed_size: number | null;
  /** The employee document `archive` made, once. */
  archived_document_id: string | null;
  signing_started_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The organizations a process's document belongs to (`document_organization_ids`). */
export interface HrSignatureProcessOrganizationsTable {
  client_id: string;
  signature_process_id: string;
  organization_id: string;
}

/** A signer of a process, in its signing order. */
export interface HrSignersTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  signature_process_id: string;
  first_name: string;
  last_name: string;
  type: string;
  /** JSON array of {page, unit, x, y, width, height}. */
  signature_positions: string;
  user_id: string | null;
  employee_id: string | null;
  language: string | null;
  email_address: string | null;
  mobile_phone_number: string | null;
  signing_order: number;
  /** SHA-256 of the access code the signer must give; the code itself is never stored. */
  access_code_hash: string | null;
  sms_notification: number;
  /** JSON {sms, email}, or null. */
  two_factor_auth: string | null;
  message: string | null;
  send_signed_document: number;
  state: string;
  signed_at: number | null;
  /** The name the signer typed to sign. */
  signature_name: string | null;
  refusal_comment: string | null;
  created_at: number;
  updated_at: number;
}

/** Wrong access codes given for a signer, and when they locked it. */
export interface HrSignerCodeAttemptsTable {
  client_id: string;
  signer_id: string;
  failures: number;
  locked_at: number | null;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_signer_code_attempts: HrSignerCodeAttemptsTable;
    hr_signature_processes: HrSignatureProcessesTable;
    hr_signature_process_organizations: HrSignatureProcessOrganizationsTable;
    hr_signers: HrSignersTable;
  }
}
