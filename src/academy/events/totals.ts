/**
 * The events lists' totals (`all`), kept a moment when large: counting is the one part of a list whose cost grows
 * with the academy. One instance is shared by the services whose writes change them.
 */

import type { AcademyTenantId } from '../../platform/db/tenant.js';
import type { Clock } from '../../platform/time.js';
import type { EventListFilter, EventsRepository } from './repository.js';
import type { Kind } from './schemas.js';

/** A list total at least this large may be reused for up to TOTAL_REUSE_MS (docs/academy-api.md, "all"). */
export const TOTAL_REUSE_MIN = 1000;
export const TOTAL_REUSE_MS = 1000;
const TOTALS_KEPT = 10_000;

export class ListTotals {
  /**
   * Totals (`all`) of large lists, by academy and filter, when counted: counting is the one part of a list whose
   * cost grows with the academy (every matching row is visited). Forgotten on every event write in this process.
   */
  private readonly totals = new Map<string, { at: number; total: Promise<number> }>();

  constructor(
    private readonly repo: EventsRepository,
    private readonly clock: Clock,
  ) {}

  /** Forgets the academy's list totals after a write that may change them (or a snapshot restored). */
  forget(academyId: AcademyTenantId): void {
    const prefix = `${academyId}:`;
    for (const key of this.totals.keys()) if (key.startsWith(prefix)) this.totals.delete(key);
  }

  /**
   * The number of events a list filter matches. A total of TOTAL_REUSE_MIN or more is reused for TOTAL_REUSE_MS
   * (by the services' clock): writes in this process are seen at once, those of other processes and events
   * reaching their end (archived) within that time. Smaller totals are always counted.
   */
  total(academyId: AcademyTenantId, kind: Kind, filter: EventListFilter): Promise<number> {
    const key = `${academyId}:${kind}:${filter.status}:${filter.from ?? ''}:${filter.to ?? ''}`;
    const at = this.clock.now();
    const kept = this.totals.get(key);
    if (kept && at >= kept.at && at - kept.at < TOTAL_REUSE_MS) return kept.total;
    const total = this.repo.count(academyId, kind, filter);
    if (this.totals.size >= TOTALS_KEPT) this.totals.clear();
    // Shared by the calls that arrive while it is counted; kept only if large.
    this.totals.set(key, { at, total });
    total.then(
      (n) => {
        if (n < TOTAL_REUSE_MIN && this.totals.get(key)?.total === total) this.totals.delete(key);
      },
      () => {
        if (this.totals.get(key)?.total === total) this.totals.delete(key);
      },
    );
    return total;
  }
}
