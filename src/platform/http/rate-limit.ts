import { wallClock } from '../time.js';

/** Forget finished windows once this many keys are tracked. */
const PRUNE_AT = 10_000;
/** Never track more keys than this: past it, the oldest windows are forgotten (a flood of new keys). */
const MAX_KEYS = 100_000;

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Counts events per key (a credential, a client address) in fixed windows that start with the key's first
 * event. In memory, per process: with N processes a key may make up to N times the limit (documented).
 */
export class WindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    /** Events allowed per window; 0 turns the limiter off. */
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = wallClock,
  ) {}

  private current(key: string, at: number): Window | undefined {
    const w = this.windows.get(key);
    // A clock stepped back by more than a window (a corrected clock) starts afresh; a little jitter does not.
    if (!w || at - w.startedAt >= this.windowMs || at < w.startedAt - this.windowMs) return undefined;
    return w;
  }

  /** Whole seconds (at least 1, at most the window) until the key's window ends. */
  private retryAfter(w: Window, at: number): number {
    const left = Math.min(w.startedAt + this.windowMs - at, this.windowMs);
    return Math.max(1, Math.ceil(left / 1000));
  }

  /** Counts one event of the key; past the limit, the seconds to wait (the caller answers 429), else 0. */
  hit(key: string): number {
    if (this.limit <= 0) return 0;
    const at = this.now();
    let w = this.current(key, at);
    if (!w) {
      if (this.windows.size >= PRUNE_AT) this.prune(at);
      if (this.windows.size >= MAX_KEYS) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
      w = { startedAt: at, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count > this.limit ? this.retryAfter(w, at) : 0;
  }

  /** The seconds to wait when the key has already used up its window (counting nothing), else 0. */
  exhausted(key: string): number {
    if (this.limit <= 0) return 0;
    const at = this.now();
    const w = this.current(key, at);
    return w && w.count >= this.limit ? this.retryAfter(w, at) : 0;
  }

  /** How many keys are tracked (tests bound it). */
  get size(): number {
    return this.windows.size;
  }

  private prune(at: number): void {
    for (const [key, w] of this.windows) if (at - w.startedAt >= this.windowMs) this.windows.delete(key);
  }
}

/** The request limits both APIs apply (`ATRIUM_RATE_LIMIT`, `ATRIUM_AUTH_FAILURE_LIMIT`). */
export interface RateLimits {
  /** Requests per second per credential (an HR application, an academy). */
  perCredential: WindowLimiter;
  /** Failed authentications per minute per client address, shared by both APIs. */
  authFailures: WindowLimiter;
  /** Failed authentications per minute per credential named (an HR application id, an Academy key) and address. */
  credentialFailures: WindowLimiter;
}

export function rateLimits(perSecond: number, failuresPerMinute: number, now: () => number = wallClock): RateLimits {
  return {
    perCredential: new WindowLimiter(perSecond, 1000, now),
    authFailures: new WindowLimiter(failuresPerMinute, 60_000, now),
    credentialFailures: new WindowLimiter(failuresPerMinute, 60_000, now),
  };
}

/** Which limit a refused attempt ran into. */
export type FailureLimit = 'address' | 'credential';

/**
 * Runs an authentication under the failed-attempt limits (docs/security.md, "Failed authentications"):
 *
 * - a credential (an HR application id, an Academy key) that failed `ATRIUM_AUTH_FAILURE_LIMIT` times in a minute
 *   from one address is refused (429) from that address before it is checked, until its minute ends; from any
 *   other address it is served, so failures from others never lock its owner out;
 * - an address that failed that many times has its further failures answered 429 instead of 401, but a credential
 *   that checks out is served from it: a valid credential is never refused because of others' failures from the
 *   same address (a proxy, a NAT).
 *
 * Failures from an address past its limit are not counted against credentials, so one address cannot fill the
 * per-credential table. `credential` is undefined when the attempt names none (a bearer token, a malformed header).
 */
export async function underFailureLimits<T>(
  limits: RateLimits | undefined,
  address: string,
  credential: string | undefined,
  authenticate: () => Promise<T>,
  isFailure: (error: unknown) => boolean,
  refuse: (retryAfter: number, limit: FailureLimit) => Error,
): Promise<T> {
  if (!limits) return authenticate();
  // A credential's failures count per address: a stranger who knows an application id (it is no secret) can lock
  // it out of their own address only, never out of its owner's.
  const key = credential === undefined ? undefined : `${credential}\u0000${address}`;
  const locked = key === undefined ? 0 : limits.credentialFailures.exhausted(key);
  if (locked > 0) throw refuse(locked, 'credential');
  try {
    return await authenticate();
  } catch (error) {
    if (!isFailure(error)) throw error;
    const addressWait = limits.authFailures.hit(address);
    if (addressWait > 0) throw refuse(addressWait, 'address');
    const credentialWait = key === undefined ? 0 : limits.credentialFailures.hit(key);
    if (credentialWait > 0) throw refuse(credentialWait, 'credential');
    throw error;
  }
}
