import { createHmac } from 'node:crypto';
import { safeEqual } from './secrets.js';

/** What every view pass starts with, so the tenant APIs' guards tell one from a token or key at a glance. */
export const VIEW_PASS_PREFIX = 'atrium_view_';
/** How long a view pass lives: the console asks for another before then. */
export const VIEW_PASS_TTL_SECONDS = 600;
/** Longer than any pass this server makes (a tenant id of 64 characters makes about 170). */
const MAX_PASS_LENGTH = 256;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by a tenant API's guard when the call presents a view pass (the console browsing a tenant's data): such a
     * call is never written to the request log nor shaped by a fault rule.
     */
    viewPass?: boolean;
  }
}

/** A pass's content once its signature and expiry are checked. */
export interface ViewPassClaims {
  /** The one tenant it reads: `hr:<client id>` or `academy:<academy id>`. */
  tenant: string;
  /** When it stops working (epoch ms, wall clock). */
  expiresAt: number;
}

/**
 * View passes: short-lived, read-only credentials of one tenant's public API, made by the admin API
 * (`POST /admin/v1/tenants/{kind}/{id}/view_pass`) for the console's data browser, so that the console reads a
 * tenant's data through the API's own routes and queries rather than through a back door of its own.
 *
 * A pass is `atrium_view_<payload>.<mac>`: the payload names the tenant and the expiry, and the MAC is an
 * HMAC-SHA256 under a secret kept (sealed) in the database, so every process accepts every other's passes and
 * nothing per pass is stored. Expiry is on the wall clock, never a tenant's moved clock. A pass cannot be revoked;
 * it lives ten minutes.
 */
export class ViewPasses {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'utf8');
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  issue(tenant: string, now: number): { pass: string; expiresAt: number } {
    const expiresAt = now + VIEW_PASS_TTL_SECONDS * 1000;
    const payload = Buffer.from(JSON.stringify({ t: tenant, e: expiresAt }), 'utf8').toString('base64url');
    return { pass: `${VIEW_PASS_PREFIX}${payload}.${this.mac(payload)}`, expiresAt };
  }

  /** The pass's claims, or undefined when it is malformed, forged, altered or expired. */
  verify(pass: string, now: number): ViewPassClaims | undefined {
    if (pass.length > MAX_PASS_LENGTH || !pass.startsWith(VIEW_PASS_PREFIX)) return undefined;
    const [payload, mac, ...rest] = pass.slice(VIEW_PASS_PREFIX.length).split('.');
    if (!payload || !mac || rest.length > 0) return undefined;
    if (!safeEqual(this.mac(payload), mac)) return undefined;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    const { t, e } = (claims ?? {}) as { t?: unknown; e?: unknown };
    if (typeof t !== 'string' || typeof e !== 'number' || e <= now) return undefined;
    return { tenant: t, expiresAt: e };
  }
}

/** Whether a presented credential is a view pass (and so must be checked as one, never as a token or key). */
export const isViewPass = (credential: string): boolean => credential.startsWith(VIEW_PASS_PREFIX);
