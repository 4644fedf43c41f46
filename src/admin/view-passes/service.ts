import { VIEW_PASS_TTL_SECONDS, type ViewPasses } from '../../platform/security/view-pass.js';
import type { Clock } from '../../platform/time.js';
import type { TenantRef } from '../tenant-ref.js';

/** A view pass as made: the pass, and when it stops working (epoch ms). */
export interface IssuedViewPass {
  pass: string;
  expiresAt: number;
  ttlSeconds: number;
}

/**
 * View passes for the console (docs/admin.md, "View passes"): a read-only credential of one tenant's own API, so
 * that the console's data browser reads through the API's routes and queries, as an integrator's client would.
 * Making one changes nothing and is not audited; calls made with one are neither logged nor shaped by faults.
 */
export class ViewPassesService {
  constructor(
    private readonly passes: ViewPasses,
    private readonly clock: Clock,
  ) {}

  issue(tenant: TenantRef): IssuedViewPass {
    const { pass, expiresAt } = this.passes.issue(tenant.key, this.clock.wall());
    return { pass, expiresAt, ttlSeconds: VIEW_PASS_TTL_SECONDS };
  }
}
