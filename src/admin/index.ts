import type { Db } from '../platform/db/database.js';
import { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Clock } from '../platform/time.js';
import { AdminAuditRepository } from './audit/repository.js';
import { AdminAuditService } from './audit/service.js';
import { AdminTokensRepository } from './tokens/repository.js';
import { AdminTokensService } from './tokens/service.js';

/**
 * The admin side of Atrium (docs/admin.md): operators' tokens and the admin audit log. The admin API (`/admin/v1`)
 * will be served on them.
 */
export function createAdmin(context: { db: Db; clock: Clock }) {
  const work = new UnitOfWork(context.db, (db) => ({
    tokens: new AdminTokensRepository(db),
    audit: new AdminAuditRepository(db),
  }));
  return {
    adminTokens: new AdminTokensService(work, context.clock),
    adminAudit: new AdminAuditService(work.read.audit),
  };
}

export type AdminServices = ReturnType<typeof createAdmin>;
