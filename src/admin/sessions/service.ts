import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { hashSecret, newSecret, safeEqual } from '../../platform/security/secrets.js';
import type { Clock } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { AdminTokensService } from '../tokens/service.js';
import type { AdminSessionRecord, AdminSessionsRepository } from './repository.js';

export interface AdminSessionsWork {
  sessions: AdminSessionsRepository;
  audit: AdminAuditRepository;
}

/** A session ends after this long without a call. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** And this long after it opened, whatever the use. */
export const SESSION_MAX_MS = 12 * 3_600_000;
/** Its last use is written at most this often (a call within a minute of the last write writes nothing). */
const TOUCH_MS = 60_000;

/** A session as the admin API shows it: never the cookie. */
export interface OpenSession {
  session: AdminSessionRecord;
  /** The value of `X-CSRF-Token` that a state-changing call with the cookie must send. */
  csrfToken: string;
}

/**
 * Console sessions (docs/admin.md, "Sessions"): an operator token exchanged for a cookie, so that a browser page
 * can call the admin API without holding the token. The cookie is 256 random bits; only its SHA-256 is stored. The
 * CSRF token is derived from the cookie (a hash of it under its own label), so it is not stored either: a page that
 * cannot read the cookie (it is `HttpOnly`) learns it from `GET /session`, which another site cannot read (the
 * admin API answers no cross-origin request). A session ends after 30 minutes without a call, 12 hours after it
 * opened, when it is closed, or when its operator token is revoked.
 */
export class AdminSessionsService {
  constructor(
    private readonly work: UnitOfWork<Tables, AdminSessionsWork>,
    private readonly tokens: Pick<AdminTokensService, 'verify'>,
    private readonly clock: Clock,
  ) {}

  /** A new session for a live operator token, and its cookie; undefined for an unknown or revoked token. */
  async open(presentedToken: string): Promise<(OpenSession & { cookie: string }) | undefined> {
    const token = await this.tokens.verify(presentedToken);
    if (!token) return undefined;
    const cookie = newSecret();
    const at = this.clock.wall();
    const idHash = hashSecret(cookie);
    const expiresAt = at + SESSION_MAX_MS;
    await this.work.run(async ({ sessions, audit }) => {
      await sessions.sweep(at, at - SESSION_IDLE_MS);
      await sessions.insert({ idHash, tokenId: token.id, at, expiresAt });
      await audit.record({
        at,
        actor: `token ${token.id} (${token.name})`,
        action: 'admin_session.opened',
        target: token.id,
        detail: { expires_at: new Date(expiresAt).toISOString() },
      });
    });
    const session: AdminSessionRecord = { idHash, createdAt: at, lastSeenAt: at, expiresAt, token };
    return { cookie, session, csrfToken: csrfTokenOf(cookie) };
  }

  /** The live session of a cookie, its last use moved forward; undefined once it has ended for any reason. */
  async check(cookie: string): Promise<OpenSession | undefined> {
    if (cookie.length === 0 || cookie.length > 128) return undefined;
    const idHash = hashSecret(cookie);
    const found = await this.work.read.sessions.find(idHash);
    const at = this.clock.wall();
    if (!found || !safeEqual(found.idHash, idHash) || found.token.revokedAt !== null) return undefined;
    if (found.expiresAt <= at || found.lastSeenAt + SESSION_IDLE_MS <= at) return undefined;
    if (at - found.lastSeenAt >= TOUCH_MS) {
      await this.work.read.sessions.touch(idHash, at);
      found.lastSeenAt = at;
    }
    return { session: found, csrfToken: csrfTokenOf(cookie) };
  }

  /** Whether a state-changing call sent the session's CSRF token (compared in constant time). */
  csrfMatches(open: OpenSession, presented: string | undefined): boolean {
    return typeof presented === 'string' && safeEqual(presented, open.csrfToken);
  }

  /** Ends the session (sign-out); audited. */
  async close(open: OpenSession): Promise<void> {
    const at = this.clock.wall();
    const { token } = open.session;
    await this.work.run(async ({ sessions, audit }) => {
      if (!(await sessions.delete(open.session.idHash))) return;
      await audit.record({
        at,
        actor: `token ${token.id} (${token.name})`,
        action: 'admin_session.closed',
        target: token.id,
        detail: {},
      });
    });
  }

  /** When the session ends if it is not used again (the earlier of its idle end and its absolute end). */
  endOf(session: AdminSessionRecord): number {
    return Math.min(session.expiresAt, session.lastSeenAt + SESSION_IDLE_MS);
  }
}

/** The session's CSRF token: a hash of its cookie under a label of its own (the cookie's own hash is its id). */
function csrfTokenOf(cookie: string): string {
  return hashSecret(`atrium-csrf:${cookie}`);
}
