import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import type { DocumentTypeRecord, DocumentTypesRepository } from '../document-types/repository.js';
import type { VaultFilter, VaultsRepository } from '../vaults/repository.js';
import type { SubscriptionsView } from './present.js';

/** The repositories subscriptions read. */
export interface SubscriptionsWork {
  vaults: VaultsRepository;
  documentTypes: DocumentTypesRepository;
}

/**
 * Employee subscriptions (reference §3a.8; docs/hr-api.md, "Employee subscriptions"): read only, derived from each
 * employee's vault options and the client's employee document types.
 */
export class SubscriptionsService {
  private readonly read: SubscriptionsWork;

  constructor(work: UnitOfWork<Tables, SubscriptionsWork>) {
    this.read = work.read;
  }

  /** Every employee document type, or the one named (400 when the client has none of that id). */
  private async types(clientId: HrTenantId, typeId: string | undefined): Promise<DocumentTypeRecord[]> {
    if (typeId === undefined) return this.read.documentTypes.all(clientId, 'employee');
    const type = await this.read.documentTypes.find(clientId, 'employee', typeId);
    if (!type) {
      throw new InvalidRequestError(
        'Invalid query parameter "employee_document_type_id": no employee document type has this id.',
      );
    }
    return [type];
  }

  async list(
    clientId: HrTenantId,
    filter: VaultFilter,
    documentTypeId: string | undefined,
    request: PageRequest,
  ): Promise<Page<SubscriptionsView>> {
    const types = await this.types(clientId, documentTypeId);
    const page = await this.read.vaults.page(clientId, filter, request);
    return { ...page, items: page.items.map((vault) => ({ vault, types })) };
  }

  async get(clientId: HrTenantId, employeeId: string, documentTypeId: string | undefined): Promise<SubscriptionsView> {
    const vault = await this.read.vaults.find(clientId, employeeId);
    if (!vault) throw new NotFoundError('employee', employeeId);
    return { vault, types: await this.types(clientId, documentTypeId) };
  }
}
