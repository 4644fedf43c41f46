import { formatDateTime } from '../../platform/time.js';
import type { TenantRef } from '../tenant-ref.js';
import type { FaultRecord } from './repository.js';
import type { Fault } from './schemas.js';

export function presentFault(tenant: TenantRef, rule: FaultRecord): Fault {
  return {
    id: rule.id,
    match: {
      api: tenant.kind,
      method: rule.method,
      operation_id: rule.operationId,
      path: rule.path,
      before_authentication: rule.beforeAuthentication,
    },
    effect: rule.effect as Fault['effect'],
    probability: rule.probability,
    remaining_count: rule.remainingCount,
    until: rule.until === null ? null : formatDateTime(rule.until),
    seed: rule.seed,
    applied_count: rule.appliedCount,
    created_at: formatDateTime(rule.createdAt),
  };
}
