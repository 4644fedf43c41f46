import { AsyncLocalStorage } from 'node:async_hooks';
import type { HrTenantId } from '../../platform/db/tenant.js';

/**
 * Who a write is made by, for the audit trail: the calling application (and the HR user it names with
 * `X-Atrium-User-Id`, an Atrium extension), or the system (a CLI command, background work).
 *
 * The HR plugin runs every route handler inside `actingAs(…)`, so a service does not pass the caller down: the
 * trail reads it here when it records an event. Outside a request (the CLI, the job runner) there is no caller,
 * and the actor is the system.
 */
export type Caller =
  | { type: 'application'; clientId: HrTenantId; applicationId: string; userId?: string | undefined }
  | { type: 'system'; name: string };

interface Scope {
  caller: Caller;
  /** Run once the request's work has ended (its transactions committed): wakes the job runner. */
  after: Set<() => void>;
}

const store = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` with `caller` as the author of every event it records, then what the work asked to run after it
 * (`afterWork`), whether it succeeded or not.
 */
export async function actingAs<T>(caller: Caller, work: () => T | Promise<T>): Promise<T> {
  const scope: Scope = { caller, after: new Set() };
  try {
    return await store.run(scope, work);
  } finally {
    for (const fn of scope.after) fn();
  }
}

/** The author of the events recorded now: the caller of the request being served, or the system. */
export function currentCaller(): Caller {
  return store.getStore()?.caller ?? { type: 'system', name: 'atrium' };
}

/**
 * Asks for `fn` to run once the request being served has ended, after its transactions committed (each
 * function once however often it is asked). Outside a request it is not run: background work polls.
 */
export function afterWork(fn: () => void): void {
  store.getStore()?.after.add(fn);
}
