import { type Selectable, sql } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrInboxItemsTable } from './tables.js';

/** An inbox item as the domain sees it. */
export interface InboxItemRecord {
  pk: number;
  id: string;
  title: string;
  type: string;
  description: string | null;
  creatorEmail: string | null;
  toUsersIds: string[];
  toInboxId: string | null;
  state: string;
  creatorId: string | null;
  sendNotification: boolean;
  origin: string;
  documentsCount: number;
  createdAt: number;
  updatedAt: number;
}

export type NewInboxItem = Omit<InboxItemRecord, 'pk' | 'documentsCount' | 'createdAt' | 'updatedAt'>;

export interface InboxFile {
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
}

export interface InboxFilter {
  q?: string | undefined;
  state?: string | undefined;
  sharedInboxId?: string | undefined;
  creatorId?: string | undefined;
}

/** Newest first. */
const ORDER: ListOrder = { fixed: [{ term: 'i.created_at', direction: 'desc' }], tiebreak: 'i.pk' };

type Row = Selectable<HrInboxItemsTable> & { documents_count: number | string };

function toRecord(row: Row): InboxItemRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    title: row.title,
    type: row.type,
    description: row.description,
    creatorEmail: row.creator_email,
    toUsersIds: JSON.parse(row.to_users_ids) as string[],
    toInboxId: row.to_inbox_id,
    state: row.state,
    creatorId: row.creator_id,
    sendNotification: row.send_notification === 1,
    origin: row.origin,
    documentsCount: Number(row.documents_count),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Inbox items and their files (reference §3c.7). */
export class InboxRepository extends HrRepository {
  private filtered(clientId: HrTenantId, filter: InboxFilter) {
    const files = () =>
      this.tenant(clientId)
        .selectFrom('hr_inbox_item_files as f')
        .select('f.position')
        .where(sql<boolean>`f.inbox_item_id = i.id`);
    let q = this.tenant(clientId)
      .selectFrom('hr_inbox_items as i')
      .selectAll('i')
      .select((eb) => eb.selectFrom(files().as('x')).select(eb.fn.countAll<number>().as('n')).as('documents_count'));
    if (filter.state !== undefined) q = q.where('i.state', '=', filter.state);
    if (filter.sharedInboxId !== undefined) q = q.where('i.to_inbox_id', '=', filter.sharedInboxId);
    if (filter.creatorId !== undefined) q = q.where('i.creator_id', '=', filter.creatorId);
    if (filter.q !== undefined) {
      const text = filter.q;
      q = q.where((eb) =>
        eb.or([
          containsText(['i.title', 'i.to_inbox_id', 'i.creator_email'], text),
          eb.exists(files().where(containsText(['f.filename'], text))),
        ]),
      );
    }
    return q;
  }

  async page(clientId: HrTenantId, filter: InboxFilter, request: PageRequest): Promise<Page<InboxItemRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: (page.items as Row[]).map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<InboxItemRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('i.id', '=', id).executeTakeFirst();
    return row ? toRecord(row as Row) : undefined;
  }

  async insert(clientId: HrTenantId, item: NewInboxItem, files: readonly InboxFile[], at: number): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_inbox_items', {
        id: item.id,
        title: item.title,
        type: item.type,
        description: item.description,
        creator_email: item.creatorEmail,
        to_users_ids: JSON.stringify(item.toUsersIds),
        to_inbox_id: item.toInboxId,
        state: item.state,
        creator_id: item.creatorId,
        send_notification: item.sendNotification ? 1 : 0,
        origin: item.origin,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await this.tenant(clientId)
      .insertInto(
        'hr_inbox_item_files',
        files.map((f, position) => ({
          inbox_item_id: item.id,
          position,
          filename: f.filename,
          sha256: f.sha256,
          size: f.size,
          content_type: f.contentType,
        })),
      )
      .execute();
  }

  /** Which of these ids are HR users of the client, with their names and addresses. */
  async users(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, { name: string; email: string }>> {
    const found = await existingIds(this.db, 'hr_users', clientId, ids);
    const result = new Map<string, { name: string; email: string }>();
    if (found.size === 0) return result;
    const rows = await this.tenant(clientId)
      .selectFrom('hr_users as u')
      .select(['u.id', 'u.firstname', 'u.lastname', 'u.email'])
      .where('u.id', 'in', [...found])
      .execute();
    for (const row of rows) result.set(row.id, { name: `${row.firstname} ${row.lastname}`, email: row.email });
    return result;
  }
}
