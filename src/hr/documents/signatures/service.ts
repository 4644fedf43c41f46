import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import { enqueue, type Job, type JobHandler, type QueueOptions, type RetryHint } from '../../../platform/jobs/index.js';
import type { PdfWorker } from '../../../platform/pdf/runner.js';
import { hashSecret, verifySecret } from '../../../platform/security/secrets.js';
import { type Clock, dayOf, formatUtcStamp, parseDate } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { OutboxRepository } from '../../core/outbox/repository.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import type { DocumentsRepository } from '../documents/repository.js';
import type { DocumentsService } from '../documents/service.js';
import { signatureEvents, signerEvents } from './events.js';
import type { SigningLinks } from './links.js';
import { type NoLinks, presentProcess, presentSigner } from './present.js';
import type {
  MetadataValue,
  ProcessAttributes,
  ProcessFilter,
  ProcessRecord,
  SignaturesRepository,
  SignerAttributes,
  SignerRecord,
} from './repository.js';
import type {
  ProcessSortField,
  SignatureProcessCreate,
  SignatureProcessPatch,
  SignatureProcessPut,
  SignerCreate,
  SignerPatch,
  SignerPut,
} from './schemas.js';
import { CANCELABLE_STATES, DELETABLE_STATES } from './states.js';
import { findSignatureType } from './types.js';
import type { ProcessView, SignerView } from './views.js';

/** The repositories signature writes touch. */
export interface SignaturesWork {
  signatures: SignaturesRepository;
  uploads: UploadsRepository;
  documents: DocumentsRepository;
  outbox: OutboxRepository;
}

export const SIGNATURE_FINISH_QUEUE = 'signature_finish';
export const SIGNATURE_EXPIRY_QUEUE = 'signature_expiry';
export const SIGNATURE_CALLBACK_QUEUE = 'signature_callback';

const DELETABLE = DELETABLE_STATES;
const CANCELABLE = CANCELABLE_STATES;
/** Signing lasts two weeks unless `expiry_date` says otherwise. */
const DEFAULT_SIGNING_DAYS = 14;
const DAY_MS = 86_400_000;

/** What a callback carries: the process as `GET` shows it, without the signers' links. */
interface CallbackPayload {
  clientId: string;
  processId: string;
  url: string;
  body: string;
}

interface ProcessJob {
  clientId: string;
  processId: string;
}

/** What a process's change needs to know of the call: the server's own origin, for the signers' links in mail. */
export interface CallOrigin {
  origin: string;
}

const invalid = (message: string) => new InvalidRequestError(message);

/** The end of a day (midnight UTC after it), in epoch ms. */
function endOfDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) + DAY_MS;
}

function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`;
}

/**
 * Electronic signature (reference §5.4; docs/hr-api.md, "Electronic signature"). Atrium is its own signing
 * backend: each signer signs (or refuses) on Atrium's signing page or through `POST /signers/{id}/sign`, in signing
 * order. Once all have signed, the process is `signed`; the runner stamps a signature block per signer on the PDF
 * with an audit page, and the process is `done`. Expiry, the stamping and the `callback_url` calls are background
 * jobs, created in the transaction of the change that causes them. Mail goes to the outbox.
 */
export class SignaturesService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<SignaturesWork>>,
    private readonly deps: {
      uploads: UploadsService;
      documents: DocumentsService;
      blobs: BlobStore;
      pdf: PdfWorker;
      links: SigningLinks;
      clock: Clock;
      wakeJobs: () => void;
      /** How callbacks are sent (the webhooks' settings). */
      callbacks: {
        send(url: string, body: string): Promise<{ ok: boolean; error: string | null; retryAfterSeconds?: number }>;
        retryForMs: number;
      };
    },
  ) {}

  private get repo(): SignaturesRepository {
    return this.work.read.signatures;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  /** A process's state as of `at`. */
  private stateOf(process: ProcessRecord, at: number): string {
    return process.state === 'signing' && process.expiresAt !== null && process.expiresAt <= at
      ? 'expired'
      : process.state;
  }

  // --- reads -------------------------------------------------------------------------------------------------

  async list(
    clientId: string,
    filter: Omit<ProcessFilter, 'now'>,
    request: PageRequest<ProcessSortField>,
  ): Promise<Page<ProcessView>> {
    const page = await this.repo.page(clientId, { ...filter, now: this.now() }, request);
    return { ...page, items: await this.views(clientId, page.items) };
  }

  count(clientId: string, filter: Omit<ProcessFilter, 'now'>): Promise<number> {
    return this.repo.count(clientId, { ...filter, now: this.now() });
  }

  async get(clientId: string, id: string, repo = this.repo): Promise<ProcessView> {
    const process = await repo.find(clientId, id);
    if (!process) throw new NotFoundError('signature process', id);
    return (await this.views(clientId, [process], repo))[0] as ProcessView;
  }

  private async views(clientId: string, processes: ProcessRecord[], repo = this.repo): Promise<ProcessView[]> {
    const ids = processes.map((p) => p.id);
    const [signers, organizations, users] = await Promise.all([
      repo.signersOf(clientId, ids),
      repo.organizationsOf(clientId, ids),
      repo.usersNamed(
        clientId,
        processes.flatMap((p) => (p.senderId ? [p.senderId] : [])),
      ),
    ]);
    const at = this.now();
    return processes.map((process) => {
      const sender = process.senderId ? users.get(process.senderId) : undefined;
      return {
        process,
        state: this.stateOf(process, at),
        signers: signers.get(process.id) ?? [],
        organizations: organizations.get(process.id) ?? [],
        sender: sender && process.senderId ? { id: process.senderId, ...sender } : null,
      };
    });
  }

  /** The current PDF: signed, once someone has signed and the runner has stamped it; else as uploaded. */
  async file(clientId: string, id: string): Promise<{ sha256: string; size: number; filename: string }> {
    const { process } = await this.get(clientId, id);
    return process.signedSha256 !== null
      ? { sha256: process.signedSha256, size: process.signedSize ?? 0, filename: process.filename }
      : { sha256: process.sha256, size: process.size, filename: process.filename };
  }

  async signers(clientId: string, processId: string): Promise<SignerView[]> {
    const process = await this.repo.find(clientId, processId);
    if (!process) throw new NotFoundError('signature process', processId);
    const state = this.stateOf(process, this.now());
    return ((await this.repo.signersOf(clientId, [processId])).get(processId) ?? []).map((signer) => ({
      signer,
      processState: state,
      clientId,
    }));
  }

  async signer(clientId: string, id: string, repo = this.repo): Promise<SignerView> {
    const signer = await repo.findSigner(clientId, id);
    if (!signer) throw new NotFoundError('signer', id);
    const process = (await repo.find(clientId, signer.processId)) as ProcessRecord;
    return { signer, processState: this.stateOf(process, this.now()), clientId };
  }

  // --- processes -------------------------------------------------------------------------------------------------

  private async attributes(
    tx: Audited<SignaturesWork>,
    clientId: string,
    input: SignatureProcessPut | SignatureProcessCreate,
    current?: ProcessRecord,
  ): Promise<{ attrs: ProcessAttributes; organizationIds?: string[] }> {
    const errors: FieldError[] = [];
    if (!findSignatureType(input.signature_type_id)) {
      errors.push({ field: 'signature_type_id', code: 'not_found', message: 'No signature type has this id.' });
    }
    const attrs: ProcessAttributes = {
      signatureTypeId: input.signature_type_id,
      title: input.title,
      reason: input.reason,
      location: input.location ?? 'N/A',
      expiryDate: input.expiry_date ?? null,
      notifyOnSignature: input.notify_on_signature ?? false,
      notifyOnRefusal: input.notify_on_refusal ?? true,
      documentTypeId: input.document_type_id ?? null,
      documentMetadata: (input.document_metadata ?? []) as MetadataValue[],
      documentDate: input.document_date ?? null,
      cancellationComment: input.cancellation_comment ?? null,
      message: input.message ?? null,
      notifyEmployeeIds: input.notify_employee_ids ?? [],
      externalId: input.external_id ?? null,
      autoSend: input.auto_send ?? 'false',
      callbackUrl: input.callback_url ?? null,
      senderId: input.sender_id ?? null,
    };
    if (attrs.expiryDate !== null && attrs.expiryDate !== current?.expiryDate) {
      const day = parseDate(attrs.expiryDate);
      if (!day) {
        errors.push({ field: 'expiry_date', code: 'invalid', message: 'Must be a date: YYYY-MM-DD.' });
      } else if (attrs.expiryDate <= dayOf(this.now())) {
        errors.push({ field: 'expiry_date', code: 'invalid', message: 'Must be after today.' });
      }
    }
    if (
      attrs.documentTypeId !== null &&
      !(await tx.documents.documentType(clientId, 'employee', attrs.documentTypeId))
    ) {
      errors.push({ field: 'document_type_id', code: 'not_found', message: 'No employee document type has this id.' });
    }
    if (attrs.senderId !== null && !(await tx.signatures.existing(clientId, 'hr_users', [attrs.senderId])).size) {
      errors.push({ field: 'sender_id', code: 'not_found', message: 'No HR user has this id.' });
    }
    const employees = await tx.signatures.existing(clientId, 'hr_employees', attrs.notifyEmployeeIds);
    attrs.notifyEmployeeIds.forEach((id, i) => {
      if (!employees.has(id)) {
        errors.push({ field: `notify_employee_ids[${i}]`, code: 'not_found', message: 'No employee has this id.' });
      }
    });
    let organizationIds: string[] | undefined;
    if (input.document_organization_ids !== undefined) {
      organizationIds = [...new Set(input.document_organization_ids)];
      const found = await tx.signatures.existing(clientId, 'hr_organizations', organizationIds);
      input.document_organization_ids.forEach((id, i) => {
        if (!found.has(id)) {
          errors.push({
            field: `document_organization_ids[${i}]`,
            code: 'not_found',
            message: 'No organization has this id.',
          });
        }
      });
    }
    if (errors.length > 0) throw new FieldValidationError(errors);
    return organizationIds ? { attrs, organizationIds } : { attrs };
  }

  async create(clientId: string, input: SignatureProcessCreate): Promise<ProcessView> {
    const id = randomUUID();
    return this.work.run(async (tx) => {
      const { attrs, organizationIds } = await this.attributes(tx, clientId, input);
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
      return this.recordProcess(tx, clientId, id, 'created');
    });
  }

  /** PUT replaces the attributes (absent ones take their defaults); PATCH changes only those sent. */
  async update(
    clientId: string,
    id: string,
    input: SignatureProcessPut | SignatureProcessPatch,
    mode: 'put' | 'patch',
    call: CallOrigin,
  ): Promise<ProcessView> {
    return this.work.run(async (tx) => {
      const current = await tx.signatures.find(clientId, id);
      if (!current) throw new NotFoundError('signature process', id);
      const state = this.stateOf(current, this.now());
      const merged = (mode === 'put' ? input : { ...this.asInput(current), ...input }) as SignatureProcessPut;
      const { attrs, organizationIds } = await this.attributes(tx, clientId, merged, current);
      const before = this.asInput(current);
      const after = this.asInput({ ...current, ...attrs });
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
      return this.recordProcess(tx, clientId, id, 'updated');
    });
  }

  /** The process as an update payload, to merge a PATCH over and to compare. */
  private asInput(p: ProcessRecord): SignatureProcessPut {
    return {
      signature_type_id: p.signatureTypeId,
      title: p.title,
      reason: p.reason,
      location: p.location,
      expiry_date: p.expiryDate,
      notify_on_signature: p.notifyOnSignature,
      notify_on_refusal: p.notifyOnRefusal,
      document_type_id: p.documentTypeId,
      document_metadata: p.documentMetadata,
      document_date: p.documentDate,
      cancellation_comment: p.cancellationComment,
      message: p.message,
      notify_employee_ids: p.notifyEmployeeIds,
      external_id: p.externalId,
      auto_send: p.autoSend as 'true' | 'false',
      callback_url: p.callbackUrl,
      sender_id: p.senderId,
    };
  }

  private async recordProcess(
    tx: Audited<SignaturesWork>,
    clientId: string,
    id: string,
    action: (typeof signatureEvents)['actions'][number],
  ): Promise<ProcessView> {
    const view = await this.get(clientId, id, tx.signatures);
    await tx.audit.record(clientId, signatureEvents, action, {
      id,
      name: view.process.title,
      data: presentProcess(view),
    });
    return view;
  }

  private async recordSigner(
    tx: Audited<SignaturesWork>,
    clientId: string,
    id: string,
    action: (typeof signerEvents)['actions'][number],
  ): Promise<SignerView> {
    const view = await this.signer(clientId, id, tx.signatures);
    await tx.audit.record(clientId, signerEvents, action, {
      id,
      name: fullName(view.signer),
      // Events never carry a signer's link: it lets whoever holds it sign.
      data: presentSigner(view, NO_LINKS),
    });
    return view;
  }

  /** Draft → signing: the first signers are invited, the expiry is set and its job queued. */
  private async startSigning(
    tx: Audited<SignaturesWork>,
    clientId: string,
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
    await this.inviteNext(tx, clientId, process, signers, call);
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
    await this.recordProcess(tx, clientId, id, 'signing');
  }

  /** Moves the lowest signing order still pending to `in_progress`, and mails their invitations. */
  private async inviteNext(
    tx: Audited<SignaturesWork>,
    clientId: string,
    process: ProcessRecord,
    signers: SignerRecord[],
    call: CallOrigin,
  ): Promise<void> {
    const pending = signers.filter((s) => s.state === 'pending');
    if (pending.length === 0) return;
    const order = Math.min(...pending.map((s) => s.signingOrder));
    const at = this.now();
    await tx.signatures.setSignersState(clientId, process.id, ['pending'], 'in_progress', at, order);
    const invited = pending.filter((s) => s.signingOrder === order);
    await tx.outbox.insert(
      clientId,
      invited.map((s) => ({
        id: randomUUID(),
        kind: 'signature.invitation',
        toAddress: s.emailAddress,
        toName: fullName(s),
        subject: `Please sign: ${process.title}`,
        body: [
          `Hello ${fullName(s)},`,
          '',
          `You are asked to sign "${process.title}" (${process.reason}).`,
          ...(process.message ? ['', process.message] : []),
          ...(s.message ? ['', s.message] : []),
          '',
          `Sign or refuse it here: ${this.urlOf(call, clientId, s.id)}`,
          `It can be signed until ${process.expiryDate ?? 'the end of signing'}.`,
        ].join('\n'),
        relatedId: s.id,
      })),
      at,
    );
  }

  private urlOf(call: CallOrigin, clientId: string, signerId: string): string {
    return `${call.origin}${this.signingPath(clientId, signerId)}`;
  }

  /**
   * What a signer's link opens (the signing page): the signer and their process, in the client's time, or
   * undefined for a link that is malformed, altered, or whose signer is gone.
   */
  async openLink(token: string): Promise<{ clientId: string; signer: SignerView; process: ProcessView } | undefined> {
    const opened = this.deps.links.open(token);
    if (!opened) return undefined;
    const { clientId, signerId } = opened;
    return this.deps.clock.runAs(`hr:${clientId}`, async () => {
      const signer = await this.repo.findSigner(clientId, signerId);
      if (!signer) return undefined;
      return {
        clientId,
        signer: await this.signer(clientId, signerId),
        process: await this.get(clientId, signer.processId),
      };
    });
  }

  /** Runs `work` in the time of the client a signer's link names. */
  inClientTime<T>(clientId: string, work: () => Promise<T>): Promise<T> {
    return this.deps.clock.runAs(`hr:${clientId}`, work);
  }

  /** The path of a signer's page (under the HR API's prefix, where its routes are served). */
  signingPath(clientId: string, signerId: string): string {
    return `/api/v2/client/signing/${this.deps.links.token(clientId, signerId)}`;
  }

  private async cancelIn(
    tx: Audited<SignaturesWork>,
    clientId: string,
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
    await this.recordProcess(tx, clientId, id, 'canceled');
  }

  /** `POST /signature_processes/cancel`: all or nothing. */
  async cancelMany(clientId: string, ids: readonly string[], comment: string | null): Promise<ProcessView[]> {
    return this.work.run(async (tx) => {
      const found = await tx.signatures.findMany(clientId, ids);
      const byId = new Map(found.map((p) => [p.id, p]));
      const at = this.now();
      const unknown = ids.filter((id) => !byId.has(id));
      if (unknown.length > 0)
        throw invalid(`No signature process has these ids: ${unknown.join(', ')}. None was canceled.`);
      const refused = found.filter((p) => !CANCELABLE.includes(this.stateOf(p, at)));
      if (refused.length > 0) {
        throw invalid(
          `These signature processes cannot be canceled (only draft, signing and signed ones can): ${refused
            .map((p) => `${p.id} (${this.stateOf(p, at)})`)
            .join(', ')}. None was canceled.`,
        );
      }
      const views: ProcessView[] = [];
      for (const id of ids) {
        await this.cancelIn(tx, clientId, id, comment);
        views.push(await this.get(clientId, id, tx.signatures));
      }
      return views;
    });
  }

  async delete(clientId: string, id: string): Promise<void> {
    const blobs = await this.work.run(async (tx) => {
      const view = await this.get(clientId, id, tx.signatures);
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
  async send(clientId: string, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const view = await this.get(clientId, id, tx.signatures);
      if (view.state !== 'done') {
        throw invalid(`The signed document can be sent once the process is done; this one is ${view.state}.`);
      }
      await this.mailSignedDocument(tx, clientId, view, view.signers);
    });
  }

  private async mailSignedDocument(
    tx: Audited<SignaturesWork>,
    clientId: string,
    view: ProcessView,
    to: SignerRecord[],
  ): Promise<void> {
    await tx.outbox.insert(
      clientId,
      to.map((s) => ({
        id: randomUUID(),
        kind: 'signature.signed_document',
        toAddress: s.emailAddress,
        toName: fullName(s),
        subject: `Signed: ${view.process.title}`,
        body: `Hello ${fullName(s)},\n\n"${view.process.title}" is signed by everyone. The signed document (${view.process.filename}, file number ${view.process.fileNumber}) is attached.`,
        relatedId: s.id,
      })),
      this.now(),
    );
  }

  /** `POST /signature_processes/{id}/archive`: files the signed PDF as a document of the employee who signed it. */
  async archive(clientId: string, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const view = await this.get(clientId, id, tx.signatures);
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
      await this.recordProcess(tx, clientId, id, 'archived');
    });
  }

  // --- signers ----------------------------------------------------------------------------------------------------

  private signerAttributes(input: SignerPut, current?: SignerRecord): SignerAttributes {
    return {
      firstName: input.first_name,
      lastName: input.last_name,
      type: input.type ?? 'external',
      signaturePositions: input.signature_positions ?? [],
      userId: input.user_id ?? null,
      employeeId: input.employee_id ?? null,
      language: input.language ?? null,
      emailAddress: input.email_address ?? null,
      mobilePhoneNumber: input.mobile_phone_number ?? null,
      signingOrder: input.signing_order ?? 1,
      accessCodeHash:
        input.access_code === undefined
          ? (current?.accessCodeHash ?? null)
          : input.access_code === null || input.access_code === ''
            ? null
            : hashSecret(input.access_code),
      smsNotification: input.sms_notification ?? false,
      twoFactorAuth: input.two_factor_auth ?? null,
      message: input.message ?? null,
      sendSignedDocument: input.send_signed_document ?? false,
    };
  }

  private async checkSigner(tx: Audited<SignaturesWork>, clientId: string, attrs: SignerAttributes): Promise<void> {
    const errors: FieldError[] = [];
    if (attrs.userId !== null && !(await tx.signatures.existing(clientId, 'hr_users', [attrs.userId])).size) {
      errors.push({ field: 'user_id', code: 'not_found', message: 'No HR user has this id.' });
    }
    if (
      attrs.employeeId !== null &&
      !(await tx.signatures.existing(clientId, 'hr_employees', [attrs.employeeId])).size
    ) {
      errors.push({ field: 'employee_id', code: 'not_found', message: 'No employee has this id.' });
    }
    if (attrs.type === 'employee' && attrs.employeeId === null) {
      errors.push({ field: 'employee_id', code: 'required', message: 'An employee signer needs its employee_id.' });
    }
    if (attrs.type === 'user' && attrs.userId === null) {
      errors.push({ field: 'user_id', code: 'required', message: 'A user signer needs its user_id.' });
    }
    if (errors.length > 0) throw new FieldValidationError(errors);
  }

  /** The process a signer change belongs to, which must be a draft. */
  private async draftOf(tx: Audited<SignaturesWork>, clientId: string, processId: string, field?: string) {
    const process = await tx.signatures.find(clientId, processId);
    if (!process) {
      if (field) {
        throw new FieldValidationError([{ field, code: 'not_found', message: 'No signature process has this id.' }]);
      }
      throw new NotFoundError('signature process', processId);
    }
    const state = this.stateOf(process, this.now());
    if (state !== 'draft') throw invalid(`Signers can be changed only while the process is a draft; it is ${state}.`);
    return process;
  }

  async createSigner(clientId: string, input: SignerCreate): Promise<SignerView> {
    const id = randomUUID();
    return this.work.run(async (tx) => {
      await this.draftOf(tx, clientId, input.signature_process_id, 'signature_process_id');
      const attrs = this.signerAttributes(input);
      await this.checkSigner(tx, clientId, attrs);
      await tx.signatures.insertSigner(clientId, id, input.signature_process_id, attrs, this.now());
      return this.recordSigner(tx, clientId, id, 'created');
    });
  }

  async updateSigner(
    clientId: string,
    id: string,
    input: SignerPut | SignerPatch,
    mode: 'put' | 'patch',
  ): Promise<SignerView> {
    return this.work.run(async (tx) => {
      const current = await tx.signatures.findSigner(clientId, id);
      if (!current) throw new NotFoundError('signer', id);
      await this.draftOf(tx, clientId, current.processId);
      const merged = (mode === 'put' ? input : { ...this.signerInput(current), ...input }) as SignerPut;
      const attrs = this.signerAttributes(merged, current);
      await this.checkSigner(tx, clientId, attrs);
      await tx.signatures.updateSigner(clientId, id, attrs, this.now());
      return this.recordSigner(tx, clientId, id, 'updated');
    });
  }

  /** The signer as a PUT body (what its answer shows a client may set), to merge a PATCH over. */
  private signerInput(signer: SignerRecord): SignerPut {
    const {
      id: _id,
      signature_process_id: _process,
      access_code: _code,
      signing_url: _url,
      signed_at: _at,
      state: _state,
      ...settable
    } = presentSigner({ signer, processState: 'draft', clientId: '' }, NO_LINKS);
    return settable;
  }

  async deleteSigner(clientId: string, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const current = await tx.signatures.findSigner(clientId, id);
      if (!current) throw new NotFoundError('signer', id);
      await this.draftOf(tx, clientId, current.processId);
      await this.recordSigner(tx, clientId, id, 'deleted');
      await tx.signatures.deleteSigner(clientId, id);
    });
  }

  /** `POST /signers/remind` and `/signers/{id}/remind`: each signer must be `in_progress`; all or nothing. */
  async remind(clientId: string, ids: readonly string[], call: CallOrigin): Promise<void> {
    await this.work.run(async (tx) => {
      const found = await tx.signatures.findSigners(clientId, ids);
      const byId = new Map(found.map((s) => [s.id, s]));
      const unknown = ids.filter((id) => !byId.has(id));
      if (unknown.length > 0) {
        if (ids.length === 1) throw new NotFoundError('signer', ids[0] as string);
        throw invalid(`No signer has these ids: ${unknown.join(', ')}. Nobody was reminded.`);
      }
      const at = this.now();
      const processes = new Map(
        (await tx.signatures.findMany(clientId, [...new Set(found.map((s) => s.processId))])).map((p) => [p.id, p]),
      );
      const refused = found.filter(
        (s) => s.state !== 'in_progress' || this.stateOf(processes.get(s.processId) as ProcessRecord, at) !== 'signing',
      );
      if (refused.length > 0) {
        throw invalid(
          `Only a signer whose turn it is (in_progress) can be reminded: ${refused
            .map((s) => `${s.id} (${s.state})`)
            .join(', ')}. Nobody was reminded.`,
        );
      }
      await tx.outbox.insert(
        clientId,
        ids.map((id) => {
          const s = byId.get(id) as SignerRecord;
          const process = processes.get(s.processId) as ProcessRecord;
          return {
            id: randomUUID(),
            kind: 'signature.reminder',
            toAddress: s.emailAddress,
            toName: fullName(s),
            subject: `Reminder: please sign ${process.title}`,
            body: `Hello ${fullName(s)},\n\n"${process.title}" is waiting for your signature until ${process.expiryDate}.\n\nSign or refuse it here: ${this.urlOf(call, clientId, s.id)}`,
            relatedId: s.id,
          };
        }),
        at,
      );
    });
  }

  /**
   * A signer signs (the signing page, or `POST /signers/{id}/sign`): in their turn, while the process is signing,
   * with their access code when they have one. The next signing order is invited once this one has signed; after
   * the last signature the process is `signed` and the runner makes the signed PDF.
   */
  async sign(
    clientId: string,
    id: string,
    input: { name: string; access_code?: string | undefined },
    call: CallOrigin,
  ): Promise<SignerView> {
    return this.work.run(async (tx) => {
      const { signer, process } = await this.turnOf(tx, clientId, id, input.access_code);
      const at = this.now();
      const moved = await tx.signatures.signerTransition(
        clientId,
        id,
        'in_progress',
        { state: 'signed', signedAt: at, signatureName: input.name },
        at,
      );
      if (!moved) throw invalid('This signer has already signed or refused.');
      const signers = (await tx.signatures.signersOf(clientId, [process.id])).get(process.id) ?? [];
      if (process.notifyOnSignature)
        await this.mailSender(tx, clientId, process, 'signature.signed', `${fullName(signer)} signed`);
      if (signers.every((s) => s.state === 'signed')) {
        await tx.signatures.transition(clientId, process.id, ['signing'], { state: 'signed' }, at);
        await this.recordProcess(tx, clientId, process.id, 'signed');
      } else if (!signers.some((s) => s.state === 'in_progress')) {
        await this.inviteNext(tx, clientId, process, signers, call);
      }
      // The current PDF gets this signature's block (and, after the last one, the audit page) from the runner.
      await enqueue(
        tx.signatures.db,
        {
          queue: SIGNATURE_FINISH_QUEUE,
          tenant: clientId,
          orderingKey: `signature:${process.id}`,
          payload: { clientId, processId: process.id } satisfies ProcessJob,
        },
        this.deps.clock.wall(),
      );
      afterWork(this.deps.wakeJobs);
      return this.recordSigner(tx, clientId, id, 'signed');
    });
  }

  /** A signer refuses, with a comment: the process is `rejected`, and its callback called. */
  async refuse(
    clientId: string,
    id: string,
    input: { comment: string; access_code?: string | undefined },
  ): Promise<SignerView> {
    return this.work.run(async (tx) => {
      const { signer, process } = await this.turnOf(tx, clientId, id, input.access_code);
      if (!findSignatureType(process.signatureTypeId)?.signer_can_reject) {
        throw invalid('Signers of this signature type cannot refuse.');
      }
      const at = this.now();
      const moved = await tx.signatures.signerTransition(
        clientId,
        id,
        'in_progress',
        { state: 'rejected', refusalComment: input.comment },
        at,
      );
      if (!moved) throw invalid('This signer has already signed or refused.');
      await tx.signatures.transition(clientId, process.id, ['signing'], { state: 'rejected' }, at);
      if (process.notifyOnRefusal) {
        await this.mailSender(
          tx,
          clientId,
          process,
          'signature.refused',
          `${fullName(signer)} refused: ${input.comment}`,
        );
      }
      const view = await this.recordProcess(tx, clientId, process.id, 'rejected');
      await this.queueCallback(tx, clientId, view);
      return this.recordSigner(tx, clientId, id, 'refused');
    });
  }

  /** The signer, if it is their turn in a process that is signing; else a 400 that says why. */
  private async turnOf(
    tx: Audited<SignaturesWork>,
    clientId: string,
    id: string,
    accessCode: string | undefined,
  ): Promise<{ signer: SignerRecord; process: ProcessRecord }> {
    const signer = await tx.signatures.findSigner(clientId, id);
    if (!signer) throw new NotFoundError('signer', id);
    const process = (await tx.signatures.find(clientId, signer.processId)) as ProcessRecord;
    const state = this.stateOf(process, this.now());
    if (state !== 'signing') throw invalid(`The signature process is ${state}: nothing can be signed or refused.`);
    if (signer.state === 'pending') {
      throw invalid('It is not this signer’s turn: signers with a lower signing_order sign first.');
    }
    if (signer.state !== 'in_progress')
      throw invalid(`This signer has already ${signer.state === 'signed' ? 'signed' : 'refused'}.`);
    if (signer.accessCodeHash !== null && !verifySecret(accessCode ?? '', signer.accessCodeHash)) {
      throw new FieldValidationError([
        { field: 'access_code', code: 'invalid', message: 'The access code is missing or wrong.' },
      ]);
    }
    return { signer, process };
  }

  private async mailSender(
    tx: Audited<SignaturesWork>,
    clientId: string,
    process: ProcessRecord,
    kind: string,
    what: string,
  ): Promise<void> {
    if (process.senderId === null) return;
    const sender = await tx.signatures.userContact(clientId, process.senderId);
    if (!sender) return;
    await tx.outbox.insert(
      clientId,
      [
        {
          id: randomUUID(),
          kind,
          toAddress: sender.email,
          toName: fullName(sender),
          subject: `${process.title}: ${what}`,
          body: `Hello ${fullName(sender)},\n\n${what} ("${process.title}", file number ${process.fileNumber}).`,
          relatedId: process.id,
        },
      ],
      this.now(),
    );
  }

  private async queueCallback(tx: Audited<SignaturesWork>, clientId: string, view: ProcessView): Promise<void> {
    const url = view.process.callbackUrl;
    if (url === null) return;
    await enqueue(
      tx.signatures.db,
      {
        queue: SIGNATURE_CALLBACK_QUEUE,
        tenant: clientId,
        orderingKey: `signature-callback:${view.process.id}`,
        payload: {
          clientId,
          processId: view.process.id,
          url,
          body: JSON.stringify(presentProcess(view)),
        } satisfies CallbackPayload,
        giveUpAfterMs: this.deps.callbacks.retryForMs,
        maxAttempts: null,
      },
      this.deps.clock.wall(),
    );
    afterWork(this.deps.wakeJobs);
  }

  // --- background work -----------------------------------------------------------------------------------------

  /** The queues of the runner: stamping and completion, expiry, callbacks. */
  queues(): Record<string, QueueOptions> {
    const inClientTime =
      <P extends { clientId: string }>(handle: (job: Job<P>) => Promise<RetryHint | undefined>): JobHandler<P> =>
      (job) =>
        this.deps.clock.runAs(`hr:${job.payload.clientId}`, () => handle(job));
    return {
      [SIGNATURE_FINISH_QUEUE]: { handle: inClientTime<ProcessJob>((job) => this.finish(job.payload)) },
      [SIGNATURE_EXPIRY_QUEUE]: { handle: inClientTime<ProcessJob>((job) => this.expire(job.payload)) },
      [SIGNATURE_CALLBACK_QUEUE]: {
        handle: (job: Job<CallbackPayload>) => this.callBack(job.payload),
        backoff: { baseMs: 1000, capMs: 3_600_000 },
      },
    };
  }

  /**
   * Stamps the signatures so far on the original PDF (stamp.ts, in the PDF worker) and makes it the current file;
   * once the process is `signed`, with the audit page, and the process is `done` (its signed document mailed when
   * `auto_send` is `"true"`, its callback queued). A PDF the library cannot stamp puts a signed process in `error`.
   */
  private async finish({ clientId, processId }: ProcessJob): Promise<undefined> {
    const view = await this.get(clientId, processId).catch(() => undefined);
    if (!view || !['signing', 'signed'].includes(view.process.state)) return undefined;
    const complete = view.process.state === 'signed';
    const signed = view.signers
      .filter((s) => s.state === 'signed' && s.signedAt !== null)
      .sort((a, b) => a.signingOrder - b.signingOrder || (a.signedAt as number) - (b.signedAt as number));
    const original = await this.readBlob(view.process.sha256);
    const stamped = await this.deps.pdf.stamp(original, {
      title: view.process.title,
      fileNumber: view.process.fileNumber,
      processId,
      originalSha256: view.process.sha256,
      completedAt: formatUtcStamp(this.now()),
      audit: complete,
      signatures: signed.map((s) => ({
        signer: fullName(s),
        typedName: s.signatureName ?? fullName(s),
        signedAt: formatUtcStamp(s.signedAt as number),
        email: s.emailAddress,
        order: s.signingOrder,
        positions: s.signaturePositions,
      })),
    });
    if (stamped === null) {
      if (!complete) return undefined;
      await this.work.run(async (tx) => {
        if (await tx.signatures.transition(clientId, processId, ['signed'], { state: 'error' }, this.now())) {
          const failed = await this.recordProcess(tx, clientId, processId, 'error');
          await this.queueCallback(tx, clientId, failed);
        }
      });
      return undefined;
    }
    const previous = view.process.signedSha256;
    const gone = new Error('the signature process was deleted meanwhile');
    const stored = await this.deps.blobs
      .put(Readable.from([Buffer.from(stamped)]), {
        // The reference is written with the blob, so it is never unreferenced; a process deleted meanwhile leaves
        // nothing behind (a throw here undoes the blob).
        attach: async (trx, blob) => {
          const set = await this.work
            .on(trx)
            .read.signatures.setSignedFile(clientId, processId, blob.sha256, blob.size, this.now());
          if (!set) throw gone;
        },
      })
      .catch((error: unknown) => {
        if (error === gone) return undefined;
        throw error;
      });
    if (!stored) return undefined;
    const { blob } = stored;
    if (complete) {
      await this.work.run(async (tx) => {
        if (!(await tx.signatures.transition(clientId, processId, ['signed'], { state: 'done' }, this.now()))) return;
        const done = await this.recordProcess(tx, clientId, processId, 'done');
        // `auto_send`: every signer gets the signed document; otherwise those who asked for it.
        const to = done.process.autoSend === 'true' ? done.signers : done.signers.filter((s) => s.sendSignedDocument);
        if (to.length > 0) await this.mailSignedDocument(tx, clientId, done, to);
        await this.queueCallback(tx, clientId, done);
      });
    }
    if (previous !== null && previous !== blob.sha256) await this.deps.blobs.deleteIfUnreferenced(previous);
    return undefined;
  }

  private readBlob(sha256: string): Promise<Uint8Array> {
    return readBlob(this.deps.blobs, sha256);
  }

  /**
   * A process still signing when its expiry has come, in the client's time, becomes `expired` and its callback is
   * queued. Earlier (the client's clock was moved back, or frozen), the job comes back when it is due.
   */
  private async expire({ clientId, processId }: ProcessJob): Promise<RetryHint | undefined> {
    const process = await this.repo.find(clientId, processId);
    if (process?.state !== 'signing' || process.expiresAt === null) return undefined;
    const at = this.now();
    if (process.expiresAt > at) {
      return { retryAt: this.deps.clock.wall() + Math.max(1000, Math.min(process.expiresAt - at, DAY_MS)) };
    }
    await this.work.run(async (tx) => {
      if (!(await tx.signatures.transition(clientId, processId, ['signing'], { state: 'expired' }, at))) return;
      const view = await this.recordProcess(tx, clientId, processId, 'expired');
      await this.queueCallback(tx, clientId, view);
    });
    return undefined;
  }

  private async callBack(payload: CallbackPayload): Promise<undefined> {
    const result = await this.deps.callbacks.send(payload.url, payload.body);
    if (!result.ok) throw new Error(result.error ?? 'the callback failed');
    return undefined;
  }
}

/** Signers' links for answers that have no request to make them from (audit events): none. */
const NO_LINKS: NoLinks = { urlOf: () => null };
