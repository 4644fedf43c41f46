import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { StateError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { DocumentsService } from '../../documents/documents/service.js';
import type { DroppedFile, VaultsWork } from '../../documents/vaults/service.js';
import type { Audited } from '../../module.js';
import { CONTENT_TYPES } from '../downloads.js';
import { generationEvents } from './events.js';
import { mailGenerated } from './mail.js';
import type { GenerationRecord, Recipient } from './repository.js';
import { eventOf, type GenerationsWork, generationById } from './service.js';

/** Files a generated document into an employee's vault (the vaults' own rules apply: `VaultsService.dropFile`). */
export type VaultDrop = (
  tx: Audited<VaultsWork>,
  clientId: HrTenantId,
  file: DroppedFile & { employeeId: string; documentTypeId: string },
) => Promise<string>;

/** The repositories delivery touches: the generations', and the vaults' for a drop. */
export type DeliveryWork = GenerationsWork & VaultsWork;

/**
 * What is done with a generated document (reference §5.5): filed as an employee document (`archive`), dropped
 * in the employee's electronic vault (`vault`), or mailed (`email`, at most 5 recipients, through the outbox).
 */
export class DeliveryService {
  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DeliveryWork>>,
    private readonly deps: { clock: Clock; documents: DocumentsService; vault: VaultDrop },
  ) {}

  /** The preconditions of archive and vault: an async generation, generated, with an employee and a type. */
  private ready(g: GenerationRecord, what: string) {
    if (!g.async || g.employeeId === null || g.documentTypeId === null) {
      throw new StateError(
        'not_archivable',
        `Only a document generated with POST /document_generations/async, with employee_id and document_type_id, can be sent to ${what}.`,
      );
    }
    if (g.status !== 'GENERATED' || g.sha256 === null || g.size === null) {
      throw new StateError('not_generated', `The document is not generated yet (status ${g.status}).`);
    }
    return { employeeId: g.employeeId, documentTypeId: g.documentTypeId, sha256: g.sha256, size: g.size };
  }

  private filename(g: GenerationRecord): string {
    return `document-${g.id.slice(0, 8)}.${g.format.toLowerCase()}`;
  }

  /** `POST …/archive`: an employee document (origin `api`) of the type; once (again: the same document). */
  async archive(clientId: HrTenantId, id: string): Promise<GenerationRecord> {
    return this.work.run(async (tx) => {
      const g = await generationById(tx.generations, clientId, id);
      const file = this.ready(g, 'the employee’s documents');
      if (g.archivedDocumentId !== null) return g;
      const owner = await tx.documents.employee(clientId, { id: file.employeeId });
      const registrations = owner?.registrations ?? [];
      const active = registrations.filter((r) => r.active);
      const documentId = await this.deps.documents.fileGenerated(tx, clientId, {
        employeeId: file.employeeId,
        documentTypeId: file.documentTypeId,
        title: null,
        filename: this.filename(g),
        sha256: file.sha256,
        size: file.size,
        pageCount: g.pages,
        date: null,
        metadata: [],
        origin: 'api',
        originDetails: 'document_generation',
        contentType: CONTENT_TYPES[g.format],
        organizationIds: [...new Set((active.length ? active : registrations).map((r) => r.organizationId))],
      });
      await tx.generations.setArchived(clientId, g.id, documentId, this.deps.clock.now());
      const archived = await generationById(tx.generations, clientId, g.id);
      await tx.audit.record(clientId, generationEvents, 'archived', eventOf(archived));
      return archived;
    });
  }

  /** `POST …/vault`: into the employee's electronic vault, as `POST /employees/{id}/electronic_vault_documents`. */
  async vault(clientId: HrTenantId, id: string): Promise<GenerationRecord> {
    return this.work.run(async (tx) => {
      const g = await generationById(tx.generations, clientId, id);
      const file = this.ready(g, 'the employee’s vault');
      if (g.vaultedAt !== null) return g;
      await this.deps.vault(tx, clientId, {
        employeeId: file.employeeId,
        documentTypeId: file.documentTypeId,
        title: this.filename(g),
        filename: this.filename(g),
        sha256: file.sha256,
        size: file.size,
        pageCount: g.pages,
        contentType: CONTENT_TYPES[g.format],
      });
      await tx.generations.setVaulted(clientId, g.id, this.deps.clock.now());
      const vaulted = await generationById(tx.generations, clientId, g.id);
      await tx.audit.record(clientId, generationEvents, 'vaulted', eventOf(vaulted));
      return vaulted;
    });
  }

  /** `POST …/email`: a mail per recipient in the outbox. */
  async email(clientId: HrTenantId, id: string, recipients: Recipient[]): Promise<GenerationRecord> {
    return this.work.run(async (tx) => {
      const g = await generationById(tx.generations, clientId, id);
      if (g.status !== 'GENERATED') {
        throw new StateError('not_generated', `The document is not generated yet (status ${g.status}).`);
      }
      await mailGenerated(tx, clientId, g, recipients, this.deps.clock.now());
      await tx.audit.record(clientId, generationEvents, 'emailed', eventOf(g));
      return g;
    });
  }
}
