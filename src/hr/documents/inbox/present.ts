import { formatDateTime } from '../../../platform/time.js';
import type { InboxItemRecord } from './repository.js';
import type { InboxItem } from './schemas.js';

/** An inbox item on the wire (reference §3c.7, `InboxItemFull`). */
export function presentInboxItem(item: InboxItemRecord): InboxItem {
  return {
    id: item.id,
    title: item.title,
    type: item.type as InboxItem['type'],
    description: item.description,
    creator_email: item.creatorEmail,
    to_users_ids: item.toUsersIds,
    to_inbox_id: item.toInboxId,
    state: item.state as InboxItem['state'],
    documents_count: item.documentsCount,
    creator_id: item.creatorId,
    send_notification: item.sendNotification,
    origin: item.origin as InboxItem['origin'],
    created_at: formatDateTime(item.createdAt),
    updated_at: formatDateTime(item.updatedAt),
  };
}
