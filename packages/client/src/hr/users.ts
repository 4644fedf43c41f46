/** HR users (`/users`). */
import type { User, UserCountQuery, UserCreate, UserListQuery, UserPatch, UserPut } from '../schemas/hr/core/users.js';
import type { Verbs } from './core.js';

/** `hr.users`. */
export function users(v: Verbs) {
  const path = '/users';
  return {
    list: v.list<User, UserListQuery>(path),
    count: v.count<UserCountQuery>(path),
    create: v.create<UserCreate, User>(path),
    retrieve: v.retrieve<User>(path),
    upsert: v.upsert<UserPut, User>(path),
    update: v.update<UserPatch, User>(path),
  };
}
