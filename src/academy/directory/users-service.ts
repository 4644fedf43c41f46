import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { NotFoundError } from '../../platform/errors.js';
import type { UserRecord, UsersRepository } from './repository-users.js';
import { MAX_ID } from './schemas.js';

/**
 * The user a path or query names: by id, or with `external` by external id. An id that is not a positive integer,
 * and a user of another academy, are a 404 like an unknown one.
 */
export async function resolveUser(
  users: UsersRepository,
  academyId: AcademyTenantId,
  userId: string,
  external: boolean,
): Promise<UserRecord> {
  const found = external
    ? await users.findUserByExternalId(academyId, userId)
    : /^[1-9][0-9]{0,9}$/.test(userId) && Number(userId) <= MAX_ID
      ? await users.findUser(academyId, Number(userId))
      : undefined;
  if (!found) throw new NotFoundError('user', userId);
  return found;
}
