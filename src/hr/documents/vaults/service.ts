import { randomUUID } from 'node:crypto';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, InvalidRequestError, NotFoundError, StateError } from '../../../platform/errors.js';
import { sanitizeFilename } from '../../../platform/filenames.js';
import { enqueue, type Job, type QueueOptions } from '../../../platform/jobs/index.js';
import { type Clock, dayOf } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { NewMail, OutboxRepository } from '../../core/outbox/repository.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import type { DocumentsRepository } from '../documents/repository.js';
import type { DocumentsService } from '../documents/service.js';
import { vaultEvents } from './events.js';
import { isPayslipType, presentVault } from './present.js';
import type { VaultChanges, VaultFilter, VaultRecord, VaultsRepository } from './repository.js';
import type { ElectronicVaultDocument, ElectronicVaultOptionsUpdate } from './schemas.js';

/** The repositories vault writes touch: a dropped document is an employee document made from an upload. */
export interface VaultsWork {
  vaults: VaultsRepository;
  documents: DocumentsRepository;
  uploads: UploadsRepository;
  outbox: OutboxRepository;
}

/** A file dropped into a vault: an upload's, or one Atrium made. */
export interface DroppedFile {
  title: string;
  /** The document's date (default: today). */
  date?: string | null;
  /** Whether the employee is told by mail (default true). */
  notify?: boolean;
  filename: string;
  sha256: string;
  size: number;
  pageCount: number | null;
  contentType: string;
}

/** The outbox kinds of the mails below (docs/hr-api.md, "Outbox"). */
export const VAULT_MAILS = {
  invitation: 'electronic_vault.invitation',
  followUp: 'electronic_vault.follow_up',
  document: 'electronic_vault.document',
  portalInvitation: 'portal.invitation',
  portalFollowUp: 'portal.follow_up',
} as const;

/** The runner's queue that completes an unlinked vault's deletion. */
export const VAULT_DELETION_QUEUE = 'electronic_vault.delete';
interface DeletionJob {
  clientId: HrTenantId;
  employeeId: string;
}

/** At most this many ids in `employees_ids`. */
export const MAX_EMPLOYEE_IDS = 500;

function fullName(employee: VaultRecord['employee']): string {
  return `${employee.firstname} ${employee.lastname}`;
}

/**
 * Employees' electronic vaults (reference §3a.8; docs/hr-api.md, "Electronic vaults"): options, the invitation
 * and its follow-ups, activation (an Atrium extension standing for the employee accepting), unlinking (deleted by
 * the job runner), documents dropped into an activated vault; and portal invitations. Mails go to the outbox.
 */
export class VaultsService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<VaultsWork>>,
    private readonly deps: {
      uploads: UploadsService;
      documents: DocumentsService;
      clock: Clock;
      wakeJobs: () => void;
    },
  ) {}

  list(clientId: HrTenantId, filter: VaultFilter, request: PageRequest): Promise<Page<VaultRecord>> {
    return this.work.read.vaults.page(clientId, filter, request);
  }

  /** Parses `employees_ids` (comma-separated, at most {@link MAX_EMPLOYEE_IDS}). */
  static employeeIds(text: string | undefined): string[] | undefined {
    if (text === undefined) return undefined;
    const ids = [...new Set(text.split(',').map((s) => s.trim()))].filter(Boolean);
    if (ids.length > MAX_EMPLOYEE_IDS) {
      throw new InvalidRequestError(
        `Invalid query parameter "employees_ids": at most ${MAX_EMPLOYEE_IDS} ids, got ${ids.length}.`,
      );
    }
    return ids;
  }

  async get(clientId: HrTenantId, employeeId: string, repo = this.work.read.vaults): Promise<VaultRecord> {
    const vault = await repo.find(clientId, employeeId);
    if (!vault) throw new NotFoundError('employee', employeeId);
    return vault;
  }

  private async record(
    tx: Audited<VaultsWork>,
    clientId: HrTenantId,
    employeeId: string,
    action: (typeof vaultEvents)['actions'][number],
  ): Promise<VaultRecord> {
    const vault = await this.get(clientId, employeeId, tx.vaults);
    await tx.audit.record(clientId, vaultEvents, action, {
      id: employeeId,
      name: fullName(vault.employee),
      data: presentVault(vault),
    });
    return vault;
  }

  /** `PATCH /electronic_vault_options/{id}`: the options sent; a change of the payslips choice is dated. */
  async patch(clientId: HrTenantId, employeeId: string, input: ElectronicVaultOptionsUpdate): Promise<VaultRecord> {
    return this.work.run(async (tx) => {
      const current = await this.get(clientId, employeeId, tx.vaults);
      const at = this.deps.clock.now();
      const changes: VaultChanges = {
        subscriptionEnabled: input.electronic_vault_subscription_enabled,
        paperEnabled: input.paper_documents_distribution_enabled,
        electronicEnabled: input.electronic_documents_distribution_enabled,
      };
      const optedOut = input.electronic_payslips_opted_out;
      if (optedOut !== undefined && optedOut !== current.payslipsOptedOut) {
        changes.payslipsOptedOut = optedOut;
        changes.payslipsChoiceUpdatedAt = at;
        changes.payslipsChoiceOrigin = 'peopledoc';
      }
      await tx.vaults.update(clientId, employeeId, changes, at);
      return this.record(tx, clientId, employeeId, 'updated');
    });
  }

  /**
   * `POST /employees/{id}/electronic_vault_invite`: the invitation mail, or a follow-up when one was sent since the
   * vault was last deleted. 400 when the employee cannot be invited: no e-mail address, the subscription disabled,
   * or a vault already activated or being deleted.
   */
  async invite(clientId: HrTenantId, employeeId: string): Promise<void> {
    await this.work.run(async (tx) => {
      const vault = await this.get(clientId, employeeId, tx.vaults);
      if (vault.state !== 'not_activated' && vault.state !== 'deleted') {
        throw new InvalidRequestError(
          `The employee cannot be invited to an electronic vault: its state is ${vault.state}.`,
        );
      }
      if (!vault.employee.email) {
        throw new InvalidRequestError('The employee has no e-mail address to send the invitation to.');
      }
      await this.mailInvitation(tx, clientId, vault, 'vault', {
        kinds: [VAULT_MAILS.invitation, VAULT_MAILS.followUp],
        subjects: ['Activate your electronic vault', 'Reminder: activate your electronic vault'],
        openings: [
          'Your employer invites you to activate your electronic vault',
          'You have not activated your electronic vault yet',
        ],
        ending: 'your documents will be delivered and kept there.',
      });
    });
  }

  /**
   * Records an invitation mail to the employee (who has an e-mail address): the first one, or a follow-up when one
   * was sent since the invitation's mark was last cleared.
   */
  private async mailInvitation(
    tx: Audited<VaultsWork>,
    clientId: HrTenantId,
    vault: VaultRecord,
    invitation: 'vault' | 'portal',
    text: { kinds: [string, string]; subjects: [string, string]; openings: [string, string]; ending: string },
  ): Promise<void> {
    const at = this.deps.clock.now();
    const which = (await tx.vaults.markInvited(clientId, vault.employee.id, invitation, at)) ? 0 : 1;
    const name = fullName(vault.employee);
    await tx.outbox.insert(
      clientId,
      [
        {
          id: randomUUID(),
          kind: text.kinds[which],
          toAddress: vault.employee.email,
          toName: name,
          subject: text.subjects[which],
          body: `Hello ${name},\n\n${text.openings[which]}: ${text.ending}`,
          relatedId: vault.employee.id,
        },
      ],
      at,
    );
  }

  /**
   * `POST /employees/{id}/electronic_vault_activate` (an Atrium extension): what the employee does when they accept
   * the invitation. The vault gets its id and becomes `activated`. 400 unless the employee was invited (since the
   * last deletion) and the vault is `not_activated` or `deleted`.
   */
  async activate(clientId: HrTenantId, employeeId: string): Promise<VaultRecord> {
    return this.work.run(async (tx) => {
      const vault = await this.get(clientId, employeeId, tx.vaults);
      if (vault.state !== 'not_activated' && vault.state !== 'deleted') {
        throw new InvalidRequestError(`The electronic vault cannot be activated: its state is ${vault.state}.`);
      }
      if (vault.invitedAt === null) {
        throw new InvalidRequestError(
          'The employee has no invitation to accept: send one first (POST /employees/{id}/electronic_vault_invite).',
        );
      }
      const at = this.deps.clock.now();
      const changes = { state: 'activated', electronicVaultId: randomUUID() } as const;
      if (!(await tx.vaults.transition(clientId, employeeId, ['not_activated', 'deleted'], changes, at))) {
        throw new InvalidRequestError('The electronic vault changed meanwhile; read it again.');
      }
      return this.record(tx, clientId, employeeId, 'activated');
    });
  }

  /**
   * `DELETE /employees/{id}/electronic_vault_link`: an activated vault becomes `pending_deletion`; the job runner
   * deletes it (`deleted`) right after. 400 when the employee has no linked vault.
   */
  async unlink(clientId: HrTenantId, employeeId: string): Promise<void> {
    await this.work.run(async (tx) => {
      const vault = await this.get(clientId, employeeId, tx.vaults);
      const at = this.deps.clock.now();
      if (!(await tx.vaults.transition(clientId, employeeId, ['activated'], { state: 'pending_deletion' }, at))) {
        throw new InvalidRequestError(
          `The employee has no linked electronic vault to unlink: its state is ${vault.state}.`,
        );
      }
      await this.record(tx, clientId, employeeId, 'unlinked');
      const wall = this.deps.clock.wall();
      await enqueue(
        tx.vaults.db,
        {
          queue: VAULT_DELETION_QUEUE,
          tenant: clientId,
          orderingKey: `electronic-vault:${clientId}:${employeeId}`,
          payload: { clientId, employeeId } satisfies DeletionJob,
          runAt: wall,
        },
        wall,
      );
    });
    afterWork(this.deps.wakeJobs);
  }

  /** The runner's job: `pending_deletion` → `deleted`; the vault id and the invitation are forgotten. */
  private async completeDeletion(job: DeletionJob): Promise<void> {
    await this.work.run(async (tx) => {
      const changes = { state: 'deleted', electronicVaultId: null, invitedAt: null } as const;
      if (
        !(await tx.vaults.transition(
          job.clientId,
          job.employeeId,
          ['pending_deletion'],
          changes,
          this.deps.clock.now(),
        ))
      )
        return;
      await this.record(tx, job.clientId, job.employeeId, 'deleted');
    });
  }

  /** The queues of the runner: the deletion of unlinked vaults. */
  queues(): Record<string, QueueOptions> {
    return {
      [VAULT_DELETION_QUEUE]: {
        handle: (job: Job<DeletionJob>) =>
          this.deps.clock.runAs(`hr:${job.payload.clientId}`, () => this.completeDeletion(job.payload)),
      },
    };
  }

  /**
   * `POST /employees/{id}/electronic_vault_documents`: the upload becomes an employee document (origin `api`,
   * origin_details `drop_in_vault`) filed under the type, and the employee is told by mail unless
   * `send_notification` is false. 400 when the vault is not `activated`, when electronic distribution is disabled
   * for the employee, or for a payslip type when the employee opted out of electronic payslips.
   */
  async addDocument(clientId: HrTenantId, employeeId: string, input: ElectronicVaultDocument): Promise<string> {
    return this.work.run(async (tx) => {
      const vault = await this.droppable(tx, clientId, employeeId);
      const type = await this.typeFor(tx, clientId, vault, input.document_type_id);
      const upload = await this.deps.uploads.consume(tx.uploads, clientId, input.upload_id, { field: 'upload_id' });
      return this.file(tx, clientId, vault, type, {
        title: input.document_title,
        date: input.document_date ?? null,
        notify: input.send_notification !== false,
        filename: sanitizeFilename(upload.filename),
        sha256: upload.sha256,
        size: upload.size,
        pageCount: upload.pageCount,
        contentType: upload.contentType,
      });
    });
  }

  /**
   * Drops a file Atrium made (a generated document, hr/document-generation) into the employee's vault, in the
   * caller's transaction, under the same rules as `addDocument`; the employee is told by mail.
   */
  async dropFile(
    tx: Audited<VaultsWork>,
    clientId: HrTenantId,
    file: DroppedFile & { employeeId: string; documentTypeId: string },
  ): Promise<string> {
    const vault = await this.droppable(tx, clientId, file.employeeId);
    const type = await this.typeFor(tx, clientId, vault, file.documentTypeId);
    return this.file(tx, clientId, vault, type, file);
  }

  /** The employee's vault, when documents can be dropped into it (400 otherwise). */
  private async droppable(tx: Audited<VaultsWork>, clientId: HrTenantId, employeeId: string): Promise<VaultRecord> {
    const vault = await this.get(clientId, employeeId, tx.vaults);
    if (vault.state !== 'activated') {
      throw new InvalidRequestError(`The employee's electronic vault is not activated: its state is ${vault.state}.`);
    }
    if (!vault.electronicEnabled) {
      throw new InvalidRequestError('Electronic documents distribution is disabled for this employee.');
    }
    return vault;
  }

  /** The document type a dropped file is filed under (422 when unknown; 400 for an opted-out payslip). */
  private async typeFor(tx: Audited<VaultsWork>, clientId: HrTenantId, vault: VaultRecord, typeId: string) {
    const type = await tx.documents.documentType(clientId, 'employee', typeId);
    if (!type) {
      throw new FieldValidationError([
        { field: 'document_type_id', code: 'not_found', message: 'No employee document type has this id.' },
      ]);
    }
    if (vault.payslipsOptedOut && isPayslipType(type)) {
      throw new InvalidRequestError(
        'The employee opted out of electronic payslips: this payslip cannot be dropped into the vault.',
      );
    }
    return type;
  }

  /** Files the document (origin `api`, origin_details `drop_in_vault`) and mails the employee when asked. */
  private async file(
    tx: Audited<VaultsWork>,
    clientId: HrTenantId,
    vault: VaultRecord,
    type: NonNullable<Awaited<ReturnType<DocumentsRepository['documentType']>>>,
    file: DroppedFile,
  ): Promise<string> {
    const employeeId = vault.employee.id;
    const owner = await tx.documents.employee(clientId, { id: employeeId });
    const registrations = owner?.registrations ?? [];
    const active = registrations.filter((r) => r.active);
    const at = this.deps.clock.now();
    const date = file.date ?? dayOf(at);
    const documentId = await this.deps.documents.fileGenerated(tx, clientId, {
      employeeId,
      documentTypeId: type.id,
      title: file.title,
      filename: file.filename,
      sha256: file.sha256,
      size: file.size,
      pageCount: file.pageCount,
      date,
      metadata: [],
      origin: 'api',
      originDetails: 'drop_in_vault',
      contentType: file.contentType,
      organizationIds: [...new Set((active.length ? active : registrations).map((r) => r.organizationId))],
    });
    const email = vault.employee.email;
    if (file.notify !== false && email) {
      const name = fullName(vault.employee);
      const mail: NewMail = {
        id: randomUUID(),
        kind: VAULT_MAILS.document,
        toAddress: email,
        toName: name,
        subject: `New in your electronic vault: ${file.title}`,
        body: `Hello ${name},\n\n"${file.title}" (${type.label}, ${date}) is in your electronic vault.`,
        relatedId: documentId,
      };
      await tx.outbox.insert(clientId, [mail], at);
    }
    return documentId;
  }

  /**
   * `POST /employees/{id}/portal_invite`: the portal invitation mail, or a follow-up when one was sent before.
   * 422 (`no_email`) when the employee has no e-mail address.
   */
  async invitePortal(clientId: HrTenantId, employeeId: string): Promise<void> {
    await this.work.run(async (tx) => {
      const vault = await this.get(clientId, employeeId, tx.vaults);
      const email = vault.employee.email;
      if (!email) throw new StateError('no_email', 'The employee has no e-mail address to send the invitation to.');
      await this.mailInvitation(tx, clientId, vault, 'portal', {
        kinds: [VAULT_MAILS.portalInvitation, VAULT_MAILS.portalFollowUp],
        subjects: ['Your employee portal', 'Reminder: your employee portal'],
        openings: ['You are invited to your employee portal', 'You have not joined your employee portal yet'],
        ending: `sign in with the address ${email} to find your documents.`,
      });
    });
  }
}
