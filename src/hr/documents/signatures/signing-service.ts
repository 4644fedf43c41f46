/**
 * The signing itself: a signer's link (made, and opened by the signing page) and what a signer does with it, sign
 * or refuse, in their turn; the same through `POST /signers/{id}/sign` and `/refuse`.
 */
import { randomUUID } from 'node:crypto';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, ForbiddenError, NotFoundError } from '../../../platform/errors.js';
import { enqueue } from '../../../platform/jobs/index.js';
import { verifySecret } from '../../../platform/security/secrets.js';
import type { Clock } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { Audited } from '../../module.js';
import { ACCESS_CODE_ATTEMPTS } from './code-attempts.js';
import type { SigningLinks } from './links.js';
import { type CallOrigin, inviteNext, signingPath } from './mail.js';
import { type ProcessJob, queueCallback, SIGNATURE_FINISH_QUEUE } from './queues.js';
import { fullName, invalid, recordProcess, recordSigner, type SignaturesWork } from './records.js';
import type { ProcessRecord, SignaturesRepository, SignerRecord } from './repository.js';
import { findSignatureType } from './types.js';
import { type ProcessView, processView, type SignerView, signerView, stateOf } from './views.js';

/** A wrong access code, counted once the attempt's transaction is rolled back. */
class WrongAccessCode extends Error {
  override name = 'WrongAccessCode';
}

const lockedError = () =>
  new ForbiddenError(
    'signer_locked',
    `Too many wrong access codes (${ACCESS_CODE_ATTEMPTS}): the signer is locked until the sender reminds them (POST /signers/{id}/remind).`,
  );

/** A signer's turn: their link, their signature or refusal, and what follows from it. */
export class SigningService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<SignaturesWork>>,
    private readonly deps: {
      links: SigningLinks;
      clock: Clock;
      wakeJobs: () => void;
      /** How long a callback is retried (the webhooks' settings). */
      callbacks: { retryForMs: number };
    },
  ) {}

  private get repo(): SignaturesRepository {
    return this.work.read.signatures;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  /**
   * What a signer's link opens (the signing page): the signer and their process, in the client's time, or
   * undefined for a link that is malformed, altered, or whose signer is gone.
   */
  async openLink(
    token: string,
  ): Promise<{ clientId: HrTenantId; signer: SignerView; process: ProcessView } | undefined> {
    const opened = this.deps.links.open(token);
    if (!opened) return undefined;
    const { clientId, signerId } = opened;
    return this.deps.clock.runAs(`hr:${clientId}`, async () => {
      const signer = await this.repo.findSigner(clientId, signerId);
      if (!signer) return undefined;
      return {
        clientId,
        signer: await signerView(this.repo, this.deps.clock, clientId, signerId),
        process: await processView(this.repo, this.deps.clock, clientId, signer.processId),
      };
    });
  }

  /** Runs `work` in the time of the client a signer's link names. */
  inClientTime<T>(clientId: HrTenantId, work: () => Promise<T>): Promise<T> {
    return this.deps.clock.runAs(`hr:${clientId}`, work);
  }

  /** The path of a signer's page (under the HR API's prefix, where its routes are served). */
  signingPath(clientId: HrTenantId, signerId: string): string {
    return signingPath(this.deps.links, clientId, signerId);
  }

  /**
   * A signer signs (the signing page, or `POST /signers/{id}/sign`): in their turn, while the process is signing,
   * with their access code when they have one. The next signing order is invited once this one has signed; after
   * the last signature the process is `signed` and the runner makes the signed PDF.
   */
  async sign(
    clientId: HrTenantId,
    id: string,
    input: { name: string; access_code?: string | undefined },
    call: CallOrigin,
  ): Promise<SignerView> {
    return this.countingCodes(clientId, id, () =>
      this.work.run(async (tx) => {
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
          await recordProcess(tx, this.deps.clock, clientId, process.id, 'signed');
        } else if (!signers.some((s) => s.state === 'in_progress')) {
          await inviteNext(tx, this.deps, clientId, process, signers, call);
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
        return recordSigner(tx, this.deps.clock, clientId, id, 'signed');
      }),
    );
  }

  /** A signer refuses, with a comment: the process is `rejected`, and its callback called. */
  async refuse(
    clientId: HrTenantId,
    id: string,
    input: { comment: string; access_code?: string | undefined },
  ): Promise<SignerView> {
    return this.countingCodes(clientId, id, () =>
      this.work.run(async (tx) => {
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
        const view = await recordProcess(tx, this.deps.clock, clientId, process.id, 'rejected');
        await queueCallback(tx, this.deps, clientId, view);
        return recordSigner(tx, this.deps.clock, clientId, id, 'refused');
      }),
    );
  }

  /** The signer, if it is their turn in a process that is signing; else a 400 that says why. */
  private async turnOf(
    tx: Audited<SignaturesWork>,
    clientId: HrTenantId,
    id: string,
    accessCode: string | undefined,
  ): Promise<{ signer: SignerRecord; process: ProcessRecord }> {
    const signer = await tx.signatures.findSigner(clientId, id);
    if (!signer) throw new NotFoundError('signer', id);
    const process = (await tx.signatures.find(clientId, signer.processId)) as ProcessRecord;
    const state = stateOf(process, this.now());
    if (state !== 'signing') throw invalid(`The signature process is ${state}: nothing can be signed or refused.`);
    if (signer.state === 'pending') {
      throw invalid('It is not this signer’s turn: signers with a lower signing_order sign first.');
    }
    if (signer.state !== 'in_progress')
      throw invalid(`This signer has already ${signer.state === 'signed' ? 'signed' : 'refused'}.`);
    if (signer.accessCodeHash !== null) {
      if ((await tx.codeAttempts.lockedAt(clientId, id)) !== null) throw lockedError();
      if (!verifySecret(accessCode ?? '', signer.accessCodeHash)) throw new WrongAccessCode();
      await tx.codeAttempts.clear(clientId, [id]);
    }
    return { signer, process };
  }

  /**
   * Runs a sign or refuse; a wrong access code is counted in a transaction of its own (the attempt's rolled back),
   * and the 5th locks the signer (`signer.locked`) until the sender reminds them.
   */
  private async countingCodes(clientId: HrTenantId, id: string, attempt: () => Promise<SignerView>) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof WrongAccessCode)) throw error;
      const locked = await this.work.run(async (tx) => {
        const now = await tx.codeAttempts.fail(clientId, id, this.now());
        if (now) await recordSigner(tx, this.deps.clock, clientId, id, 'locked');
        return now;
      });
      if (locked) throw lockedError();
      throw new FieldValidationError([
        { field: 'access_code', code: 'invalid', message: 'The access code is missing or wrong.' },
      ]);
    }
  }

  private async mailSender(
    tx: Audited<SignaturesWork>,
    clientId: HrTenantId,
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
}
