/** Bulk calls (`/employees/bulk`, `/users/bulk`): answered at once with a `request_id`, applied in the background. */

import { AtriumError, AtriumTimeoutError } from '../errors.js';
import { type RequestOptions, sleep } from '../http.js';
import type { BulkOperationResult } from '../schemas/hr/core/bulk.js';
import { enc, type HrCore, type Id } from './core.js';

/** How {@link BulkCalls.waitFor} polls. */
export interface BulkWaitOptions extends RequestOptions {
  /** Between two polls, in ms (default 1000). */
  intervalMs?: number;
  /** Gives up after this long, in ms, with `AtriumTimeoutError` (default 10 minutes). */
  timeoutMs?: number;
}

/** What every bulk status holds: the counts, with `completed` once every item is settled. */
interface BulkStatusLike {
  summary: { total: number; processed: number; success: number; failed: number; status: string };
}

/** `hr.employees.bulk`, `hr.users.bulk`. */
export function bulkCalls<Create, Put, Patch, Status extends BulkStatusLike>(core: HrCore, path: string) {
  const retrieve = (requestId: Id, options?: RequestOptions): Promise<Status> =>
    core.json<Status>('GET', `${path}/${enc(requestId)}`, {}, options);
  return {
    /** `POST …/bulk`: creates each item as the single POST would. Answers the `request_id` at once. */
    create: (items: Create[], options?: RequestOptions): Promise<BulkOperationResult> =>
      core.json<BulkOperationResult>('POST', path, { body: items }, options),
    /** `PUT …/bulk`: replaces each item as the single PUT would. */
    upsert: (items: Put[], options?: RequestOptions): Promise<BulkOperationResult> =>
      core.json<BulkOperationResult>('PUT', path, { body: items }, options),
    /** `PATCH …/bulk`: updates each item as the single PATCH would. */
    update: (items: Patch[], options?: RequestOptions): Promise<BulkOperationResult> =>
      core.json<BulkOperationResult>('PATCH', path, { body: items }, options),
    /** `GET …/bulk/{request_id}`: the counts and the items settled so far. */
    retrieve,
    /**
     * Polls `GET …/bulk/{request_id}` until the call is `completed`, and answers its status (each item's result or
     * error). Throws `AtriumTimeoutError` after `timeoutMs`; `signal` stops it.
     */
    waitFor: async (requestId: Id, options: BulkWaitOptions = {}): Promise<Status> => {
      const { intervalMs = 1000, timeoutMs = 600_000, ...request } = options;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await retrieve(requestId, request);
        const state = (status as Partial<BulkStatusLike> | null)?.summary?.status;
        if (typeof state !== 'string') throw new AtriumError(`${path}/${String(requestId)} is not a bulk status.`);
        if (state === 'completed') return status;
        if (Date.now() + intervalMs > deadline) {
          throw new AtriumTimeoutError(`The bulk call ${String(requestId)} was still ${state} after ${timeoutMs} ms.`);
        }
        await sleep(intervalMs, request.signal);
      }
    },
  };
}
