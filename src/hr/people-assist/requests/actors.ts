/** Who acts on a request: the caller named by `X-Atrium-User-Id`, and the people a request's fields name. */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { type FieldError, InvalidRequestError } from '../../../platform/errors.js';
import type { EmployeeRegistrations, PersonRecord, RequestsRepository } from './repository.js';
import type { PersonKind } from './tables.js';

/** Who makes a call: the application, or the HR user named by `X-Atrium-User-Id`. */
export type RequestActor = { kind: 'application' } | { kind: 'user'; userId: string };

/** The HR user `actor` names, checked; undefined when the application acts. */
export async function checkActor(
  repo: RequestsRepository,
  clientId: HrTenantId,
  actor: RequestActor,
): Promise<PersonRecord | undefined> {
  if (actor.kind === 'application') return undefined;
  const user = await repo.person(clientId, { id: actor.userId }, ['user']);
  if (!user) throw new InvalidRequestError('Invalid header "X-Atrium-User-Id": no HR user of this client has this id.');
  return user;
}

/** The person named by `<field>_id` or `<field>_external_id`; unknown is a field error. */
export async function namedPerson(
  repo: RequestsRepository,
  clientId: HrTenantId,
  field: string,
  id: string | undefined,
  externalId: string | undefined,
  kinds: readonly PersonKind[],
  errors: FieldError[],
  registrations = false,
): Promise<(PersonRecord & { registrations?: EmployeeRegistrations }) | undefined> {
  if (id !== undefined && id !== '') {
    const p = await repo.person(clientId, { id }, kinds, registrations);
    if (!p) errors.push({ field: `${field}_id`, code: 'not_found', message: `No ${kinds.join(' or ')} has this id.` });
    return p;
  }
  if (externalId !== undefined && externalId !== '') {
    const p = await repo.person(clientId, { externalId }, kinds, registrations);
    if (!p) {
      errors.push({
        field: `${field}_external_id`,
        code: 'not_found',
        message: `No ${kinds.join(' or ')} has this external id.`,
      });
    }
    return p;
  }
  return undefined;
}
