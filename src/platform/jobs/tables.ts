import type { Generated } from 'kysely';

/** A job's state: `pending` (waiting for `run_at`), `running` (claimed, under a lease), or finished. */
export type JobStatus = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** One durable background job (migration 0014_jobs; docs/SCALING.md, "Background jobs"). Instants in epoch ms. */
export interface JobsTable {
  /** Auto-increment: the order of the jobs, and of the jobs of one ordering key. */
  id: Generated<number>;
  /** The job's kind, which names its handler (`webhook.delivery`). */
  queue: string;
  /** The client or academy it belongs to, for listings; null for the server's own jobs. */
  tenant: string | null;
  /** Jobs with the same key run one at a time, in id order; null: no order. */
  ordering_key: string | null;
  /** JSON: what the handler receives, decoded once by the runner. */
  payload: string;
  status: JobStatus;
  /** Attempts started (counted when claimed, so an attempt whose process died counts too). */
  attempts: number;
  /** No attempt after this many; null: the queue's default, unless `give_up_at` is set. */
  max_attempts: number | null;
  /** No attempt starts after this instant; null: no deadline. */
  give_up_at: number | null;
  /** When the next attempt may start. */
  run_at: number;
  /** While running: when the claim expires and another runner may take the job over. */
  lease_until: number | null;
  /** While running: the runner holding the claim. */
  locked_by: string | null;
  /** The last failed attempt's error, cut to 2000 characters. */
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

declare module '../db/schema.js' {
  interface Tables {
    jobs: JobsTable;
  }
}
