/** A request's lifecycle: the order of its statuses, the moves it allows, and the row changes of a move. */
import { FieldValidationError } from '../../../platform/errors.js';
import type { PersonRecord, RequestChanges, RequestRecord } from './repository.js';
import type { RequestStatus } from './tables.js';

export const STATUS_RANK: Record<RequestStatus, number> = { created: 0, opened: 1, pending: 2, closed: 3, archived: 4 };

/**
 * The lifecycle rule: any forward move in created → opened → pending →
 * closed → archived, and closed back to opened (a reopening). Archived is
 * final. Returns the reason a move is refused, or undefined.
 */
export function refusedTransition(from: RequestStatus, to: RequestStatus): string | undefined {
  if (from === to) return undefined;
  if (from === 'archived') return 'The request is archived; its status can no longer change.';
  if (STATUS_RANK[to] > STATUS_RANK[from]) return undefined;
  if (from === 'closed' && to === 'opened') return undefined;
  return `A request cannot go from "${from}" back to "${to}"; only a closed request may be reopened (to "opened").`;
}

/** The row changes of a status move, or a 422 naming `field` when the lifecycle refuses it. */
export function statusChange(
  row: RequestRecord,
  to: RequestStatus,
  actor: PersonRecord | undefined,
  at: number,
  field: string,
): RequestChanges {
  const refused = refusedTransition(row.status, to);
  if (refused) throw new FieldValidationError([{ field, code: 'invalid_transition', message: refused }]);
  if (to === row.status) return {};
  const changes: RequestChanges = { status: to, statusRank: STATUS_RANK[to] };
  if (to === 'closed') {
    changes.closedAt = at;
    changes.closedById = actor?.id ?? null;
  } else if (to === 'archived') {
    changes.archivedAt = at;
    if (row.closedAt === null) {
      changes.closedAt = at;
      changes.closedById = actor?.id ?? null;
    }
  } else if (row.status === 'closed') {
    changes.closedAt = null;
    changes.closedById = null;
  }
  return changes;
}
