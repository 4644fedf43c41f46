import type { Generated } from 'kysely';

/** Column types of the templates' tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface HrDocgenTemplatesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  title: string;
  description: string;
  locale: string;
  enabled: number;
  is_injectable: number;
  /** `YYYY-MM-DD`. */
  validity_start_date: string | null;
  validity_end_date: string | null;
  /** JSON array of {organization_id, include_children}. */
  restrictions: string;
  /** The highest version number given so far (0 before the first upload); numbers are never reused. */
  latest_version: number;
  /** 0 when no version is active. */
  active_version: number;
  created_at: number;
  updated_at: number;
}

export interface HrDocgenTemplateVersionsTable {
  client_id: string;
  template_id: string;
  version: number;
  syntax_version: 'V1' | 'V2';
  format: string;
  /** JSON array of the formats it may be generated in (`DOCX`, `PDF`, …). */
  output_format: string;
  /** JSON array of {code, field, message, severity}. */
  template_information: string;
  /** JSON array of {slug, fragment_id}. */
  fragment_mapping: string;
  /** JSON array of the engine's placeholders ({slug, kind, columns?}). */
  placeholders: string;
  /** JSON array of {slug, type_id}: the typings set by `PUT …/doc_fields`. */
  field_typings: string;
  sha256: string;
  /** The document laid out as a PDF, stored at its first preview. */
  pdf_sha256: string | null;
  filename: string;
  size: number;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_docgen_templates: HrDocgenTemplatesTable;
    hr_docgen_template_versions: HrDocgenTemplateVersionsTable;
  }
}
