import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** A client-defined workflow step of People Assist requests (`/custom_status`). */
export interface PaCustomStatusesTable {
  pk: Generated<number>;
  client_id: string;
  /** A slug of the name, or the id the client chose in `PUT /custom_status/{id}`. */
  id: string;
  name: string;
  is_active: number;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    pa_custom_statuses: PaCustomStatusesTable;
  }
}
