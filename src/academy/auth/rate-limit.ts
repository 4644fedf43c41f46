import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { AcademyError } from '../errors.js';

const WINDOW_MS = 60_000;
/** Forget finished windows once this many academies are tracked. */
const PRUNE_AT = 10_000;

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Per-academy request limit of the Academy API: at most `perMinute` requests
 * in a one-minute window that starts with an academy's first request. The
 * count lives in this process only, so with several server processes an
 * academy may make up to that many times as many requests (documented in
 * docs/academy-api.md as an approximation per process).
 */
export class AcademyRateLimiter {
  private readonly windows = new Map<number, Window>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request of the academy; past the limit, a 429 with an integer `Retry-After` (seconds). */
  take(academyId: AcademyTenantId): void {
    const at = this.now();
    let w = this.windows.get(academyId);
    if (!w || at - w.startedAt >= WINDOW_MS || at < w.startedAt) {
      if (!w && this.windows.size >= PRUNE_AT) this.prune(at);
      w = { startedAt: at, count: 0 };
      this.windows.set(academyId, w);
    }
    w.count += 1;
    if (w.count <= this.perMinute) return;
    const retryAfter = Math.max(1, Math.ceil((w.startedAt + WINDOW_MS - at) / 1000));
    throw new AcademyError(
      429,
      'rate_limited',
      `Too many requests: this academy may make ${this.perMinute} requests per minute. Retry in ${retryAfter} s.`,
      { 'Retry-After': String(retryAfter) },
    );
  }

  /**
   * What is left of the academy's allowance in its current window (this call counted, when the hook has run), and
   * when that window ends; with no window open, a whole allowance and a window starting now.
   */
  usage(academyId: AcademyTenantId): { availableCalls: number; until: number } {
    const at = this.now();
    const w = this.windows.get(academyId);
    if (!w || at - w.startedAt >= WINDOW_MS || at < w.startedAt)
      return { availableCalls: this.perMinute, until: at + WINDOW_MS };
    return { availableCalls: Math.max(0, this.perMinute - w.count), until: w.startedAt + WINDOW_MS };
  }

  private prune(at: number): void {
    for (const [id, w] of this.windows) if (at - w.startedAt >= WINDOW_MS) this.windows.delete(id);
  }
}
