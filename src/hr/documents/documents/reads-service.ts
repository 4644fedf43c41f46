/** Reading employee and company documents: one (for GET and the downloads), and pages of a search. */
import type { KeysetPosition, Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, InvalidRequestError } from '../../../platform/errors.js';
import { commaList } from '../../../platform/lists.js';
import { type Clock, dayOf, parseDateOrDateTime } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { DocumentKind } from '../folders/tables.js';
import { APPLICATION, type DocumentActor, type DocumentPermissions, subjectOf } from './access.js';
import { type DocumentsWork, documentViews, pageAt } from './records.js';
import type { DocumentQuery, DocumentRecord, DocumentsRepository, DocumentView } from './repository.js';
import type { DocumentFilters } from './schemas.js';

/**
 * Employee and company documents as a caller may read them: one, or a page of those matching a search (for an
 * HR user, only those the user may view).
 */
export class DocumentReadsService {
  private readonly repo: DocumentsRepository;

  constructor(
    work: UnitOfWork<Tables, Audited<DocumentsWork>>,
    private readonly permissions: DocumentPermissions,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.documents;
  }

  async get(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    actor: DocumentActor = APPLICATION,
  ): Promise<DocumentView> {
    return this.permissions.authorized(clientId, kind, id, actor, 'view');
  }

  /** What a download needs: the blob and the name to offer. */
  async file(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    actor: DocumentActor = APPLICATION,
  ): Promise<DocumentRecord> {
    return (await this.permissions.authorized(clientId, kind, id, actor, 'view')).row;
  }

  // ------------------------------------------------------------ lists

  private query(f: DocumentFilters, inBody: boolean): DocumentQuery {
    const instant = (field: 'created_at_since' | 'created_at_until', end: boolean) => {
      const text = f[field];
      if (text === undefined) return undefined;
      const at = parseDateOrDateTime(text);
      if (at === undefined) {
        const message = 'Expected a date, YYYY-MM-DD.';
        if (inBody) throw new FieldValidationError([{ field, code: 'invalid_date', message }]);
        throw new InvalidRequestError(`Invalid query parameter "${field}": ${message}`);
      }
      return end ? at + 86_400_000 - 1 : at;
    };
    const q: DocumentQuery = {
      trashed: f.trashed === true,
      expired: f.expired === true,
      today: dayOf(this.clock.now()),
    };
    if (f.employee_id !== undefined) q.employeeId = f.employee_id;
    if (f.document_type_id !== undefined) q.documentTypeId = f.document_type_id;
    if (f.q !== undefined) q.q = f.q;
    if (f.external_reference !== undefined) q.externalReference = f.external_reference;
    if (f.origin !== undefined) q.origin = f.origin;
    if (f.organization_id_below !== undefined) q.organizationBelow = f.organization_id_below;
    const orgs = commaList(f.organization_ids);
    if (orgs?.length) q.organizationIds = orgs;
    const numbers = commaList(f.employee_numbers);
    if (numbers?.length) q.employeeNumbers = numbers;
    if (f.date_since !== undefined) q.dateSince = f.date_since;
    if (f.date_until !== undefined) q.dateUntil = f.date_until;
    const since = instant('created_at_since', false);
    if (since !== undefined) q.createdSince = since;
    const until = instant('created_at_until', true);
    if (until !== undefined) q.createdUntil = until;
    if (f.expiry_date_since !== undefined) q.expirySince = f.expiry_date_since;
    if (f.expiry_date_until !== undefined) q.expiryUntil = f.expiry_date_until;
    if (f.expiration_date_until !== undefined) q.expirationUntil = f.expiration_date_until;
    return q;
  }

  /**
   * One page of matching documents. `page` (1-based, the reference's page
   * parameter) starts the page at that offset when no cursor is given.
   */
  async search(
    clientId: HrTenantId,
    kind: DocumentKind,
    filters: DocumentFilters,
    options: { inBody: boolean; request: PageRequest; page?: number; actor?: DocumentActor },
  ): Promise<Page<DocumentView>> {
    const actor = options.actor ?? APPLICATION;
    await this.permissions.checkActor(clientId, actor);
    const query = this.query(filters, options.inBody);
    const { limit } = options.request;
    let position = options.request.at.position;
    if (!position && options.page !== undefined && options.page > 1) {
      position = await this.repo.positionAt(clientId, kind, query, (options.page - 1) * limit);
    }
    if (actor.kind === 'application') {
      const page = await this.repo.page(clientId, kind, query, pageAt(limit, position));
      return { ...page, items: await documentViews(this.clock, this.repo, clientId, page.items) };
    }
    return this.visiblePage(clientId, kind, query, actor, limit, position);
  }

  /**
   * A page of the documents a user may view: matching rows are read in keyset order, batch after batch, and
   * those the user may not view are skipped until the page is full. One more visible row is looked for, so the
   * next page is announced only when it has something; the previous one is announced whenever the page was
   * reached from a cursor.
   */
  private async visiblePage(
    clientId: HrTenantId,
    kind: DocumentKind,
    query: DocumentQuery,
    actor: DocumentActor,
    limit: number,
    position?: KeysetPosition,
  ): Promise<Page<DocumentView>> {
    const forward = !position || position.direction === 'after';
    const found: DocumentView[] = [];
    let cursor = position;
    for (;;) {
      const batch = await this.repo.page(clientId, kind, query, pageAt(limit + 1, cursor));
      const views = await documentViews(this.clock, this.repo, clientId, batch.items);
      for (const view of forward ? views : views.reverse()) {
        if (found.length > limit) break;
        if (await this.permissions.may(clientId, actor, 'view', subjectOf(view))) found.push(view);
      }
      cursor = forward ? batch.next : batch.previous;
      if (found.length > limit || !cursor) break;
    }
    const more = found.length > limit;
    const items = found.slice(0, limit);
    if (!forward) items.reverse();
    const at = (view: DocumentView, direction: 'after' | 'before'): KeysetPosition => ({
      keys: [view.row.pk],
      direction,
      inclusive: false,
    });
    // Where the caller came from, seen from the other side (an empty page still leads back).
    const back = position && {
      keys: position.keys,
      direction: position.direction === 'after' ? ('before' as const) : ('after' as const),
      inclusive: !position.inclusive,
    };
    const first = items[0];
    const last = items[items.length - 1];
    const page: Page<DocumentView> = { items };
    const next = forward ? (more && last ? at(last, 'after') : undefined) : last ? at(last, 'after') : back;
    const previous = forward
      ? first && position
        ? at(first, 'before')
        : back
      : more && first
        ? at(first, 'before')
        : undefined;
    if (next) page.next = next;
    if (previous) page.previous = previous;
    return page;
  }
}
