/**
 * What the request services share: the repositories their units of work bind, a request as its presentation needs
 * it, and the audit record of a request write.
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { DatasetValueLookup } from '../../core/forms/rules.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { Audited } from '../../module.js';
import { requestEvents } from './events.js';
import { presentWithAttachments, type RequestView } from './present.js';
import type { RequestRecord, RequestsRepository, StoredRequestView } from './repository.js';

/** The repositories request writes touch: the request's rows and the uploads its files consume. */
export interface RequestsWork {
  requests: RequestsRepository;
  uploads: UploadsRepository;
  /** The values of datasets that answers of dataset fields name. */
  datasets: DatasetValueLookup;
}

/** The people a request's presentation may embed: its employee, creator and closer, when it has them. */
function peopleOf(row: RequestRecord): string[] {
  return [row.employeeId, row.creatorId, row.closedById].filter((x): x is string => x !== null);
}

/** What presenting `rows` needs, read through `repo` (a transaction's, to present what a write leaves). */
export async function views(
  repo: RequestsRepository,
  clientId: HrTenantId,
  rows: RequestRecord[],
): Promise<RequestView[]> {
  const files = await repo.files(
    clientId,
    rows.map((r) => r.id),
  );
  const statuses = await repo.customStatusNames(
    clientId,
    rows.flatMap((r) => (r.customStatusId ? [r.customStatusId] : [])),
  );
  const people = await repo.people(clientId, rows.flatMap(peopleOf));
  const names = await repo.categoryNames(
    clientId,
    rows.map((r) => r.categoryId),
    'en-us',
  );
  return rows.map((row) => ({
    row,
    files: files.filter((f) => f.requestId === row.id),
    customStatusName: row.customStatusId ? (statuses.get(row.customStatusId) ?? row.customStatusId) : null,
    categoryName: names.get(row.categoryId) ?? row.categoryId,
    people,
  }));
}

/**
 * Records `action` on the request `id` in the transaction of `tx`, with the request as `GET /requests/{id}`
 * presents it now (before the deletion, for `deleted`); answers its view.
 */
export async function recordRequest(
  clientId: HrTenantId,
  tx: Audited<RequestsWork>,
  id: string,
  action: (typeof requestEvents.actions)[number],
  stored?: StoredRequestView,
): Promise<RequestView> {
  const view = stored ? { ...stored, people: new Map() } : await viewOf(tx.requests, clientId, id, false);
  await tx.audit.record(clientId, requestEvents, action, {
    id,
    name: view.row.name,
    data: presentWithAttachments(view, new Set()),
  });
  return view;
}

/**
 * The request `id` as its presentation needs it, read through `repo`: one statement, and two more for the people
 * when `people` (the `embed` values and the PDF show them; without, `people` is empty and the presentation gives
 * their ids).
 */
export async function viewOf(
  repo: RequestsRepository,
  clientId: HrTenantId,
  id: string,
  people: boolean,
): Promise<RequestView> {
  const found = await repo.findView(clientId, id);
  if (!found) throw new NotFoundError('request', id);
  return {
    ...found,
    people: people ? await repo.people(clientId, peopleOf(found.row)) : new Map(),
  };
}
