import type { Generated } from 'kysely';

/** One bulk call (`POST|PUT|PATCH /employees/bulk`, `/users/bulk`): its request id and progress. */
export interface HrBulkOperationsTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4: the `request_id` the call answered. */
  id: string;
  /** `employees` or `users`: the path it was posted to, and the only one its status is read at. */
  resource: string;
  /** `create` (POST), `replace` (PUT) or `patch` (PATCH). */
  action: string;
  /** `queued`, `in_progress`, then `completed`. */
  status: string;
  /** Items in the call. */
  total: number;
  /** Items settled so far, by outcome: kept by the transaction that settles each item. */
  created_count: Generated<number>;
  updated_count: Generated<number>;
  failed_count: Generated<number>;
  /** JSON: who made the call (the author of each item's audit event). */
  caller: string;
  /** The job that applies the items (platform/jobs). */
  job_id: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** One element of a bulk call's array, and once applied, its result. */
export interface HrBulkItemsTable {
  client_id: string;
  operation_id: string;
  /** Zero-based position in the call's array. */
  item_index: number;
  /** JSON: the element as sent. */
  input: string;
  /** `pending`, then `success` or `failed`. */
  status: string;
  /** `created`, `updated` or `failed`, once settled. */
  outcome: string | null;
  message: string | null;
  /** JSON: the resource as its GET presents it (success), or the error body the single endpoint would answer. */
  result: string | null;
  /** The id of the resource written. */
  resource_id: string | null;
  settled_at: number | null;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_bulk_operations: HrBulkOperationsTable;
    hr_bulk_items: HrBulkItemsTable;
  }
}
