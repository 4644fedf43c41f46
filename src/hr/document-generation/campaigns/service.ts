import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { checkTenantCap } from '../../../platform/db/tenant-cap.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import type { OutputFormat } from '../../../platform/docgen/types.js';
import { type FieldError, FieldValidationError, NotFoundError, StateError } from '../../../platform/errors.js';
import { enqueue } from '../../../platform/jobs/index.js';
import { type Clock, dayOf } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { DocumentsRepository } from '../../documents/documents/repository.js';
import type { Audited } from '../../module.js';
import { CONTENT_TYPES, type DocgenFile } from '../downloads.js';
import { generationTarget, unknownFragments } from '../generations/compose.js';
import type { TemplatesRepository } from '../templates/repository.js';
import { campaignEvents } from './events.js';
import { type CampaignView, presentCampaign } from './present.js';
import type { CampaignFilter, CampaignRecord, CampaignsRepository, NewRow } from './repository.js';
import type { CampaignPayload } from './schemas.js';

/** The repositories a campaign touches: its own, the templates it generates from, the documents it files. */
export interface CampaignsWork {
  campaigns: CampaignsRepository;
  templates: TemplatesRepository;
  documents: DocumentsRepository;
  uploads: UploadsRepository;
}

export const CAMPAIGN_QUEUE = 'document-generation-campaign';

export interface CampaignJob {
  clientId: HrTenantId;
  campaignId: string;
}

/** A campaign of the client, or not found. */
export async function campaignById(repo: CampaignsRepository, clientId: HrTenantId, id: string) {
  const found = await repo.find(clientId, id.toLowerCase());
  if (!found) throw new NotFoundError('document generation campaign', id);
  return found;
}

export function eventOf(c: CampaignRecord) {
  return { id: c.id, name: c.title, data: presentCampaign(c) };
}

/**
 * Document generation campaigns (reference §5.5): one document per row of a dataset, generated in the background by
 * a durable job (job.ts), then one zip or one PDF of them all, or each filed as an employee document.
 */
export class CampaignsService {
  private readonly repo: CampaignsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<CampaignsWork>>,
    private readonly deps: {
      clock: Clock;
      blobs: BlobStore;
      wakeJobs: () => void;
      /** `ATRIUM_MAX_CONCURRENT_CAMPAIGNS`: one more while this many run is 429, and writes nothing. */
      maxConcurrent: number;
    },
  ) {
    this.repo = work.read.campaigns;
  }

  list(clientId: HrTenantId, filter: CampaignFilter, request: PageRequest): Promise<Page<CampaignRecord>> {
    return this.repo.page(clientId, filter, request);
  }

  async get(clientId: HrTenantId, id: string): Promise<CampaignView> {
    const campaign = await campaignById(this.repo, clientId, id);
    const [counts, rows] = [await this.repo.counts(clientId, campaign.id), await this.repo.rows(clientId, campaign.id)];
    return { campaign, counts, rows };
  }

  /**
   * What each row is generated as: PDF for `pdf` and `archive`; for `zip`, DOCX (the template's own format, which
   * the reader can still edit), or PDF when the version is generated in PDF only.
   */
  private async check(clientId: HrTenantId, input: CampaignPayload) {
    const target = (format: OutputFormat) =>
      generationTarget(this.work.read.templates, clientId, {
        templateId: input.document_generation_template_id.toLowerCase(),
        version: input.document_generation_template_version,
        format,
        today: dayOf(this.deps.clock.now()),
      });
    const asked: OutputFormat = input.output_action === 'zip' ? 'DOCX' : 'PDF';
    // A version's formats are answered as the campaign's `output_action`.
    const renamed = (error: unknown) =>
      error instanceof FieldValidationError
        ? new FieldValidationError(
            error.fields.map((f) => (f.field === 'output_format' ? { ...f, field: 'output_action' } : f)),
          )
        : error;
    let found: Awaited<ReturnType<typeof target>>;
    try {
      found = await target(asked);
    } catch (error) {
      if (!(error instanceof FieldValidationError) || asked !== 'DOCX') throw renamed(error);
      found = await target('PDF').catch((e: unknown) => Promise.reject(renamed(e)));
    }
    const errors: FieldError[] = input.data.flatMap((row, i) =>
      unknownFragments(found.version.fragmentMapping, row.fragment_fields).map((e) => ({
        ...e,
        field: `data.${i}.${e.field}`,
      })),
    );
    if (input.output_action === 'archive') {
      if (input.document_type_id === undefined) {
        errors.push({
          field: 'document_type_id',
          code: 'required',
          message: 'An archive campaign files documents of a type.',
        });
      } else if (!(await this.work.read.documents.documentType(clientId, 'employee', input.document_type_id))) {
        errors.push({
          field: 'document_type_id',
          code: 'not_found',
          message: 'No employee document type has this id.',
        });
      }
      input.data.forEach((row, i) => {
        if (row.employee_id === undefined) {
          errors.push({
            field: `data.${i}.employee_id`,
            code: 'required',
            message: 'An archive row names its employee.',
          });
        }
      });
    }
    if (errors.length) throw new FieldValidationError(errors);
    return { version: found.version.version, format: found.version.outputFormats.includes(asked) ? asked : 'PDF' };
  }

  /** `POST /document_generation_campaigns`: the campaign (`created`) and its rows, and the job that runs it. */
  async create(clientId: HrTenantId, input: CampaignPayload): Promise<CampaignRecord> {
    const target = await this.check(clientId, input);
    const id = randomUUID();
    const at = this.deps.clock.now();
    const rows: NewRow[] = input.data.map((row) => ({
      employeeId: row.employee_id ?? null,
      ref: row.ref ?? null,
      data: {
        fields: row.fields,
        fragmentFields: Object.entries(row.fragment_fields ?? {}).map(([slug, fields]) => ({ slug, fields })),
      },
    }));
    const cap = { what: 'campaigns', limit: this.deps.maxConcurrent, setting: 'ATRIUM_MAX_CONCURRENT_CAMPAIGNS' };
    const record = await this.work.run(async (tx) => {
      await checkTenantCap(tx.campaigns.db, clientId, cap, () => tx.campaigns.running(clientId));
      await tx.campaigns.insert(
        clientId,
        {
          id,
          title: input.title,
          templateId: input.document_generation_template_id.toLowerCase(),
          templateVersion: target.version,
          outputAction: input.output_action,
          format: target.format as 'DOCX' | 'PDF',
          creatorRef: input.creator_ref ?? null,
          documentTypeId: input.output_action === 'archive' ? (input.document_type_id ?? null) : null,
          status: 'created',
          rowCount: rows.length,
          createdAt: at,
        },
        rows,
      );
      const created = (await tx.campaigns.find(clientId, id)) as CampaignRecord;
      const job: CampaignJob = { clientId, campaignId: id };
      await enqueue(tx.campaigns.db, { queue: CAMPAIGN_QUEUE, tenant: clientId, payload: job }, this.deps.clock.wall());
      await tx.audit.record(clientId, campaignEvents, 'created', eventOf(created));
      return created;
    });
    afterWork(this.deps.wakeJobs);
    this.deps.wakeJobs();
    return record;
  }

  /**
   * `POST …/cancel` (an Atrium extension): a `created` or `in_progress` campaign is `canceled`; its job stops
   * before its next row, and lets go of the documents already generated. 422 `not_cancelable` otherwise.
   */
  async cancel(clientId: HrTenantId, id: string): Promise<CampaignRecord> {
    return this.work.run(async (tx) => {
      const c = await campaignById(tx.campaigns, clientId, id);
      if (!(await tx.campaigns.cancel(clientId, c.id, this.deps.clock.now()))) {
        throw new StateError(
          'not_cancelable',
          `Only a created or in-progress campaign can be canceled (it is ${c.status}).`,
        );
      }
      const canceled = (await tx.campaigns.find(clientId, c.id)) as CampaignRecord;
      await tx.audit.record(clientId, campaignEvents, 'canceled', eventOf(canceled));
      return canceled;
    });
  }

  /** The campaign's file (the zip or the PDF): 404 until it is `completed`, and for `archive`. */
  async file(clientId: HrTenantId, id: string): Promise<DocgenFile> {
    const c = await campaignById(this.repo, clientId, id);
    if (c.status !== 'completed' || c.sha256 === null || c.size === null) {
      const why =
        c.outputAction === 'archive'
          ? 'An archive campaign files employee documents: it has no file of its own.'
          : `The campaign has no file until it is completed (it is ${c.status}).`;
      throw new NotFoundError('document generation campaign file', id, why);
    }
    const zip = c.outputAction === 'zip';
    return {
      sha256: c.sha256,
      size: c.size,
      contentType: zip ? 'application/zip' : CONTENT_TYPES.PDF,
      filename: `campaign-${c.id.slice(0, 8)}.${zip ? 'zip' : 'pdf'}`,
    };
  }
}
