import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, InvalidRequestError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import { COUNTRY_CODES } from './countries.js';
import { distributionEvents, distributionProjectEvents } from './events.js';
import {
  type DistributionsWork,
  distributionById,
  enqueueRun,
  FINISHED,
  moveDistribution,
  projectById,
  refreshProject,
} from './flow.js';
import { presentDistribution, presentDistributionProject } from './present.js';
import type { DistributionRecord, DistributionsRepository, ItemRecord, ProjectRecord } from './repository.js';
import type { DistributionCreate, DistributionProjectCreate, ProjectStatus } from './schemas.js';

/** A project takes new distributions until it is validated. */
const OPEN: readonly ProjectStatus[] = [
  'new',
  'preparing_documents',
  'integrating_documents',
  'waiting_for_validation',
];

/**
 * Distribution projects and distributions (reference §5.6; docs/hr-api.md, "Distributions"). A distribution is a
 * PDF (an upload, used up) whose pages are split between employees and filed as their documents, by the job
 * runner (DistributionStepsService, steps-service.ts), step by step through the statuses of §5.6. This service
 * creates, reads, validates and cancels them.
 */
export class DistributionsService {
  private readonly repo: DistributionsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DistributionsWork>>,
    private readonly deps: {
      uploads: UploadsService;
      clock: Clock;
      wakeJobs: () => void;
    },
  ) {
    this.repo = work.read.distributions;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  // --- projects ---------------------------------------------------------------------------------------------------

  listProjects(clientId: HrTenantId, filter: { status?: string | undefined }, request: PageRequest) {
    return this.repo.projectPage(clientId, filter, request);
  }

  getProject(clientId: HrTenantId, idText: string | number): Promise<ProjectRecord> {
    return projectById(this.repo, clientId, idText);
  }

  async createProject(clientId: HrTenantId, input: DistributionProjectCreate): Promise<ProjectRecord> {
    const errors: FieldError[] = [];
    if (input.package_country && !COUNTRY_CODES.has(input.package_country)) {
      errors.push({
        field: 'package_country',
        code: 'invalid',
        message: 'Not an ISO 3166-1 alpha-2 country code.',
      });
    }
    return this.work.run(async (tx) => {
      const found = [...errors];
      if (input.user_id && !(await tx.distributions.userExists(clientId, input.user_id))) {
        found.push({ field: 'user_id', code: 'not_found', message: 'No HR user has this id.' });
      }
      if (found.length > 0) throw new FieldValidationError(found);
      const id = await tx.distributions.insertProject(
        clientId,
        {
          name: input.name,
          paperConfiguration: input.paper_configuration,
          notificationsDelivery: input.notifications_delivery ?? 0,
          groupPaperMailing: input.group_paper_mailing ?? true,
          restrictAccessToGroup: input.restrict_access_to_group ?? false,
          sendPackageToSpecificOrganization: input.send_package_to_specific_organization ?? false,
          userId: input.user_id ?? null,
          automaticValidation: input.automatic_validation ?? false,
          recipientContactUsed: input.has_paper_configuration_recipient_contact_been_used ?? false,
          package: {
            firstName: input.package_first_name ?? null,
            lastName: input.package_last_name ?? null,
            address: input.package_address ?? null,
            address2: input.package_address_2 ?? null,
            address3: input.package_address_3 ?? null,
            postcode: input.package_postcode ?? null,
            city: input.package_city ?? null,
            country: input.package_country ?? null,
            contact: input.package_contact ?? null,
          },
        },
        this.now(),
      );
      const project = await projectById(tx.distributions, clientId, id);
      await tx.audit.record(clientId, distributionProjectEvents, 'created', {
        id: String(id),
        name: project.name,
        data: presentDistributionProject(project),
      });
      return project;
    });
  }

  /**
   * `POST /distribution_projects/{id}/validate` (an Atrium extension): the distributions waiting for validation
   * go on. Only a project `waiting_for_validation` (every distribution under way has reached it) can be.
   */
  async validate(clientId: HrTenantId, idText: string): Promise<ProjectRecord> {
    const project = await this.work.run(async (tx) => {
      const project = await projectById(tx.distributions, clientId, idText);
      await tx.distributions.lockProject(clientId, project.id);
      const current = await projectById(tx.distributions, clientId, project.id);
      if (current.status !== 'waiting_for_validation') {
        throw new InvalidRequestError(
          `This project is ${current.status}: only a project waiting_for_validation can be validated.`,
        );
      }
      for (const d of await tx.distributions.distributionsOf(clientId, project.id)) {
        if (d.status !== 'waiting_for_validation') continue;
        await moveDistribution(tx, this.deps.clock, clientId, d.id, ['waiting_for_validation'], 'validated');
        await enqueueRun(tx, this.deps.clock, clientId, d.id);
      }
      await tx.distributions.updateProject(clientId, project.id, { validatedAt: this.now() }, this.now());
      const validated = await projectById(tx.distributions, clientId, project.id);
      await tx.audit.record(clientId, distributionProjectEvents, 'validated', {
        id: String(project.id),
        name: validated.name,
        data: presentDistributionProject(validated),
      });
      return validated;
    });
    afterWork(this.deps.wakeJobs);
    return project;
  }

  /**
   * `POST /distribution_projects/{id}/cancel` (an Atrium extension): every distribution not ended is `canceled`
   * (the documents already filed stay), and so is the project. A project that has ended cannot be.
   */
  async cancel(clientId: HrTenantId, idText: string): Promise<ProjectRecord> {
    return this.work.run(async (tx) => {
      const project = await projectById(tx.distributions, clientId, idText);
      await tx.distributions.lockProject(clientId, project.id);
      const current = await projectById(tx.distributions, clientId, project.id);
      if (['completed', 'error', 'canceled'].includes(current.status)) {
        throw new InvalidRequestError(`This project is ${current.status}: it can no longer be canceled.`);
      }
      // Canceled first: the project's status is then `canceled` from the first distribution moved (one event).
      await tx.distributions.updateProject(clientId, project.id, { canceledAt: this.now() }, this.now());
      for (const d of await tx.distributions.distributionsOf(clientId, project.id)) {
        if (FINISHED.includes(d.status)) continue;
        await moveDistribution(tx, this.deps.clock, clientId, d.id, [d.status], 'canceled');
      }
      await refreshProject(tx, this.deps.clock, clientId, project.id);
      const canceled = await projectById(tx.distributions, clientId, project.id);
      await tx.audit.record(clientId, distributionProjectEvents, 'canceled', {
        id: String(project.id),
        name: canceled.name,
        data: presentDistributionProject(canceled),
      });
      return canceled;
    });
  }

  // --- distributions ----------------------------------------------------------------------------------------------

  listDistributions(clientId: HrTenantId, filter: { projectId?: number | undefined }, request: PageRequest) {
    return this.repo.distributionPage(clientId, filter, request);
  }

  getDistribution(clientId: HrTenantId, idText: string | number): Promise<DistributionRecord> {
    return distributionById(this.repo, clientId, idText);
  }

  /** The report's rows (none before the file is read). */
  async report(clientId: HrTenantId, idText: string): Promise<ItemRecord[]> {
    const d = await this.getDistribution(clientId, idText);
    return this.repo.items(clientId, d.id);
  }

  async createDistribution(clientId: HrTenantId, input: DistributionCreate): Promise<DistributionRecord> {
    const created = await this.work.run(async (tx) => {
      const errors: FieldError[] = [];
      const project = await tx.distributions.findProject(clientId, input.distribution_project_id);
      if (!project) {
        errors.push({
          field: 'distribution_project_id',
          code: 'not_found',
          message: 'No distribution project has this id.',
        });
      } else if (!OPEN.includes(project.status)) {
        errors.push({
          field: 'distribution_project_id',
          code: 'closed',
          message: `This project is ${project.status}: distributions are added to a project before it is validated.`,
        });
      }
      if (!(await tx.distributions.employeeDocumentTypeExists(clientId, input.distribution_type_id))) {
        errors.push({
          field: 'distribution_type_id',
          code: 'not_found',
          message: 'No employee document type has this id.',
        });
      }
      if (errors.length > 0 || !project) throw new FieldValidationError(errors);
      const upload = await this.deps.uploads.consume(tx.uploads, clientId, input.file_id, { field: 'file_id' });
      if (upload.contentType !== 'application/pdf') {
        // Thrown inside the unit of work: the upload stays unused.
        throw new FieldValidationError([
          {
            field: 'file_id',
            code: 'invalid_file_type',
            message: `A distribution's file is a PDF, not ${upload.contentType}.`,
          },
        ]);
      }
      await tx.distributions.lockProject(clientId, project.id);
      const id = await tx.distributions.insertDistribution(
        clientId,
        {
          projectId: project.id,
          name: input.name,
          distributionTypeId: input.distribution_type_id,
          fileId: upload.id,
          filename: upload.filename,
          sha256: upload.sha256,
          size: upload.size,
        },
        this.now(),
      );
      const d = await distributionById(tx.distributions, clientId, id);
      await tx.audit.record(clientId, distributionEvents, 'created', {
        id: String(id),
        name: d.name,
        data: presentDistribution(d),
      });
      await enqueueRun(tx, this.deps.clock, clientId, id);
      await refreshProject(tx, this.deps.clock, clientId, project.id);
      return d;
    });
    afterWork(this.deps.wakeJobs);
    return created;
  }
}

export type { Page };
