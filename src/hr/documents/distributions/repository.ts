import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { DistributionStatus, ProjectStatus } from './schemas.js';
import type { HrDistributionItemsTable, HrDistributionProjectsTable, HrDistributionsTable } from './tables.js';

/** Where a project's paper package goes (the `package_*` fields). */
export interface PackageAddress {
  firstName: string | null;
  lastName: string | null;
  address: string | null;
  address2: string | null;
  address3: string | null;
  postcode: string | null;
  city: string | null;
  country: string | null;
  contact: string | null;
}

/** The package address by its column names, which are also its wire names (`DistributionProjectFull`). */
export function packageFields(pkg: PackageAddress) {
  return {
    package_first_name: pkg.firstName,
    package_last_name: pkg.lastName,
    package_address: pkg.address,
    package_address_2: pkg.address2,
    package_address_3: pkg.address3,
    package_postcode: pkg.postcode,
    package_city: pkg.city,
    package_country: pkg.country,
    package_contact: pkg.contact,
  };
}

/** A distribution project as the domain sees it. */
export interface ProjectRecord {
  id: number;
  name: string;
  paperConfiguration: string;
  notificationsDelivery: number;
  groupPaperMailing: boolean;
  restrictAccessToGroup: boolean;
  sendPackageToSpecificOrganization: boolean;
  userId: string | null;
  automaticValidation: boolean;
  recipientContactUsed: boolean;
  package: PackageAddress;
  status: ProjectStatus;
  validatedAt: number | null;
  canceledAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type NewProject = Omit<
  ProjectRecord,
  'id' | 'status' | 'validatedAt' | 'canceledAt' | 'createdAt' | 'updatedAt'
>;

/** Why a distribution cannot go on (`distribution_error`). */
export interface DistributionErrorRecord {
  id: string;
  code: string;
  type: 'external' | 'internal';
  message: string;
  at: number;
}

/** A distribution as the domain sees it. */
export interface DistributionRecord {
  id: number;
  projectId: number;
  name: string;
  distributionTypeId: string;
  fileId: string;
  filename: string;
  sha256: string;
  size: number;
  status: DistributionStatus;
  error: DistributionErrorRecord | null;
  createdAt: number;
  updatedAt: number;
}

export type NewDistribution = Omit<DistributionRecord, 'id' | 'status' | 'error' | 'createdAt' | 'updatedAt'>;

export type ItemStatus = 'pending' | 'delivered' | 'error';

/** A row of a distribution's report. */
export interface ItemRecord {
  position: number;
  externalId: string | null;
  employeeId: string | null;
  /** 1-based page numbers. */
  pages: number[];
  status: ItemStatus;
  errorCode: string | null;
  errorMessage: string | null;
  sha256: string | null;
  size: number | null;
  documentId: string | null;
}

export type NewItem = Pick<ItemRecord, 'position' | 'externalId' | 'employeeId' | 'pages' | 'status'> &
  Pick<ItemRecord, 'errorCode' | 'errorMessage'>;

const bool = (v: number) => v === 1;
const int = (v: boolean | undefined) => (v ? 1 : 0);

function toProject(row: Selectable<HrDistributionProjectsTable>): ProjectRecord {
  return {
    id: Number(row.pk),
    name: row.name,
    paperConfiguration: row.paper_configuration,
    notificationsDelivery: Number(row.notifications_delivery),
    groupPaperMailing: bool(Number(row.group_paper_mailing)),
    restrictAccessToGroup: bool(Number(row.restrict_access_to_group)),
    sendPackageToSpecificOrganization: bool(Number(row.send_package_to_specific_organization)),
    userId: row.user_id,
    automaticValidation: bool(Number(row.automatic_validation)),
    recipientContactUsed: bool(Number(row.has_paper_configuration_recipient_contact_been_used)),
    package: {
      firstName: row.package_first_name,
      lastName: row.package_last_name,
      address: row.package_address,
      address2: row.package_address_2,
      address3: row.package_address_3,
      postcode: row.package_postcode,
      city: row.package_city,
      country: row.package_country,
      contact: row.package_contact,
    },
    status: row.status as ProjectStatus,
    validatedAt: row.validated_at === null ? null : Number(row.validated_at),
    canceledAt: row.canceled_at === null ? null : Number(row.canceled_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toDistribution(row: Selectable<HrDistributionsTable>): DistributionRecord {
  return {
    id: Number(row.pk),
    projectId: Number(row.project_pk),
    name: row.name,
    distributionTypeId: row.distribution_type_id,
    fileId: row.file_id,
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    status: row.status as DistributionStatus,
    error:
      row.error_id === null
        ? null
        : {
            id: row.error_id,
            code: row.error_code ?? '',
            type: row.error_type === 'internal' ? 'internal' : 'external',
            message: row.error_message ?? '',
            at: Number(row.error_at),
          },
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toItem(row: Selectable<HrDistributionItemsTable>): ItemRecord {
  return {
    position: Number(row.position),
    externalId: row.external_id,
    employeeId: row.employee_id,
    pages: JSON.parse(row.pages) as number[],
    status: row.status as ItemStatus,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    sha256: row.sha256,
    size: row.size === null ? null : Number(row.size),
    documentId: row.document_id,
  };
}

/** Newest first (the ids are a sequence). */
const PROJECT_ORDER: ListOrder = { fixed: [{ term: 'p.pk', direction: 'desc' }] };
const DISTRIBUTION_ORDER: ListOrder = { fixed: [{ term: 'd.pk', direction: 'desc' }] };

/** Employees looked up per query by their external ids. */
const LOOKUP_CHUNK = 500;

/** Distribution projects, their distributions and the distributions' report rows. Every query takes the client. */
export class DistributionsRepository extends HrRepository {
  // --- projects ---------------------------------------------------------------------------------------------------

  async insertProject(clientId: HrTenantId, p: NewProject, at: number): Promise<number> {
    const row = await this.tenant(clientId)
      .insertInto('hr_distribution_projects', {
        name: p.name,
        paper_configuration: p.paperConfiguration,
        notifications_delivery: p.notificationsDelivery,
        group_paper_mailing: int(p.groupPaperMailing),
        restrict_access_to_group: int(p.restrictAccessToGroup),
        send_package_to_specific_organization: int(p.sendPackageToSpecificOrganization),
        user_id: p.userId,
        automatic_validation: int(p.automaticValidation),
        has_paper_configuration_recipient_contact_been_used: int(p.recipientContactUsed),
        ...packageFields(p.package),
        status: 'new',
        validated_at: null,
        canceled_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning('pk')
      .executeTakeFirstOrThrow();
    return Number(row.pk);
  }

  async findProject(clientId: HrTenantId, id: number): Promise<ProjectRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_distribution_projects as p')
      .selectAll('p')
      .where('p.pk', '=', id)
      .executeTakeFirst();
    return row ? toProject(row) : undefined;
  }

  async projectPage(
    clientId: HrTenantId,
    filter: { status?: string | undefined },
    request: PageRequest,
  ): Promise<Page<ProjectRecord>> {
    let q = this.tenant(clientId).selectFrom('hr_distribution_projects as p').selectAll('p');
    if (filter.status !== undefined) q = q.where('p.status', '=', filter.status);
    const page = await listPage(q, PROJECT_ORDER, request);
    return { ...page, items: page.items.map(toProject) };
  }

  /**
   * Locks the project's row for the rest of the transaction (an update that changes nothing): the writes that
   * change its distributions' statuses and its own then follow one another.
   */
  async lockProject(clientId: HrTenantId, id: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_distribution_projects')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('pk', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async updateProject(
    clientId: HrTenantId,
    id: number,
    values: { status?: ProjectStatus; validatedAt?: number; canceledAt?: number },
    at: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_distribution_projects')
      .set({
        ...(values.status !== undefined ? { status: values.status } : {}),
        ...(values.validatedAt !== undefined ? { validated_at: values.validatedAt } : {}),
        ...(values.canceledAt !== undefined ? { canceled_at: values.canceledAt } : {}),
        updated_at: at,
      })
      .where('pk', '=', id)
      .execute();
  }

  /** Whether the client has this HR user. */
  async userExists(clientId: HrTenantId, id: string): Promise<boolean> {
    const row = await this.tenant(clientId).selectFrom('hr_users').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  /** Whether the client has this employee document type. */
  async employeeDocumentTypeExists(clientId: HrTenantId, id: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_document_types')
      .select('id')
      .where('kind', '=', 'employee')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  // --- distributions ----------------------------------------------------------------------------------------------

  async insertDistribution(clientId: HrTenantId, d: NewDistribution, at: number): Promise<number> {
    const row = await this.tenant(clientId)
      .insertInto('hr_distributions', {
        project_pk: d.projectId,
        name: d.name,
        distribution_type_id: d.distributionTypeId,
        file_id: d.fileId,
        filename: d.filename,
        sha256: d.sha256,
        size: d.size,
        status: 'new',
        error_id: null,
        error_code: null,
        error_type: null,
        error_message: null,
        error_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning('pk')
      .executeTakeFirstOrThrow();
    return Number(row.pk);
  }

  async findDistribution(clientId: HrTenantId, id: number): Promise<DistributionRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_distributions as d')
      .selectAll('d')
      .where('d.pk', '=', id)
      .executeTakeFirst();
    return row ? toDistribution(row) : undefined;
  }

  async distributionPage(
    clientId: HrTenantId,
    filter: { projectId?: number | undefined },
    request: PageRequest,
  ): Promise<Page<DistributionRecord>> {
    let q = this.tenant(clientId).selectFrom('hr_distributions as d').selectAll('d');
    if (filter.projectId !== undefined) q = q.where('d.project_pk', '=', filter.projectId);
    const page = await listPage(q, DISTRIBUTION_ORDER, request);
    return { ...page, items: page.items.map(toDistribution) };
  }

  /** The project's distributions (their ids and statuses). */
  async distributionsOf(
    clientId: HrTenantId,
    projectId: number,
  ): Promise<{ id: number; status: DistributionStatus }[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_distributions as d')
      .select(['d.pk', 'd.status'])
      .where('d.project_pk', '=', projectId)
      .orderBy('d.pk')
      .execute();
    return rows.map((r) => ({ id: Number(r.pk), status: r.status as DistributionStatus }));
  }

  /** Moves a distribution from one of `from` to `to` (with its error); false when it was in none of them. */
  async transition(
    clientId: HrTenantId,
    id: number,
    from: readonly DistributionStatus[],
    to: DistributionStatus,
    at: number,
    error?: DistributionErrorRecord,
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_distributions')
      .set({
        status: to,
        updated_at: at,
        ...(error
          ? {
              error_id: error.id,
              error_code: error.code,
              error_type: error.type,
              error_message: error.message,
              error_at: error.at,
            }
          : {}),
      })
      .where('pk', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // --- report rows ------------------------------------------------------------------------------------------------

  async insertItems(clientId: HrTenantId, distributionId: number, items: readonly NewItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += 200) {
      await this.tenant(clientId)
        .insertInto(
          'hr_distribution_items',
          items.slice(i, i + 200).map((item) => ({
            distribution_pk: distributionId,
            position: item.position,
            external_id: item.externalId,
            employee_id: item.employeeId,
            pages: JSON.stringify(item.pages),
            status: item.status,
            error_code: item.errorCode,
            error_message: item.errorMessage,
            sha256: null,
            size: null,
            document_id: null,
          })),
        )
        .execute();
    }
  }

  async items(clientId: HrTenantId, distributionId: number): Promise<ItemRecord[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_distribution_items')
      .selectAll()
      .where('distribution_pk', '=', distributionId)
      .orderBy('position')
      .execute();
    return rows.map(toItem);
  }

  /** Pending rows, in order, from `after` (a position): those still to split, or to deliver. */
  async pendingItems(
    clientId: HrTenantId,
    distributionId: number,
    stage: 'split' | 'deliver',
    limit: number,
  ): Promise<ItemRecord[]> {
    let q = this.tenant(clientId)
      .selectFrom('hr_distribution_items')
      .selectAll()
      .where('distribution_pk', '=', distributionId)
      .where('status', '=', 'pending');
    q = stage === 'split' ? q.where('sha256', 'is', null) : q.where('sha256', 'is not', null);
    const rows = await q.orderBy('position').limit(limit).execute();
    return rows.map(toItem);
  }

  /** Records a pending row's split PDF; false when it has one already (or is no longer pending). */
  async setItemFile(
    clientId: HrTenantId,
    distributionId: number,
    position: number,
    blob: { sha256: string; size: number },
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_distribution_items')
      .set({ sha256: blob.sha256, size: blob.size })
      .where('distribution_pk', '=', distributionId)
      .where('position', '=', position)
      .where('status', '=', 'pending')
      .where('sha256', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Settles a pending row: delivered with its document, or an error; false when it was no longer pending. */
  async settleItem(
    clientId: HrTenantId,
    distributionId: number,
    position: number,
    outcome: { documentId: string } | { code: string; message: string },
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_distribution_items')
      .set(
        'documentId' in outcome
          ? { status: 'delivered', document_id: outcome.documentId }
          : { status: 'error', error_code: outcome.code, error_message: outcome.message },
      )
      .where('distribution_pk', '=', distributionId)
      .where('position', '=', position)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** External id → employee id, for those of `externalIds` that are employees of the client. */
  async employeesByExternalId(clientId: HrTenantId, externalIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const unique = [...new Set(externalIds)];
    for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
      const rows = await this.tenant(clientId)
        .selectFrom('hr_employees')
        .select(['id', 'external_id'])
        .where('external_id', 'in', unique.slice(i, i + LOOKUP_CHUNK))
        .execute();
      for (const row of rows) if (row.external_id !== null) found.set(row.external_id, row.id);
    }
    return found;
  }
}
