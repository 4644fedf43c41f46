import type { Generated } from 'kysely';

/** The audit trail: one row per successful write of the HR API, written in the write's own transaction. */
export interface HrEventsTable {
  /** The order of events (newest first is `pk` descending). */
  pk: Generated<number>;
  client_id: string;
  /** UUID v4. */
  id: string;
  /** `{resource_type}.{action}`. */
  type: string;
  resource_type: string;
  action: string;
  resource_id: string;
  /** The resource's name as the event shows it (an employee's full name, a request's title), if it has one. */
  name: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  /** JSON: the actor's `data` object. */
  actor_data: string;
  /** JSON: the resource as a GET presents it after the write (before it, for a deletion). */
  data: string;
  created_at: number;
  /** 1 when an operator fired it (docs/admin.md, "Event triggers"), 0 when a write recorded it. */
  triggered: Generated<number>;
}

declare module '../../platform/db/schema.js' {
  interface Tables {
    hr_events: HrEventsTable;
  }
}
