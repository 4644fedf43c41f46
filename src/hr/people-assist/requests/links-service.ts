/** A request's assignees and its links to other requests. */
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { RequestView } from './present.js';
import type { PersonRecord, RequestsRepository } from './repository.js';
import { type RequestsWork, recordRequest, viewOf, views } from './views.js';

/** The users assigned to a request, and the requests linked to it (both ways). */
export class RequestLinksService {
  private readonly repo: RequestsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RequestsWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.requests;
  }

  async assignees(
    clientId: HrTenantId,
    requestId: string,
    offset: number,
    length: number,
  ): Promise<{ people: PersonRecord[]; total: number }> {
    await viewOf(this.repo, clientId, requestId, false);
    const { ids, total } = await this.repo.assignees(clientId, requestId, offset, length);
    const people = await this.repo.people(clientId, ids);
    return { people: ids.flatMap((i) => (people.has(i) ? [people.get(i) as PersonRecord] : [])), total };
  }

  async linked(clientId: HrTenantId, requestId: string, request: PageRequest): Promise<Page<RequestView>> {
    await viewOf(this.repo, clientId, requestId, false);
    const page = await this.repo.linkedPage(clientId, requestId, request);
    return { ...page, items: await views(this.repo, clientId, page.items) };
  }

  async link(clientId: HrTenantId, requestId: string, others: readonly string[]): Promise<void> {
    await viewOf(this.repo, clientId, requestId, false);
    const errors: FieldError[] = [];
    const known = await this.repo.existingIds(clientId, others);
    others.forEach((o, i) => {
      if (o === requestId)
        errors.push({ field: `uuid.${i}`, code: 'invalid_value', message: 'A request cannot be linked to itself.' });
      else if (!known.has(o))
        errors.push({ field: `uuid.${i}`, code: 'not_found', message: 'No request has this id.' });
    });
    if (errors.length) throw new FieldValidationError(errors);
    await this.work.run(async (tx) => {
      await tx.requests.link(clientId, requestId, [...new Set(others)], this.clock.now());
      await recordRequest(clientId, tx, requestId, 'linked');
    });
  }
}
