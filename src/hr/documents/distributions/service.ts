import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import { enqueue, type Job, type JobContext, type QueueOptions, RetryJobError } from '../../../platform/jobs/index.js';
import type { PdfWorker } from '../../../platform/pdf/runner.js';
import type { Clock } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import type { DocumentsRepository } from '../documents/repository.js';
import type { DocumentsService } from '../documents/service.js';
import { COUNTRY_CODES } from './countries.js';
import { distributionEvents, distributionProjectEvents } from './events.js';
import { assignPages, candidates, scanPages } from './mapping.js';
import { presentDistribution, presentDistributionProject } from './present.js';
import {
  type DistributionErrorRecord,
  type DistributionRecord,
  type DistributionsRepository,
  type ItemRecord,
  PACKAGE_FIELDS,
  type ProjectRecord,
} from './repository.js';
import {
  type DistributionCreate,
  type DistributionProjectCreate,
  type DistributionStatus,
  MAX_ID,
  type ProjectStatus,
} from './schemas.js';

/** The repositories distribution writes touch: theirs, the uploads used up, the documents filed. */
export interface DistributionsWork {
  distributions: DistributionsRepository;
  uploads: UploadsRepository;
  documents: DocumentsRepository;
}

export const DISTRIBUTION_QUEUE = 'distribution';

interface DistributionJob {
  clientId: string;
  distributionId: number;
}

/** The statuses a distribution goes through, in order. */
const FLOW: readonly DistributionStatus[] = [
  'new',
  'preparing_documents',
  'integrating_documents',
  'waiting_for_validation',
  'validated',
  'building_campaigns',
  'sending_notifications',
  'sending_to_mypeopledoc',
  'completed',
];
const FINISHED: readonly DistributionStatus[] = ['completed', 'error', 'canceled', 'deleted'];
/** A project takes new distributions until it is validated. */
const OPEN: readonly ProjectStatus[] = [
  'new',
  'preparing_documents',
  'integrating_documents',
  'waiting_for_validation',
];

/** Rows split, or delivered, per step (one worker task, one transaction). */
const BATCH = 50;
/** Attempts of a job whose PDF task went past the worker's limits before the distribution is `error`. */
const LIMIT_ATTEMPTS = 3;

/**
 * A project's status from its distributions' (docs/hr-api.md, "Distributions"): `canceled` once canceled;
 * `new` without distributions; while some are under way, the least advanced of them; once all have ended,
 * `error` if one ended so, else `completed` if one completed, else `canceled`.
 */
export function aggregateStatus(statuses: readonly DistributionStatus[], canceled: boolean): ProjectStatus {
  if (canceled) return 'canceled';
  if (statuses.length === 0) return 'new';
  const going = statuses.filter((s) => !FINISHED.includes(s));
  if (going.length > 0) return FLOW[Math.min(...going.map((s) => FLOW.indexOf(s)))] as ProjectStatus;
  if (statuses.includes('error')) return 'error';
  if (statuses.includes('completed')) return 'completed';
  return 'canceled';
}

/**
 * Runs a long task (a PDF worker's), renewing the job's lease meanwhile so that no other runner takes it over: four
 * times per lease (every 75 s with the default 5-minute lease; a test's 1.5 s lease, every 375 ms).
 */
async function keepingLease<T>(context: JobContext, task: () => Promise<T>): Promise<T> {
  const every = Math.max(50, Math.floor(context.leaseMs / 4));
  const timer = setInterval(() => void context.heartbeat().catch(() => false), every);
  try {
    return await task();
  } finally {
    clearInterval(timer);
  }
}

/** A path's or a filter's id: a positive integer, or nothing is found. */
export function parseId(text: string): number | undefined {
  if (!/^[0-9]{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}

/** Why a distribution stopped. */
const ERRORS = {
  UNREADABLE_FILE: { type: 'external', message: 'The file is not a PDF whose pages Atrium can read.' },
  FILE_TOO_LARGE: { type: 'internal', message: 'The file took too long, or too much memory, to read or split.' },
  NO_EMPLOYEE_FOUND: {
    type: 'external',
    message: 'No page of the file names an employee of the platform: nothing to deliver (see the report).',
  },
  FILE_MISSING: { type: 'internal', message: 'The file could not be read back from storage.' },
} as const;
type ErrorCode = keyof typeof ERRORS;

/**
 * Distribution projects and distributions (reference §5.6; docs/hr-api.md, "Distributions"). A distribution is a
 * PDF (an upload, used up) whose pages are split between employees and filed as their documents, by the job
 * runner, step by step through the statuses of §5.6; each step commits with the status it leads to, so a job
 * killed half-way resumes where it stopped without doing anything twice.
 */
export class DistributionsService {
  private readonly repo: DistributionsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DistributionsWork>>,
    private readonly deps: {
      uploads: UploadsService;
      documents: DocumentsService;
      blobs: BlobStore;
      pdf: PdfWorker;
      clock: Clock;
      wakeJobs: () => void;
      log?: Logger;
    },
  ) {
    this.repo = work.read.distributions;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  // --- projects ---------------------------------------------------------------------------------------------------

  listProjects(clientId: string, filter: { status?: string | undefined }, request: PageRequest) {
    return this.repo.projectPage(clientId, filter, request);
  }

  async getProject(clientId: string, idText: string | number, repo = this.repo): Promise<ProjectRecord> {
    const id = typeof idText === 'number' ? idText : parseId(idText);
    const project = id === undefined ? undefined : await repo.findProject(clientId, id);
    if (!project) throw new NotFoundError('distribution project', String(idText));
    return project;
  }

  async createProject(clientId: string, input: DistributionProjectCreate): Promise<ProjectRecord> {
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
      const pkg = {} as ProjectRecord['package'];
      for (const f of PACKAGE_FIELDS) pkg[f] = input[f] ?? null;
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
          package: pkg,
        },
        this.now(),
      );
      const project = await this.getProject(clientId, id, tx.distributions);
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
  async validate(clientId: string, idText: string): Promise<ProjectRecord> {
    const project = await this.work.run(async (tx) => {
      const project = await this.getProject(clientId, idText, tx.distributions);
      await tx.distributions.lockProject(clientId, project.id);
      const current = await this.getProject(clientId, project.id, tx.distributions);
      if (current.status !== 'waiting_for_validation') {
        throw new InvalidRequestError(
          `This project is ${current.status}: only a project waiting_for_validation can be validated.`,
        );
      }
      for (const d of await tx.distributions.distributionsOf(clientId, project.id)) {
        if (d.status !== 'waiting_for_validation') continue;
        await this.move(tx, clientId, d.id, ['waiting_for_validation'], 'validated');
        await this.enqueueRun(tx, clientId, d.id);
      }
      await tx.distributions.updateProject(clientId, project.id, { validatedAt: this.now() }, this.now());
      const validated = await this.getProject(clientId, project.id, tx.distributions);
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
  async cancel(clientId: string, idText: string): Promise<ProjectRecord> {
    return this.work.run(async (tx) => {
      const project = await this.getProject(clientId, idText, tx.distributions);
      await tx.distributions.lockProject(clientId, project.id);
      const current = await this.getProject(clientId, project.id, tx.distributions);
      if (['completed', 'error', 'canceled'].includes(current.status)) {
        throw new InvalidRequestError(`This project is ${current.status}: it can no longer be canceled.`);
      }
      // Canceled first: the project's status is then `canceled` from the first distribution moved (one event).
      await tx.distributions.updateProject(clientId, project.id, { canceledAt: this.now() }, this.now());
      for (const d of await tx.distributions.distributionsOf(clientId, project.id)) {
        if (FINISHED.includes(d.status)) continue;
        await this.move(tx, clientId, d.id, [d.status], 'canceled');
      }
      await this.refreshProject(tx, clientId, project.id);
      const canceled = await this.getProject(clientId, project.id, tx.distributions);
      await tx.audit.record(clientId, distributionProjectEvents, 'canceled', {
        id: String(project.id),
        name: canceled.name,
        data: presentDistributionProject(canceled),
      });
      return canceled;
    });
  }

  // --- distributions ----------------------------------------------------------------------------------------------

  listDistributions(clientId: string, filter: { projectId?: number | undefined }, request: PageRequest) {
    return this.repo.distributionPage(clientId, filter, request);
  }

  async getDistribution(clientId: string, idText: string | number, repo = this.repo): Promise<DistributionRecord> {
    const id = typeof idText === 'number' ? idText : parseId(idText);
    const found = id === undefined ? undefined : await repo.findDistribution(clientId, id);
    if (!found) throw new NotFoundError('distribution', String(idText));
    return found;
  }

  /** The report's rows (none before the file is read). */
  async report(clientId: string, idText: string): Promise<ItemRecord[]> {
    const d = await this.getDistribution(clientId, idText);
    return this.repo.items(clientId, d.id);
  }

  async createDistribution(clientId: string, input: DistributionCreate): Promise<DistributionRecord> {
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
      const d = await this.getDistribution(clientId, id, tx.distributions);
      await tx.audit.record(clientId, distributionEvents, 'created', {
        id: String(id),
        name: d.name,
        data: presentDistribution(d),
      });
      await this.enqueueRun(tx, clientId, id);
      await this.refreshProject(tx, clientId, project.id);
      return d;
    });
    afterWork(this.deps.wakeJobs);
    return created;
  }

  // --- the steps ------------------------------------------------------------------------------------------------

  private async enqueueRun(tx: Audited<DistributionsWork>, clientId: string, distributionId: number): Promise<void> {
    await enqueue(
      tx.distributions.db,
      {
        queue: DISTRIBUTION_QUEUE,
        tenant: clientId,
        orderingKey: `distribution:${distributionId}`,
        payload: { clientId, distributionId } satisfies DistributionJob,
      },
      this.deps.clock.wall(),
    );
  }

  /** Moves a distribution on (with its event and its project's status); false when it was not in `from`. */
  private async move(
    tx: Audited<DistributionsWork>,
    clientId: string,
    id: number,
    from: readonly DistributionStatus[],
    to: DistributionStatus,
    error?: DistributionErrorRecord,
  ): Promise<boolean> {
    const d = await tx.distributions.findDistribution(clientId, id);
    if (!d) return false;
    await tx.distributions.lockProject(clientId, d.projectId);
    if (!(await tx.distributions.transition(clientId, id, from, to, this.now(), error))) return false;
    const moved = await this.getDistribution(clientId, id, tx.distributions);
    await tx.audit.record(clientId, distributionEvents, 'status_changed', {
      id: String(id),
      name: moved.name,
      data: presentDistribution(moved),
    });
    await this.refreshProject(tx, clientId, d.projectId);
    return true;
  }

  /** Writes the project's status from its distributions' (its event when it changes). */
  private async refreshProject(tx: Audited<DistributionsWork>, clientId: string, projectId: number): Promise<void> {
    const project = await tx.distributions.findProject(clientId, projectId);
    if (!project) return;
    const statuses = (await tx.distributions.distributionsOf(clientId, projectId)).map((d) => d.status);
    const status = aggregateStatus(statuses, project.canceledAt !== null);
    if (status === project.status) return;
    await tx.distributions.updateProject(clientId, projectId, { status }, this.now());
    const changed = await this.getProject(clientId, projectId, tx.distributions);
    await tx.audit.record(clientId, distributionProjectEvents, 'status_changed', {
      id: String(projectId),
      name: changed.name,
      data: presentDistributionProject(changed),
    });
  }

  private step(id: number, clientId: string, from: DistributionStatus, to: DistributionStatus): Promise<boolean> {
    return this.work.run((tx) => this.move(tx, clientId, id, [from], to));
  }

  private fail(clientId: string, id: number, from: DistributionStatus, code: ErrorCode): Promise<boolean> {
    const error: DistributionErrorRecord = { id: randomUUID(), code, ...ERRORS[code], at: this.now() };
    return this.work.run((tx) => this.move(tx, clientId, id, [from], 'error', error));
  }

  /**
   * The runner's job: the distribution's steps, one after the other, until it waits for validation or ends. Its
   * lease is renewed all along (a PDF task can take longer than a lease); should another attempt run anyway (a
   * lease lost), each step's conditional writes let only one of them through.
   */
  private run(job: Job<DistributionJob>, context: JobContext): Promise<undefined> {
    return keepingLease(context, () => this.steps(job, context));
  }

  private async steps(job: Job<DistributionJob>, context: JobContext): Promise<undefined> {
    const { clientId, distributionId: id } = job.payload;
    for (;;) {
      if (context.signal.aborted) return undefined;
      const d = await this.repo.findDistribution(clientId, id);
      if (!d) return undefined;
      switch (d.status) {
        case 'new':
          await this.step(id, clientId, 'new', 'preparing_documents');
          break;
        case 'preparing_documents':
          await this.prepare(d, job);
          break;
        case 'integrating_documents':
          await this.integrate(clientId, d, job, context);
          break;
        case 'validated':
          await this.step(id, clientId, 'validated', 'building_campaigns');
          break;
        case 'building_campaigns':
          await this.step(id, clientId, 'building_campaigns', 'sending_notifications');
          break;
        case 'sending_notifications':
          await this.step(id, clientId, 'sending_notifications', 'sending_to_mypeopledoc');
          break;
        case 'sending_to_mypeopledoc':
          await this.deliver(clientId, d, context);
          break;
        default:
          // Waiting for validation (its call queues the job again), or ended.
          return undefined;
      }
      if (!(await context.heartbeat())) return undefined;
    }
  }

  /** The file's bytes, or null when storage has lost them. */
  private async source(d: DistributionRecord): Promise<Uint8Array | null> {
    try {
      return await readBlob(this.deps.blobs, d.sha256);
    } catch (err) {
      this.deps.log?.warn({ err, distribution: d.id }, 'reading a distribution’s file failed');
      return null;
    }
  }

  /** A PDF task past the worker's limits: tried again a few times, then the distribution is `error`. */
  private async overLimits(clientId: string, d: DistributionRecord, job: Job<DistributionJob>): Promise<void> {
    if (job.attempts < LIMIT_ATTEMPTS) {
      throw new RetryJobError('the PDF worker was past its limits', this.deps.clock.wall() + 5_000);
    }
    await this.fail(clientId, d.id, d.status, 'FILE_TOO_LARGE');
  }

  /** `preparing_documents`: reads each page's text and writes the report's rows (whose pages are whose). */
  private async prepare(d: DistributionRecord, job: Job<DistributionJob>): Promise<void> {
    const { clientId } = job.payload;
    const bytes = await this.source(d);
    if (bytes === null) {
      await this.fail(clientId, d.id, 'preparing_documents', 'FILE_MISSING');
      return;
    }
    const texts = await this.deps.pdf.texts(bytes);
    if (texts === 'limits') return this.overLimits(clientId, d, job);
    if (texts === null || texts.length === 0) {
      await this.fail(clientId, d.id, 'preparing_documents', 'UNREADABLE_FILE');
      return;
    }
    const scan = scanPages(texts);
    const employees = await this.repo.employeesByExternalId(clientId, candidates(scan));
    const rows = assignPages(scan, employees);
    const deliverable = rows.some((r) => r.error === null);
    await this.work.run(async (tx) => {
      const error: DistributionErrorRecord | undefined = deliverable
        ? undefined
        : { id: randomUUID(), code: 'NO_EMPLOYEE_FOUND', ...ERRORS.NO_EMPLOYEE_FOUND, at: this.now() };
      const to = deliverable ? 'integrating_documents' : 'error';
      // The rows commit with the status that follows them: a second run finds them written, and moves on.
      if (!(await this.move(tx, clientId, d.id, ['preparing_documents'], to, error))) return;
      await tx.distributions.insertItems(
        clientId,
        d.id,
        rows.map((r) => ({
          position: r.position,
          externalId: r.externalId,
          employeeId: r.employeeId,
          pages: r.pages,
          status: r.error ? 'error' : 'pending',
          errorCode: r.error?.code ?? null,
          errorMessage: r.error?.message ?? null,
        })),
      );
    });
  }

  /**
   * `integrating_documents`: each employee's pages become a PDF of their own (a blob, recorded on its row as it is
   * stored, so a row is split once); then the distribution waits for validation, unless its project validates
   * automatically.
   */
  private async integrate(
    clientId: string,
    d: DistributionRecord,
    job: Job<DistributionJob>,
    context: JobContext,
  ): Promise<void> {
    let bytes: Uint8Array | null | undefined;
    for (;;) {
      const batch = await this.repo.pendingItems(clientId, d.id, 'split', BATCH);
      if (batch.length === 0) break;
      const current = await this.repo.findDistribution(clientId, d.id);
      if (current?.status !== 'integrating_documents') return;
      bytes ??= await this.source(d);
      if (bytes === null) {
        await this.fail(clientId, d.id, 'integrating_documents', 'FILE_MISSING');
        return;
      }
      const parts = await this.deps.pdf.split(
        bytes,
        batch.map((item) => item.pages.map((p) => p - 1)),
      );
      if (parts === 'limits') return this.overLimits(clientId, d, job);
      if (parts === null || parts.length !== batch.length) {
        await this.fail(clientId, d.id, 'integrating_documents', 'UNREADABLE_FILE');
        return;
      }
      for (const [i, item] of batch.entries()) {
        const gone = new Error('the row was split meanwhile');
        await this.deps.blobs
          .put(Readable.from([Buffer.from(parts[i] as Uint8Array)]), {
            // The reference is written with the blob: a row split twice keeps the first (a throw undoes this one).
            attach: async (trx, blob) => {
              const set = await this.work.on(trx).read.distributions.setItemFile(clientId, d.id, item.position, {
                sha256: blob.sha256,
                size: blob.size,
              });
              if (!set) throw gone;
            },
          })
          .catch((error: unknown) => {
            if (error !== gone) throw error;
          });
      }
      if (!(await context.heartbeat())) return;
    }
    const project = await this.repo.findProject(clientId, d.projectId);
    const next = project?.automaticValidation ? 'validated' : 'waiting_for_validation';
    await this.step(d.id, clientId, 'integrating_documents', next);
  }

  /**
   * `sending_to_mypeopledoc`: each row's PDF is filed as a document of its employee (origin `distribution`), a
   * batch of rows per transaction, each row settled with its document in it; then the distribution is `completed`.
   */
  private async deliver(clientId: string, d: DistributionRecord, context: JobContext): Promise<void> {
    const settledElsewhere = new Error('a row was settled by another attempt');
    for (;;) {
      const done = await this.work
        .run(async (tx) => {
          const current = await tx.distributions.findDistribution(clientId, d.id);
          if (current?.status !== 'sending_to_mypeopledoc') return 'stopped';
          const batch = await tx.distributions.pendingItems(clientId, d.id, 'deliver', BATCH);
          if (batch.length === 0) return 'done';
          for (const item of batch) {
            const employee =
              item.employeeId === null ? undefined : await tx.documents.employee(clientId, { id: item.employeeId });
            if (!employee) {
              await tx.distributions.settleItem(clientId, d.id, item.position, {
                code: 'MISSING_USER',
                message: 'The employee was deleted before the documents were sent.',
              });
              continue;
            }
            const active = employee.registrations.filter((r) => r.active === 1);
            const documentId = await this.deps.documents.fileGenerated(tx, clientId, {
              employeeId: employee.id,
              documentTypeId: d.distributionTypeId,
              title: d.name,
              filename: d.filename,
              sha256: item.sha256 as string,
              size: item.size ?? 0,
              pageCount: item.pages.length,
              date: null,
              metadata: [],
              origin: 'distribution',
              organizationIds: [
                ...new Set((active.length ? active : employee.registrations).map((r) => r.organization_id)),
              ],
            });
            // Another attempt settled it first (its lease was lost): this whole batch is undone, filed once.
            if (!(await tx.distributions.settleItem(clientId, d.id, item.position, { documentId })))
              throw settledElsewhere;
          }
          return 'more';
        })
        .catch((error: unknown) => {
          if (error === settledElsewhere) return 'more' as const;
          throw error;
        });
      if (done === 'stopped') return;
      if (done === 'done') break;
      if (!(await context.heartbeat())) return;
    }
    await this.step(d.id, clientId, 'sending_to_mypeopledoc', 'completed');
  }

  /** The runner's queue: a distribution's steps, in the client's time. */
  queues(): Record<string, QueueOptions> {
    return {
      [DISTRIBUTION_QUEUE]: {
        handle: (job: Job<DistributionJob>, context: JobContext) =>
          this.deps.clock.runAs(`hr:${job.payload.clientId}`, () => this.run(job, context)),
      },
    };
  }
}

export type { Page };
