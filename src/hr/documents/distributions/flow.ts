/**
 * What the distributions' services share: the statuses in order, a project's status from its distributions', the
 * records by id, the job that runs a distribution's steps, and the moves from one status to the next (with their
 * events and the project's status).
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { NotFoundError } from '../../../platform/errors.js';
import { enqueue } from '../../../platform/jobs/index.js';
import type { Clock } from '../../../platform/time.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { Audited } from '../../module.js';
import type { DocumentsRepository } from '../documents/repository.js';
import { distributionEvents, distributionProjectEvents } from './events.js';
import { presentDistribution, presentDistributionProject } from './present.js';
import type {
  DistributionErrorRecord,
  DistributionRecord,
  DistributionsRepository,
  ProjectRecord,
} from './repository.js';
import { type DistributionStatus, MAX_ID, type ProjectStatus } from './schemas.js';

/** The repositories distribution writes touch: theirs, the uploads used up, the documents filed. */
export interface DistributionsWork {
  distributions: DistributionsRepository;
  uploads: UploadsRepository;
  documents: DocumentsRepository;
}

export const DISTRIBUTION_QUEUE = 'distribution';

export interface DistributionJob {
  clientId: HrTenantId;
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
export const FINISHED: readonly DistributionStatus[] = ['completed', 'error', 'canceled', 'deleted'];

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

/** A path's or a filter's id: a positive integer, or nothing is found. */
export function parseId(text: string): number | undefined {
  if (!/^[0-9]{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}

export async function projectById(
  repo: DistributionsRepository,
  clientId: HrTenantId,
  idText: string | number,
): Promise<ProjectRecord> {
  const id = typeof idText === 'number' ? idText : parseId(idText);
  const project = id === undefined ? undefined : await repo.findProject(clientId, id);
  if (!project) throw new NotFoundError('distribution project', String(idText));
  return project;
}

export async function distributionById(
  repo: DistributionsRepository,
  clientId: HrTenantId,
  idText: string | number,
): Promise<DistributionRecord> {
  const id = typeof idText === 'number' ? idText : parseId(idText);
  const found = id === undefined ? undefined : await repo.findDistribution(clientId, id);
  if (!found) throw new NotFoundError('distribution', String(idText));
  return found;
}

/** Queues the runner's job of a distribution (its steps), in the caller's transaction. */
export async function enqueueRun(
  tx: Audited<DistributionsWork>,
  clock: Clock,
  clientId: HrTenantId,
  distributionId: number,
): Promise<void> {
  await enqueue(
    tx.distributions.db,
    {
      queue: DISTRIBUTION_QUEUE,
      tenant: clientId,
      orderingKey: `distribution:${distributionId}`,
      payload: { clientId, distributionId } satisfies DistributionJob,
    },
    clock.wall(),
  );
}

/** Moves a distribution on (with its event and its project's status); false when it was not in `from`. */
export async function moveDistribution(
  tx: Audited<DistributionsWork>,
  clock: Clock,
  clientId: HrTenantId,
  id: number,
  from: readonly DistributionStatus[],
  to: DistributionStatus,
  error?: DistributionErrorRecord,
): Promise<boolean> {
  const d = await tx.distributions.findDistribution(clientId, id);
  if (!d) return false;
  await tx.distributions.lockProject(clientId, d.projectId);
  if (!(await tx.distributions.transition(clientId, id, from, to, clock.now(), error))) return false;
  const moved = await distributionById(tx.distributions, clientId, id);
  await tx.audit.record(clientId, distributionEvents, 'status_changed', {
    id: String(id),
    name: moved.name,
    data: presentDistribution(moved),
  });
  await refreshProject(tx, clock, clientId, d.projectId);
  return true;
}

/** Writes the project's status from its distributions' (its event when it changes). */
export async function refreshProject(
  tx: Audited<DistributionsWork>,
  clock: Clock,
  clientId: HrTenantId,
  projectId: number,
): Promise<void> {
  const project = await tx.distributions.findProject(clientId, projectId);
  if (!project) return;
  const statuses = (await tx.distributions.distributionsOf(clientId, projectId)).map((d) => d.status);
  const status = aggregateStatus(statuses, project.canceledAt !== null);
  if (status === project.status) return;
  await tx.distributions.updateProject(clientId, projectId, { status }, clock.now());
  const changed = await projectById(tx.distributions, clientId, projectId);
  await tx.audit.record(clientId, distributionProjectEvents, 'status_changed', {
    id: String(projectId),
    name: changed.name,
    data: presentDistributionProject(changed),
  });
}
