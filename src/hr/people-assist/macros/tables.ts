import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** A macro: named actions HR runs on a request (`/macros`). */
export interface PaMacrosTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  name: string;
  label: string;
  description: string;
  active: number;
  /** JSON arrays of ids: the forms, roles and custom statuses the macro is offered for (empty: any). */
  forms: string;
  roles: string;
  custom_statuses: string;
  /** JSON array of {label, template, data}. */
  actions: string;
  created_at: number;
  updated_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    pa_macros: PaMacrosTable;
  }
}
