import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** An inbox item (reference §3c.7): documents sent to someone's inbox for them to process. */
export interface HrInboxItemsTable {
  pk: Generated<number>;
  client_id: string;
  /** UUID v4, made by the server. */
  id: string;
  title: string;
  /** `private`, `list` or `group`. */
  type: string;
  description: string | null;
  creator_email: string | null;
  /** JSON array of HR user ids (`list` items). */
  to_users_ids: string;
  to_inbox_id: string | null;
  /** `pending`, `processing`, `completed` or `refused`. */
  state: string;
  creator_id: string | null;
  send_notification: number;
  origin: string;
  created_at: number;
  updated_at: number;
}

/** A file sent with an item, in the order sent: its bytes are the blob `sha256` (in BLOB_REFERENCES). */
export interface HrInboxItemFilesTable {
  client_id: string;
  inbox_item_id: string;
  position: number;
  filename: string;
  sha256: string;
  size: number;
  content_type: string;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_inbox_items: HrInboxItemsTable;
    hr_inbox_item_files: HrInboxItemFilesTable;
  }
}
