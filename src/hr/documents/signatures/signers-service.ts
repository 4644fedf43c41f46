/**
 * The signers of a signature process: their reads, their changes while the process is a draft (`/signers`), and
 * the reminders of those whose turn it is.
 */
import { randomUUID } from 'node:crypto';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { hashSecret } from '../../../platform/security/secrets.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { SigningLinks } from './links.js';
import { type CallOrigin, signingUrl } from './mail.js';
import { presentSigner } from './present.js';
import { fullName, invalid, NO_LINKS, recordSigner, type SignaturesWork } from './records.js';
import type { ProcessRecord, SignaturesRepository, SignerAttributes, SignerRecord } from './repository.js';
import type { SignerCreate, SignerPatch, SignerPut } from './schemas.js';
import { type SignerView, signerView, stateOf } from './views.js';

/** `/signers` (reference §5.4): a process's signers, changed while it is a draft, and reminded while it is signing. */
export class SignersService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<SignaturesWork>>,
    private readonly deps: { links: SigningLinks; clock: Clock },
  ) {}

  private get repo(): SignaturesRepository {
    return this.work.read.signatures;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  // --- reads -------------------------------------------------------------------------------------------------

  async signers(clientId: HrTenantId, processId: string): Promise<SignerView[]> {
    const process = await this.repo.find(clientId, processId);
    if (!process) throw new NotFoundError('signature process', processId);
    const state = stateOf(process, this.now());
    return ((await this.repo.signersOf(clientId, [processId])).get(processId) ?? []).map((signer) => ({
      signer,
      processState: state,
      clientId,
    }));
  }

  signer(clientId: HrTenantId, id: string): Promise<SignerView> {
    return signerView(this.repo, this.deps.clock, clientId, id);
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

  private async checkSigner(tx: Audited<SignaturesWork>, clientId: HrTenantId, attrs: SignerAttributes): Promise<void> {
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
  private async draftOf(tx: Audited<SignaturesWork>, clientId: HrTenantId, processId: string, field?: string) {
    const process = await tx.signatures.find(clientId, processId);
    if (!process) {
      if (field) {
        throw new FieldValidationError([{ field, code: 'not_found', message: 'No signature process has this id.' }]);
      }
      throw new NotFoundError('signature process', processId);
    }
    const state = stateOf(process, this.now());
    if (state !== 'draft') throw invalid(`Signers can be changed only while the process is a draft; it is ${state}.`);
    return process;
  }

  async createSigner(clientId: HrTenantId, input: SignerCreate): Promise<SignerView> {
    const id = randomUUID();
    return this.work.run(async (tx) => {
      await this.draftOf(tx, clientId, input.signature_process_id, 'signature_process_id');
      const attrs = this.signerAttributes(input);
      await this.checkSigner(tx, clientId, attrs);
      await tx.signatures.insertSigner(clientId, id, input.signature_process_id, attrs, this.now());
      return recordSigner(tx, this.deps.clock, clientId, id, 'created');
    });
  }

  async updateSigner(
    clientId: HrTenantId,
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
      return recordSigner(tx, this.deps.clock, clientId, id, 'updated');
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
    } = presentSigner({ signer, processState: 'draft', clientId: hrTenantId('') }, NO_LINKS);
    return settable;
  }

  async deleteSigner(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const current = await tx.signatures.findSigner(clientId, id);
      if (!current) throw new NotFoundError('signer', id);
      await this.draftOf(tx, clientId, current.processId);
      await recordSigner(tx, this.deps.clock, clientId, id, 'deleted');
      await tx.signatures.deleteSigner(clientId, id);
    });
  }

  /** `POST /signers/remind` and `/signers/{id}/remind`: each signer must be `in_progress`; all or nothing. */
  async remind(clientId: HrTenantId, ids: readonly string[], call: CallOrigin): Promise<void> {
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
        (s) => s.state !== 'in_progress' || stateOf(processes.get(s.processId) as ProcessRecord, at) !== 'signing',
      );
      if (refused.length > 0) {
        throw invalid(
          `Only a signer whose turn it is (in_progress) can be reminded: ${refused
            .map((s) => `${s.id} (${s.state})`)
            .join(', ')}. Nobody was reminded.`,
        );
      }
      // A reminder is the sender inviting them again: a signer locked by wrong access codes may try anew.
      await tx.codeAttempts.clear(clientId, ids);
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
            body: `Hello ${fullName(s)},\n\n"${process.title}" is waiting for your signature until ${process.expiryDate}.\n\nSign or refuse it here: ${signingUrl(this.deps.links, call, clientId, s.id)}`,
            relatedId: s.id,
          };
        }),
        at,
      );
    });
  }
}
