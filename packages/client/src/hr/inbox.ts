/** The Document manager's inbox (`/inbox_items`): documents sent to an HR user, a list of them or a shared inbox. */
import type { InboxItem, InboxItemCreate, InboxItemListQuery } from '../schemas/hr/documents/inbox.js';
import type { Verbs } from './core.js';

/** `hr.inboxItems`. */
export function inboxItems(v: Verbs) {
  const path = '/inbox_items';
  return {
    /** Lists and searches items (`q`, `state`, `shared_inbox_id`, `creator_id`), newest first. */
    list: v.list<InboxItem, InboxItemListQuery>(path),
    /** Creates an item with its documents (each an upload, used up). */
    create: v.create<InboxItemCreate, InboxItem>(path),
    /** Gets an item. */
    retrieve: v.retrieve<InboxItem>(path),
  };
}
