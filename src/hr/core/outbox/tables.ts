import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms). */

/** Mail Atrium would have sent (there is no real mail): read with `GET /outbox` (an Atrium extension). */
export interface HrOutboxTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4. */
  id: string;
  /** What it is: `signature.invitation`, `signature.reminder`, `signature.signed_document`, … */
  kind: string;
  to_address: string | null;
  to_name: string;
  subject: string;
  body: string;
  /** The object it is about (a signer's id, a process's). */
  related_id: string | null;
  created_at: number;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_outbox: HrOutboxTable;
  }
}
