/**
 * The runner's signature jobs: the stamping of the signatures on the PDF and the completion of a signed process,
 * the expiry of a process still signing, and the calls of a process's `callback_url`.
 */
import { Readable } from 'node:stream';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import {
  type Job,
  type JobHandler,
  PermanentJobError,
  type QueueOptions,
  type RetryHint,
} from '../../../platform/jobs/index.js';
import type { PdfWorker } from '../../../platform/pdf/runner.js';
import { type Clock, DAY_MS, formatUtcStamp } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { mailSignedDocument } from './mail.js';
import {
  type CallbackPayload,
  type ProcessJob,
  queueCallback,
  SIGNATURE_CALLBACK_QUEUE,
  SIGNATURE_EXPIRY_QUEUE,
  SIGNATURE_FINISH_QUEUE,
} from './queues.js';
import { fullName, recordProcess, type SignaturesWork } from './records.js';
import type { SignaturesRepository } from './repository.js';
import { processView } from './views.js';

/** The queues of the runner for electronic signature, and their handlers. */
export class SignatureJobs {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<SignaturesWork>>,
    private readonly deps: {
      blobs: BlobStore;
      pdf: PdfWorker;
      clock: Clock;
      wakeJobs: () => void;
      /** How callbacks are sent (the webhooks' settings). */
      callbacks: {
        send(
          url: string,
          body: string,
        ): Promise<{ ok: boolean; error: string | null; retryAfterSeconds?: number; refused?: true }>;
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

  /** The queues of the runner: stamping and completion, expiry, callbacks. */
  queues(): Record<string, QueueOptions> {
    const inClientTime =
      <P extends { clientId: HrTenantId }>(handle: (job: Job<P>) => Promise<RetryHint | undefined>): JobHandler<P> =>
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
    const view = await processView(this.repo, this.deps.clock, clientId, processId).catch(() => undefined);
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
          const failed = await recordProcess(tx, this.deps.clock, clientId, processId, 'error');
          await queueCallback(tx, this.deps, clientId, failed);
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
        const done = await recordProcess(tx, this.deps.clock, clientId, processId, 'done');
        // `auto_send`: every signer gets the signed document; otherwise those who asked for it.
        const to = done.process.autoSend === 'true' ? done.signers : done.signers.filter((s) => s.sendSignedDocument);
        if (to.length > 0) await mailSignedDocument(tx, this.deps.clock, clientId, done, to);
        await queueCallback(tx, this.deps, clientId, done);
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
      const view = await recordProcess(tx, this.deps.clock, clientId, processId, 'expired');
      await queueCallback(tx, this.deps, clientId, view);
    });
    return undefined;
  }

  private async callBack(payload: CallbackPayload): Promise<undefined> {
    const result = await this.deps.callbacks.send(payload.url, payload.body);
    // A refused (private) address is refused again on every try: it fails for good, at once.
    if (!result.ok && result.refused) throw new PermanentJobError(result.error ?? 'refused');
    if (!result.ok) throw new Error(result.error ?? 'the callback failed');
    return undefined;
  }
}
