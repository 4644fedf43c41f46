import { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import type { DocgenEngine } from '../../../platform/docgen/types.js';
import type { ZipEntry } from '../../../platform/docgen/zip.js';
import { DomainError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { type Clock, dayOf } from '../../../platform/time.js';
import type { DocumentsService } from '../../documents/documents/service.js';
import type { Audited } from '../../module.js';
import { CONTENT_TYPES } from '../downloads.js';
import {
  engineInput,
  finishOutcome,
  type Generated,
  generationTarget,
  type OfficeConverter,
} from '../generations/compose.js';
import { campaignEvents } from './events.js';
import type { CampaignRecord, CampaignRowRecord, RowData } from './repository.js';
import { type CampaignJob, type CampaignsWork, eventOf } from './service.js';

/** What the job needs besides the database: the engine, and the workers that zip and join the documents. */
export interface CampaignJobDeps {
  clock: Clock;
  blobs: BlobStore;
  engine: DocgenEngine;
  office: OfficeConverter;
  documents: DocumentsService;
  /** One zip of the files (the docgen worker's `zip`). */
  zip(entries: readonly ZipEntry[]): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: 'limits' }>;
  /** One PDF of the PDFs (the PDF worker's `concat`). */
  concat(parts: readonly Uint8Array[]): Promise<{ pdf: Uint8Array; pages: number } | 'unreadable' | 'limits'>;
}

/** What the job runner gives a running attempt (platform/jobs `JobContext`). */
export interface RunControl {
  signal: AbortSignal;
  heartbeat(): Promise<boolean>;
  leaseMs: number;
}

type Target = Awaited<ReturnType<typeof generationTarget>>;

/** A row's failure as its `error` says it. */
function failureOf(error: DomainError): string {
  if (error instanceof FieldValidationError && error.fields.length > 0) {
    return error.fields.map((f) => `${f.field}: ${f.message}`).join('; ');
  }
  return error.message;
}

/** A row's file name in the zip, or in the employee's documents: `<index+1>-<ref or employee_id>.<ext>`. */
function fileName(row: CampaignRowRecord, format: 'DOCX' | 'PDF'): string {
  const label = row.ref ?? row.employeeId;
  return `${row.index + 1}${label ? `-${label}` : ''}.${format.toLowerCase()}`;
}

/**
 * The job of a campaign (queue `document-generation-campaign`): `in_progress`, then each `pending` row in order,
 * one at a time through the engine, each row's outcome committed on its own (`generated` with its document, or
 * filed as an employee document, or `failed` with why; the others go on); then the zip or the PDF of the generated
 * rows, which takes their documents' place. Killed half-way, it runs again and goes on with the rows still
 * `pending`: a row's update is conditional on `pending`, in the transaction that attaches its document, so each row
 * is generated once. A `canceled` campaign stops before its next row.
 */
export class CampaignJobs {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<CampaignsWork>>,
    private readonly deps: CampaignJobDeps,
  ) {}

  async run(job: CampaignJob, control: RunControl): Promise<void> {
    const { clientId, campaignId } = job;
    const repo = this.work.read.campaigns;
    if (!(await this.work.run((tx) => tx.campaigns.start(clientId, campaignId, this.deps.clock.now())))) {
      // Ended (or canceled) already: only the rows' documents may still be let go of.
      await this.release(clientId, campaignId);
      return;
    }
    const campaign = (await repo.find(clientId, campaignId)) as CampaignRecord;
    const target = await generationTarget(this.work.read.templates, clientId, {
      templateId: campaign.templateId,
      version: campaign.templateVersion,
      format: campaign.format,
      today: dayOf(this.deps.clock.now()),
    }).catch((error: unknown) => {
      // The template was disabled or changed since: every row fails with why.
      if (error instanceof DomainError) return error;
      throw error;
    });
    let beat = performance.now();
    for (;;) {
      if (control.signal.aborted) throw new Error('the campaign job lost its claim');
      const current = await repo.find(clientId, campaignId);
      if (current?.status !== 'in_progress') {
        await this.release(clientId, campaignId);
        return;
      }
      const row = await repo.nextPending(clientId, campaignId);
      if (!row) break;
      await this.generateRow(clientId, campaign, target, row);
      if (performance.now() - beat > control.leaseMs / 4) {
        beat = performance.now();
        if (!(await control.heartbeat())) return;
      }
    }
    await this.finish(clientId, campaign);
  }

  /**
   * The job failed for good (its attempts spent by errors that were not the rows', or by processes that died): in
   * that transaction the campaign ends `failed`, audited, so that it no longer counts as running. Rows generated
   * before keep their documents.
   */
  async gaveUp(job: CampaignJob, trx: Transaction<Tables>): Promise<void> {
    const tx = this.work.on(trx).read;
    if (!(await tx.campaigns.giveUp(job.clientId, job.campaignId, this.deps.clock.now()))) return;
    const ended = (await tx.campaigns.find(job.clientId, job.campaignId)) as CampaignRecord;
    await tx.audit.record(job.clientId, campaignEvents, 'failed', eventOf(ended));
  }

  private async generateRow(
    clientId: HrTenantId,
    c: CampaignRecord,
    target: Target | DomainError,
    row: CampaignRowRecord & RowData,
  ): Promise<void> {
    let generated: Generated;
    let organizationIds: string[] = [];
    try {
      if (target instanceof DomainError) throw target;
      if (c.outputAction === 'archive') {
        const employee = await this.work.read.documents.employee(clientId, { id: row.employeeId ?? '' });
        if (!employee) throw new NotFoundError('employee', row.employeeId ?? '', 'No employee has this id.');
        const active = employee.registrations.filter((r) => r.active);
        organizationIds = [...new Set((active.length ? active : employee.registrations).map((r) => r.organizationId))];
      }
      const payload = { fields: row.fields, fragmentFields: row.fragmentFields, emailRecipients: [] };
      const input = await engineInput(this.work.read.templates, this.deps.blobs, clientId, target, payload, {
        strict: false,
        format: c.format,
      });
      generated = await finishOutcome(await this.deps.engine.generate(input), c.format, this.deps.office);
    } catch (error) {
      // What the row, the template or the limits are to blame for fails the row; anything else retries the job.
      if (!(error instanceof DomainError)) throw error;
      const failure = failureOf(error);
      await this.work.run((tx) => tx.campaigns.rowFailed(clientId, c.id, row.index, failure, this.deps.clock.now()));
      return;
    }
    await this.store(clientId, c, row, generated, organizationIds);
  }

  /** The row's document, attached in the transaction that marks it generated (and files it, for `archive`). */
  private async store(
    clientId: HrTenantId,
    c: CampaignRecord,
    row: CampaignRowRecord,
    generated: Generated,
    organizationIds: string[],
  ): Promise<void> {
    const gone = new Error('the row is no longer pending');
    await this.deps.blobs
      .put(Readable.from([Buffer.from(generated.bytes)]), {
        attach: async (trx, blob) => {
          const tx = this.work.on(trx).read;
          const archive = c.outputAction === 'archive';
          const documentId = archive
            ? await this.deps.documents.fileGenerated(tx, clientId, {
                employeeId: row.employeeId as string,
                documentTypeId: c.documentTypeId as string,
                title: c.title,
                filename: fileName(row, c.format),
                sha256: blob.sha256,
                size: blob.size,
                pageCount: generated.pages,
                date: null,
                metadata: [],
                origin: 'api',
                originDetails: 'document_generation',
                contentType: CONTENT_TYPES[c.format],
                organizationIds,
              })
            : null;
          const result = { sha256: archive ? null : blob.sha256, documentId, at: this.deps.clock.now() };
          // Not pending any more (another attempt did it): nothing of this one is kept, the document filed included.
          if (!(await tx.campaigns.rowGenerated(clientId, c.id, row.index, result))) throw gone;
        },
      })
      .catch((error: unknown) => {
        if (error !== gone) throw error;
      });
  }

  /** The end: the zip or the PDF of the generated rows, `completed`; `failed` when no row was generated. */
  private async finish(clientId: HrTenantId, c: CampaignRecord): Promise<void> {
    const counts = await this.work.read.campaigns.counts(clientId, c.id);
    const file = counts.generated > 0 && c.outputAction !== 'archive' ? await this.combine(clientId, c) : null;
    const failed = counts.generated === 0 || (c.outputAction !== 'archive' && file === null);
    const end = async (tx: Audited<CampaignsWork>, blob: { sha256: string; size: number } | null) => {
      const status = failed ? 'failed' : 'completed';
      const at = this.deps.clock.now();
      const result = { status, sha256: blob?.sha256 ?? null, size: blob?.size ?? null, at } as const;
      // Canceled meanwhile: it stays canceled, and its file is not kept.
      if (!(await tx.campaigns.finish(clientId, c.id, result))) return;
      const ended = (await tx.campaigns.find(clientId, c.id)) as CampaignRecord;
      await tx.audit.record(clientId, campaignEvents, status, eventOf(ended));
    };
    if (file === null) await this.work.run((tx) => end(tx, null));
    else {
      await this.deps.blobs.put(Readable.from([Buffer.from(file)]), {
        attach: (trx, blob) => end(this.work.on(trx).read, blob),
      });
    }
    await this.release(clientId, c.id);
  }

  /** The generated rows' documents as one file: a zip, or one PDF; null when it cannot be made. */
  private async combine(clientId: HrTenantId, c: CampaignRecord): Promise<Uint8Array | null> {
    const files = await this.work.read.campaigns.generatedFiles(clientId, c.id);
    const parts: ZipEntry[] = [];
    for (const row of files) {
      parts.push({ name: fileName(row, c.format), bytes: await readBlob(this.deps.blobs, row.sha256 as string) });
    }
    if (c.outputAction === 'zip') {
      const zipped = await this.deps.zip(parts);
      return zipped.ok ? zipped.bytes : null;
    }
    const joined = await this.deps.concat(parts.map((p) => p.bytes));
    return typeof joined === 'object' ? joined.pdf : null;
  }

  /** Lets go of the rows' documents (the campaign's file holds them now, or it ended without one). */
  private async release(clientId: HrTenantId, campaignId: string): Promise<void> {
    const released = await this.work.run((tx) => tx.campaigns.releaseRows(clientId, campaignId));
    for (const sha256 of released) await this.deps.blobs.deleteIfUnreferenced(sha256);
  }
}
