/**
 * The base of every repository of an API's tenant tables: the database handle, and the repository's view of it
 * through one tenant (`tenant`), built in this one place. HR tables carry the tenant in `client_id` (a client's
 * id), the Academy's in `academy_id` (an academy's number).
 */
import type { Db } from './database.js';
import type { Tables } from './schema.js';
import { type AcademyTenantId, type HrTenantId, Tenant } from './tenant.js';

/** A repository of the HR API's tables: `tenant(clientId)` reads and writes one client's rows. */
export abstract class HrRepository {
  constructor(readonly db: Db) {}

  protected tenant(clientId: HrTenantId): Tenant<Tables> {
    return new Tenant<Tables>(this.db, clientId);
  }
}

/** A repository of the Academy API's tables: `tenant(academyId)` reads and writes one academy's rows. */
export abstract class AcademyRepository {
  constructor(readonly db: Db) {}

  protected tenant(academyId: AcademyTenantId): Tenant<Tables, 'academy_id'> {
    return new Tenant<Tables, 'academy_id'>(this.db, academyId, 'academy_id');
  }
}

/** A boolean a SQL expression returns, decoded: 1 / 0 on SQLite, true / false on PostgreSQL. */
export function sqlBoolean(value: unknown): boolean {
  return value === true || value === 1;
}
