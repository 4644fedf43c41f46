import { formatDateTime } from '../../../platform/time.js';
import type { CampaignRecord, CampaignRowRecord, RowCounts } from './repository.js';
import type { Campaign, CampaignDetails } from './schemas.js';

const instant = (ms: number | null) => (ms === null ? null : formatDateTime(ms));

/** A campaign on the wire (reference §5.5, `DocGenCampaignResponse`). */
export function presentCampaign(c: CampaignRecord): Campaign {
  return {
    id: c.id,
    title: c.title,
    document_generation_template_id: c.templateId,
    document_generation_template_version: c.templateVersion,
    output_action: c.outputAction,
    creator_ref: c.creatorRef,
    document_type_id: c.documentTypeId,
    status: c.status,
    started_at: instant(c.startedAt),
    ended_at: instant(c.endedAt),
    created_at: formatDateTime(c.createdAt),
    updated_at: formatDateTime(c.updatedAt),
  };
}

/** A campaign read with its rows (`GET …/{id}`). */
export interface CampaignView {
  campaign: CampaignRecord;
  counts: RowCounts;
  rows: CampaignRowRecord[];
}

/** `GET /document_generation_campaigns/{id}`: the campaign, its per-row counts and each row's outcome. */
export function presentCampaignDetails(view: CampaignView): CampaignDetails {
  return {
    ...presentCampaign(view.campaign),
    rows_total: view.counts.total,
    rows_generated: view.counts.generated,
    rows_failed: view.counts.failed,
    rows: view.rows.map((r) => ({
      index: r.index,
      employee_id: r.employeeId,
      ref: r.ref,
      status: r.status,
      error: r.error,
      document_id: r.documentId,
    })),
  };
}
