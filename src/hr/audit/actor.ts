import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a write is made by, for the audit trail: the calling application (and the HR user it names with
 * `X-Atrium-User-Id`, an Atrium extension), or the system (a CLI command, background work).
 *
 * The HR plugin runs every route handler inside `actingAs(…)`, so a service does not pass the caller down: the
 * trail reads it here when it records an event. Outside a request (the CLI, the job runner) there is no caller,
 * and the actor is the system.
 */
export type Caller =
  | { type: 'application'; clientId: string; applicationId: string; userId?: string | undefined }
  | { type: 'system'; name: string };

const store = new AsyncLocalStorage<Caller>();

/** Runs `work` with `caller` as the author of every event it records. */
export function actingAs<T>(caller: Caller, work: () => T): T {
  return store.run(caller, work);
}

/** The author of the events recorded now: the caller of the request being served, or the system. */
export function currentCaller(): Caller {
  return store.getStore() ?? { type: 'system', name: 'atrium' };
}
