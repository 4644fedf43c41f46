/** HR users (`/users`). */

import type { RequestOptions } from '../http.js';
import type {
  User,
  UserBulkPatchItem,
  UserBulkPutItem,
  UserBulkStatus,
  UserCountQuery,
  UserCreate,
  UserListQuery,
  UserPatch,
  UserPut,
} from '../schemas/hr/core/users.js';
import { bulkCalls } from './bulk.js';
import { enc, type HrCore, type Verbs } from './core.js';

/** `hr.users`. */
export function users(core: HrCore, v: Verbs) {
  const path = '/users';
  return {
    list: v.list<User, UserListQuery>(path),
    count: v.count<UserCountQuery>(path),
    create: v.create<UserCreate, User>(path),
    retrieve: v.retrieve<User>(path),
    upsert: v.upsert<UserPut, User>(path),
    update: v.update<UserPatch, User>(path),
    /** `/users/bulk`: up to 1000 users a call, applied in the background; `waitFor` polls the result. */
    bulk: bulkCalls<UserCreate, UserBulkPutItem, UserBulkPatchItem, UserBulkStatus>(core, `${path}/bulk`),
    /** `POST /users/{id}/invite`: the activation mail (the outbox). */
    invite: async (id: string, options?: RequestOptions): Promise<void> => {
      await core.json<undefined>('POST', `${path}/${enc(id)}/invite`, {}, options);
    },
  };
}
