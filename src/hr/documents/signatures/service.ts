/**
 * Signature processes: their reads, and the writes of `/signature_processes` (create, update and its changes of
 * state, cancel, delete, send, archive). Signers, the signing itself and the runner's jobs have their own services.
 */
import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { enqueue } from '../../../platform/jobs/index.js';
import { type Clock, DAY_MS, dayOf } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import type { DocumentsService } from '../documents/service.js';
import { signatureEvents } from './events.js';
import type { SigningLinks } from './links.js';
import { type CallOrigin, inviteNext, mailSignedDocument } from './mail.js';
import { presentProcess } from './present.js';
import { processAttributes, processInput } from './process-input.js';
import { type ProcessJob, SIGNATURE_EXPIRY_QUEUE } from './queues.js';
import { invalid, recordProcess, type SignaturesWork } from './records.js';
import type { ProcessFilter, ProcessRecord, SignaturesRepository } from './repository.js';
import type {
  ProcessSortField,
  SignatureProcessCreate,
  SignatureProcessPatch,
  SignatureProcessPut,
} from './schemas.js';
import { CANCELABLE_STATES, DELETABLE_STATES } from './states.js';
import { type ProcessView, processView, processViews, stateOf } from './views.js';

const DELETABLE = DELETABLE_STATES;
const CANCELABLE = CANCELABLE_STATES;
/** Signing lasts two weeks unless `expiry_date` says otherwise. */
const DEFAULT_SIGNING_DAYS = 14;

/** The end of a day (midnight UTC after it), in epoch ms. */
function endOfDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) + DAY_MS;
}

/**
 * Electronic signature (reference §5.4; docs/hr-api.md, "Electronic signature"). Atrium is its own signing
 * backend: each signer signs (or refuses) on Atrium's signing page or through `POST /signers/{id}/sign`, in signing
 * order (signing-service.ts). Once all have signed, the process is `signed`; the runner stamps a signature block per
 * signer on the PDF with an audit page, and the process is `done` (jobs-service.ts). Expiry, the stamping and the
 * `callback_url` calls are background jobs, created in the transaction of the change that causes them. Mail goes to
 * the outbox.
 */
export class SignaturesService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<SignaturesWork>>,
    private readonly deps: {
      uploads: UploadsService;
      documents: DocumentsService;
      blobs: BlobStore;
      links: SigningLinks;
      clock: Clock;
      wakeJobs: () => void;
    },
  ) {}

  private get repo(): SignaturesRepository {
    return this.work.read.signatures;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  // --- reads -------------------------------------------------------------------------------------------------

  async list(
    clientId: HrTenantId,
    filter: Omit<ProcessFilter, 'now'>,
    request: PageRequest<ProcessSortField>,
  ): Promise<Page<ProcessView>> {
    const page = await this.repo.page(clientId, { ...filter, now: this.now() }, request);
    return { ...page, items: await processViews(this.repo, this.deps.clock, clientId, page.items) };
  }

  count(clientId: HrTenantId, filter: Omit<ProcessFilter, 'now'>): Promise<number> {
    return this.repo.count(clientId, { ...filter, now: this.now() });
  }

  get(clientId: HrTenantId, id: string): Promise<ProcessView> {
    return processView(this.repo, this.deps.clock, clientId, id);
  }

  /** The current PDF: signed, once someone has signed and the runner has stamped it; else as uploaded. */
  async file(clientId: HrTenantId, id: string): Promise<{ sha256: string; size: number; filename: string }> {
    const { process } = await this.get(clientId, id);
    return process.signedSha256 !== null
      ? { sha256: process.signedSha256, size: process.signedSize ?? 0, filename: process.filename }
      : { sha256: process.sha256, size: process.size, filename: process.filename };
  }

  // --- processes -------------------------------------------------------------------------------------------------

  async create(clientId: HrTenantId, input: SignatureProcessCreate): Promise<ProcessView> {
    const id = randomUUID();
    return this.work.run(async (tx) => {
      const { attrs, organizationIds } = await processAttributes(tx, this.deps.clock, clientId, input);
      const upload = await this.deps.uploads.consume(tx.uploads, clientId, input.upload_id, { field: 'upload_id' });
      if (upload.pageCount === null) {
        // Thrown inside the unit of work: the upload stays unconsumed.
        throw new FieldValidationError([
          {
            field: 'upload_id',
            code: 'invalid_type',
            message: `Only a PDF can be signed; this file is ${upload.contentType}. Convert it to PDF first.`,
          },
        ]);
      }
      const at = this.now();
      await tx.signatures.insert(
        clientId,
        {
          id,
          fileNumber: `SP-${id.slice(0, 8).toUpperCase()}`,
          file: { filename: upload.filename, sha256: upload.sha256, size: upload.size, pageCount: upload.pageCount },
        },
        attrs,
        organizationIds ?? [],
        at,
      );
      return recordProcess(tx, this.deps.clock, clientId, id, 'created');
    });
  }

  /** PUT replaces the attributes (absent ones take their defaults); PATCH changes only those sent. */
  async update(
    clientId: HrTenantId,
    id: string,
    input: SignatureProcessPut | SignatureProcessPatch,
    mode: 'put' | 'patch',
    call: CallOrigin,
  ): Promise<ProcessView> {
    return this.work.run(async (tx) => {
      const current = await tx.signatures.find(clientId, id);
      if (!current) throw new NotFoundError('signature process', id);
      const state = stateOf(current, this.now());
      const merged = (mode === 'put' ? input : { ...processInput(current), ...input }) as SignatureProcessPut;
      const { attrs, organizationIds } = await processAttributes(tx, this.deps.clock, clientId, merged, current);
      const before = processInput(current);
      const after = processInput({ ...current, ...attrs });
      // Once signing has started the document is fixed: only the state, the comment, the callback and the external
      // id may still change.
      const fixed = (v: SignatureProcessPut) => {
        const { cancellation_comment: _c, callback_url: _u, external_id: _e, state: _s, ...rest } = v;
        return JSON.stringify(rest);
      };
      const orgsChanged =
        organizationIds !== undefined &&
        JSON.stringify([...organizationIds].sort()) !==
          JSON.stringify(((await tx.signatures.organizationsOf(clientId, [id])).get(id) ?? []).map((o) => o.id));
      if (state !== 'draft' && (fixed(before) !== fixed(after) || orgsChanged)) {
        throw invalid(`A signature process can be changed only in draft; this one is ${state}.`);
      }
      const at = this.now();
      await tx.signatures.update(clientId, id, attrs, at);
      if (organizationIds !== undefined) await tx.signatures.setOrganizations(clientId, id, organizationIds);
      const target = input.state;
      if (target !== undefined && target !== state) {
        if (target === 'signing' && state === 'draft') {
          await this.startSigning(tx, clientId, id, call);
        } else if (target === 'canceled' && CANCELABLE.includes(state)) {
          await this.cancelIn(tx, clientId, id, attrs.cancellationComment);
        } else {
          throw invalid(
            `A signature process cannot go from ${state} to ${target}: set "signing" on a draft, or "canceled" on a draft, signing or signed process.`,
          );
        }
      }
      return recordProcess(tx, this.deps.clock, clientId, id, 'updated');
    });
  }

  /** Draft → signing: the first signers are invited, the expiry is set and its job queued. */
  private async startSigning(
    tx: Audited<SignaturesWork>,
    clientId: HrTenantId,
    id: string,
    call: CallOrigin,
  ): Promise<void> {
    const process = (await tx.signatures.find(clientId, id)) as ProcessRecord;
    const signers = (await tx.signatures.signersOf(clientId, [id])).get(id) ?? [];
    if (signers.length === 0) throw invalid('A signature process needs a signer before signing starts.');
    const at = this.now();
    const today = dayOf(at);
    if (process.expiryDate !== null && process.expiryDate <= today) {
      throw invalid(`The expiry_date ${process.expiryDate} has passed: set a later one first.`);
    }
    const expiryDate = process.expiryDate ?? dayOf(at + DEFAULT_SIGNING_DAYS * DAY_MS);
    const expiresAt = endOfDay(expiryDate);
    await tx.signatures.transition(
      clientId,
      id,
      ['draft'],
      { state: 'signing', expiryDate, expiresAt, signingStartedAt: at },
      at,
    );
    await inviteNext(tx, this.deps, clientId, process, signers, call);
    // Due when the process expires in the client's time; a clock moved forward brings the job forward with it
    // (admin/clocks), and the job checks the client's time again when it runs.
    await enqueue(
      tx.signatures.db,
      {
        queue: SIGNATURE_EXPIRY_QUEUE,
        tenant: clientId,
        payload: { clientId, processId: id } satisfies ProcessJob,
        runAt: this.deps.clock.wall() + (expiresAt - at),
        maxAttempts: 10_000,
      },
      this.deps.clock.wall(),
    );
    afterWork(this.deps.wakeJobs);
    await recordProcess(tx, this.deps.clock, clientId, id, 'signing');
  }

  private async cancelIn(
    tx: Audited<SignaturesWork>,
    clientId: HrTenantId,
    id: string,
    comment: string | null,
  ): Promise<void> {
    const at = this.now();
    const moved = await tx.signatures.transition(
      clientId,
      id,
      CANCELABLE,
      { state: 'canceled', cancellationComment: comment },
      at,
    );
    if (!moved) throw invalid('The signature process can no longer be canceled.');
    await recordProcess(tx, this.deps.clock, clientId, id, 'canceled');
  }

  /** `POST /signature_processes/cancel`: all or nothing. */
  async cancelMany(clientId: HrTenantId, ids: readonly string[], comment: string | null): Promise<ProcessView[]> {
    return this.work.run(async (tx) => {
      const found = await tx.signatures.findMany(clientId, ids);
      const byId = new Map(found.map((p) => [p.id, p]));
      const at = this.now();
      const unknown = ids.filter((id) => !byId.has(id));
      if (unknown.length > 0)
        throw invalid(`No signature process has these ids: ${unknown.join(', ')}. None was canceled.`);
      const refused = found.filter((p) => !CANCELABLE.includes(stateOf(p, at)));
      if (refused.length > 0) {
        throw invalid(
          `These signature processes cannot be canceled (only draft, signing and signed ones can): ${refused
            .map((p) => `${p.id} (${stateOf(p, at)})`)
            .join(', ')}. None was canceled.`,
        );
      }
      const views: ProcessView[] = [];
      for (const id of ids) {
        await this.cancelIn(tx, clientId, id, comment);
        views.push(await processView(tx.signatures, this.deps.clock, clientId, id));
      }
      return views;
    });
  }

  async delete(clientId: HrTenantId, id: string): Promise<void> {
    const blobs = await this.work.run(async (tx) => {
      const view = await processView(tx.signatures, this.deps.clock, clientId, id);
      if (!DELETABLE.includes(view.state)) {
        throw invalid(
          `A signature process can be deleted only when ${DELETABLE.join(', ')}; this one is ${view.state}.`,
        );
      }
      await tx.audit.record(clientId, signatureEvents, 'deleted', {
        id,
        name: view.process.title,
        data: presentProcess(view),
      });
      await tx.signatures.delete(clientId, id);
      return [view.process.sha256, view.process.signedSha256].filter((s): s is string => s !== null);
    });
    for (const sha256 of blobs) await this.deps.blobs.deleteIfUnreferenced(sha256);
  }

  /** `POST /signature_processes/{id}/send`: mails the signed document to every signer. */
  async send(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const view = await processView(tx.signatures, this.deps.clock, clientId, id);
      if (view.state !== 'done') {
        throw invalid(`The signed document can be sent once the process is done; this one is ${view.state}.`);
      }
      await mailSignedDocument(tx, this.deps.clock, clientId, view, view.signers);
    });
  }

  /** `POST /signature_processes/{id}/archive`: files the signed PDF as a document of the employee who signed it. */
  async archive(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const view = await processView(tx.signatures, this.deps.clock, clientId, id);
      const { process } = view;
      if (view.state !== 'done') {
        throw invalid(`A signature process can be archived once it is done; this one is ${view.state}.`);
      }
      if (process.archivedDocumentId !== null) return;
      if (process.documentTypeId === null) {
        throw invalid('Set the process’s document_type_id before archiving it: the document is filed under it.');
      }
      const employeeId =
        view.signers.find((s) => s.type === 'employee' && s.employeeId !== null)?.employeeId ??
        process.notifyEmployeeIds[0];
      if (!employeeId) {
        throw invalid('The process has no employee signer (nor an employee in notify_employee_ids) to file it for.');
      }
      const documentId = await this.deps.documents.fileGenerated(tx, clientId, {
        employeeId,
        documentTypeId: process.documentTypeId,
        title: process.title,
        filename: process.filename,
        sha256: process.signedSha256 ?? process.sha256,
        size: process.signedSize ?? process.size,
        pageCount: null,
        date: process.documentDate,
        metadata: process.documentMetadata,
        origin: 'signature',
        organizationIds: view.organizations.map((o) => o.id),
      });
      await tx.signatures.transition(clientId, id, ['done'], { archivedDocumentId: documentId }, this.now());
      await recordProcess(tx, this.deps.clock, clientId, id, 'archived');
    });
  }
}
