import type { Generated } from 'kysely';

/** Column types of the campaigns' tables, as Kysely sees them (instants in epoch ms). */
export interface HrDocgenCampaignsTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  title: string;
  template_id: string;
  template_version: number;
  output_action: 'zip' | 'pdf' | 'archive';
  /** What each row is generated as: `PDF` (pdf, archive), `DOCX` for a zip (`PDF` when the version allows only PDF). */
  format: 'DOCX' | 'PDF';
  creator_ref: string | null;
  document_type_id: string | null;
  status: 'created' | 'in_progress' | 'completed' | 'failed' | 'canceled';
  row_count: number;
  /** The result (a zip, or one PDF); null for `archive` and before the end. */
  sha256: string | null;
  size: number | null;
  started_at: number | null;
  ended_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One row of a campaign's dataset, and what became of it. */
export interface HrDocgenCampaignRowsTable {
  client_id: string;
  campaign_id: string;
  row_index: number;
  employee_id: string | null;
  ref: string | null;
  /** JSON: {fields, fragment_fields} as sent. */
  data: string;
  status: 'pending' | 'generated' | 'failed';
  error: string | null;
  /** The row's document (zip and pdf), until the campaign's result is written. */
  sha256: string | null;
  /** The employee document it was archived as (`archive`). */
  document_id: string | null;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_docgen_campaigns: HrDocgenCampaignsTable;
    hr_docgen_campaign_rows: HrDocgenCampaignRowsTable;
  }
}
