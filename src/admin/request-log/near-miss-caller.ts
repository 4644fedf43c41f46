import type { FastifyRequest } from 'fastify';
import { isViewPass } from '../../platform/security/view-pass.js';
import type { Caller } from './capture.js';

/** The look-ups that tell whether a tenant a call names exists (nothing the call sends is checked). */
export interface NamedTenantLookups {
  /** The client an HR application id belongs to (`AuthService.clientOfApplication`). */
  clientOfApplication(applicationId: string): Promise<string | undefined>;
  /** Whether an academy exists. */
  academyExists(acadId: number): Promise<boolean>;
  /** The installation's clock (ms), for the look-ups' cache. */
  now(): number;
}

/** A named tenant, found or not, is remembered this long (a flood naming unknown ones costs one look-up each). */
const CACHE_MS = 10_000;
const CACHE_MAX = 10_000;
const MAX_TOKEN_LENGTH = 4096;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The application id of HTTP Basic credentials (the secret is not read). */
function basicUser(authorization: string | undefined): string | undefined {
  const match = authorization === undefined ? null : /^Basic[ ]+([A-Za-z0-9+/=]+)[ ]*$/i.exec(authorization);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = decoded.slice(0, colon);
  return colon > 0 && id.length <= 64 && !id.includes('\u0000') ? id : undefined;
}

/** The bearer token of a call, however sent (header, `access_token` header or query), unchecked. */
function bearerOf(request: FastifyRequest, query: URLSearchParams): string | undefined {
  const authorization = single(request.headers.authorization);
  const match = authorization === undefined ? null : /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(authorization);
  return match?.[1] ?? single(request.headers.access_token)?.trim() ?? query.get('access_token') ?? undefined;
}

/**
 * The `sub` (application id) and `cid` (client) claims of a JWT's payload, decoded without checking its signature,
 * expiry or anything else: they only choose whose log holds the call, never grant anything.
 */
export function untrustedClaims(token: string): { sub: string; cid?: string } | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { sub, cid } = claims;
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > 64 || sub.includes('\u0000')) return undefined;
    return typeof cid === 'string' ? { sub, cid } : { sub };
  } catch {
    return undefined;
  }
}

/**
 * Finds the tenant a call that did not authenticate names (docs/admin.md, "Near misses"): on the HR API the client of
 * the application its Basic credentials name, or of its bearer token's `sub` (decoded unverified; its `cid`, if any,
 * must be that client); on the Academy API the academy its `acadId` names (read as the key check reads it). A tenant
 * that does not exist names none: the call is not logged. View passes (the console's) are never logged.
 */
export function namedTenant(lookups: NamedTenantLookups, prefixes: { hr: string; academy: string }) {
  const cache = new Map<string, { tenant: string | undefined; at: number }>();
  const remembered = async (key: string, find: () => Promise<string | undefined>): Promise<string | undefined> => {
    const now = lookups.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < CACHE_MS) return hit.tenant;
    const tenant = await find();
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, { tenant, at: now });
    return tenant;
  };
  const hrClient = (applicationId: string) =>
    remembered(`hr-application:${applicationId}`, async () => {
      const client = await lookups.clientOfApplication(applicationId);
      return client === undefined ? undefined : `hr:${client}`;
    });

  return async (request: FastifyRequest): Promise<Caller | undefined> => {
    const at = request.url.indexOf('?');
    const query = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
    if (request.url.startsWith(prefixes.hr)) {
      const basic = basicUser(single(request.headers.authorization));
      if (basic !== undefined) {
        const tenant = await hrClient(basic);
        return tenant === undefined ? undefined : { tenant, credentialId: basic };
      }
      const token = bearerOf(request, query);
      if (token === undefined || isViewPass(token)) return undefined;
      const claims = untrustedClaims(token);
      if (!claims) return undefined;
      const tenant = await hrClient(claims.sub);
      if (tenant === undefined || (claims.cid !== undefined && tenant !== `hr:${claims.cid}`)) return undefined;
      return { tenant, credentialId: claims.sub };
    }
    if (request.url.startsWith(prefixes.academy)) {
      const key = query.get('apikey') ?? single(request.headers['x-api-key']);
      if (typeof key === 'string' && isViewPass(key)) return undefined;
      const acadId = query.get('acadId');
      if (acadId === null || !/^[0-9]{1,9}$/.test(acadId)) return undefined;
      const id = Number(acadId);
      const tenant = await remembered(`academy:${id}`, async () =>
        (await lookups.academyExists(id)) ? `academy:${id}` : undefined,
      );
      return tenant === undefined ? undefined : { tenant, credentialId: null };
    }
    return undefined;
  };
}
