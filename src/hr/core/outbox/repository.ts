import type { Selectable } from 'kysely';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { HrOutboxTable } from './tables.js';

/** A mail as the domain sees it. */
export interface OutboxMail {
  pk: number;
  id: string;
  kind: string;
  toAddress: string | null;
  toName: string;
  subject: string;
  body: string;
  relatedId: string | null;
  createdAt: number;
}

/** A mail to record. */
export type NewMail = Omit<OutboxMail, 'pk' | 'createdAt'>;

export interface OutboxFilter {
  kind?: string | undefined;
  relatedId?: string | undefined;
}

/** Newest first. */
const ORDER: ListOrder = { fixed: [{ term: 'm.pk', direction: 'desc' }] };

function toMail(row: Selectable<HrOutboxTable>): OutboxMail {
  return {
    pk: Number(row.pk),
    id: row.id,
    kind: row.kind,
    toAddress: row.to_address,
    toName: row.to_name,
    subject: row.subject,
    body: row.body,
    relatedId: row.related_id,
    createdAt: Number(row.created_at),
  };
}

/** The outbox (docs/hr-api.md, "Outbox"): written in the transaction of what sends the mail. */
export class OutboxRepository extends HrRepository {
  async insert(clientId: HrTenantId, mails: readonly NewMail[], at: number): Promise<void> {
    if (mails.length === 0) return;
    await this.tenant(clientId)
      .insertInto(
        'hr_outbox',
        mails.map((m) => ({
          id: m.id,
          kind: m.kind,
          to_address: m.toAddress,
          to_name: m.toName,
          subject: m.subject,
          body: m.body,
          related_id: m.relatedId,
          created_at: at,
        })),
      )
      .execute();
  }

  async page(clientId: HrTenantId, filter: OutboxFilter, request: PageRequest): Promise<Page<OutboxMail>> {
    let query = this.tenant(clientId).selectFrom('hr_outbox as m').selectAll('m');
    if (filter.kind !== undefined) query = query.where('m.kind', '=', filter.kind);
    if (filter.relatedId !== undefined) query = query.where('m.related_id', '=', filter.relatedId);
    const page = await listPage(query, ORDER, request);
    return { ...page, items: page.items.map(toMail) };
  }
}
