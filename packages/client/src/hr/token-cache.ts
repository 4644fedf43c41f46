/** The HR client's access token cache. */
import { raceSignal } from '../http.js';

interface CachedToken {
  value: string;
  /** Local epoch ms after which the token is no longer used. */
  refreshAt: number;
}

/**
 * The access token: fetched on first use, cached, refreshed a margin before it expires; concurrent callers
 * share one refresh.
 */
export class TokenCache {
  private token: CachedToken | undefined;
  private inflight: Promise<string> | undefined;
  /** Token requests made (successful or not), for diagnostics. */
  requests = 0;

  constructor(
    private readonly fetchToken: () => Promise<{ token: string; expiresIn: number }>,
    private readonly marginSeconds: number,
  ) {}

  /** A valid token: the cached one, or a fresh one (shared with every concurrent caller). */
  get(signal?: AbortSignal): Promise<string> {
    const t = this.token;
    if (t && Date.now() < t.refreshAt) return Promise.resolve(t.value);
    return raceSignal(this.refresh(), signal);
  }

  /** Forgets `stale` (if still cached) so the next `get` fetches a new token. */
  invalidate(stale: string): void {
    if (this.token?.value === stale) this.token = undefined;
  }

  /** The cached token, without fetching. */
  peek(): string | undefined {
    return this.token?.value;
  }

  clear(): void {
    this.token = undefined;
  }

  private refresh(): Promise<string> {
    if (this.inflight) return this.inflight;
    const started = Date.now();
    this.requests++;
    const p = this.fetchToken()
      .then(({ token, expiresIn }) => {
        const lifetimeMs = Math.max(0, expiresIn) * 1000;
        const margin = Math.min(this.marginSeconds * 1000, lifetimeMs / 2);
        this.token = { value: token, refreshAt: started + lifetimeMs - margin };
        return token;
      })
      .finally(() => {
        if (this.inflight === p) this.inflight = undefined;
      });
    this.inflight = p;
    return p;
  }
}
