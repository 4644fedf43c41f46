import { createHmac, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { Logger } from 'pino';
import type { Tables } from '../../../platform/db/schema.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { newId, newSecret, verifySecret } from '../../../platform/security/secrets.js';
import { now } from '../../../platform/time.js';
import { HrError } from '../../errors.js';
import type { ApplicationRow, TenantsRepository } from '../tenants/repository.js';
import type { AuthEventRow, AuthRepository } from './repository.js';

export const TOKEN_ISSUER = 'atrium';
const ALGORITHM = 'HS256';
const MAX_TOKEN_LENGTH = 4096;
const VERIFIED_CACHE_SIZE = 10_000;
/** Re-read events this far back on each poll (see AuthRepository.eventsSince). */
const EVENT_WINDOW_MS = 10_000;

/** Who is calling, once a bearer token has been accepted. */
export interface AuthContext {
  clientId: string;
  applicationId: string;
  readOnly: boolean;
  jti: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export interface TokenForm {
  grant_type: string;
  scope: string;
  client_id: string;
}

interface Claims {
  jti: string;
  cid: string;
  sub: string;
  exp: number;
}

interface AppInfo {
  id: string;
  clientId: string;
  name: string;
  secretHash: string;
  readOnly: boolean;
  revoked: boolean;
}

function appInfo(row: ApplicationRow): AppInfo {
  return {
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    secretHash: row.secret_hash,
    readOnly: row.read_only === 1,
    revoked: row.revoked_at !== null,
  };
}

const base64url = (value: object): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * An HS256 JWS in compact form (RFC 7515): the same bytes jose's SignJWT makes, signed with node:crypto's HMAC
 * directly. jose goes through WebCrypto, which imports the key again on every call and was most of a token
 * request's cost (docs/PERFORMANCE.md). Verification still goes through jose.
 */
function signJwt(key: KeyObject, header: object, payload: object): string {
  const input = `${base64url(header)}.${base64url(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

const invalidToken = (message: string): HrError =>
  new HrError(401, 'invalid_token', message, {
    'WWW-Authenticate': `Bearer realm="atrium", error="invalid_token", error_description="${message}"`,
  });

export const invalidCredentials = (): HrError =>
  new HrError(401, 'invalid_credentials', 'Application credentials are missing or invalid.', {
    'WWW-Authenticate': 'Basic realm="atrium"',
  });

/** The repositories auth writes touch (signing keys and the events every process polls). */
export interface AuthWork {
  auth: AuthRepository;
}

/**
 * Issues and checks the HR API's access tokens: HS256 JWTs signed with keys
 * kept in the database, so every process and machine on the same database
 * accepts every other's tokens. Revocations reach every process through the
 * auth_events log, which each process polls; nothing per request touches the
 * database once an application is known.
 */
export class AuthService {
  private keys = new Map<string, KeyObject>();
  private currentKid: string | undefined;
  private readonly apps = new Map<string, AppInfo>();
  private readonly revokedJtis = new Map<string, number>();
  private readonly verified = new Map<string, Claims>();
  private lastSeq = 0;
  private timer: NodeJS.Timeout | undefined;

  private readonly repo: AuthRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, AuthWork>,
    private readonly tenants: TenantsRepository,
    private readonly options: { tokenTtlSeconds: number; refreshMs: number; log?: Logger },
  ) {
    this.repo = work.read.auth;
  }

  /** Loads keys and revocations, then follows the event log. */
  async start(): Promise<void> {
    await this.work.run(async ({ auth }) => {
      if (!(await auth.hasSigningKey())) {
        await auth.insertSigningKey({ kid: newId(), secret: newSecret(), created_at: now(), retired_at: null });
      }
    });
    await this.loadKeys();
    const at = now();
    this.lastSeq = await this.repo.lastSeq();
    for (const event of await this.repo.liveEvents(at)) this.apply(event);
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => this.options.log?.warn({ err }, 'auth cache refresh failed'));
    }, this.options.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Applies the events written since the last poll, by any process. */
  async refresh(): Promise<void> {
    const events = await this.repo.eventsSince(this.lastSeq, now() - EVENT_WINDOW_MS);
    for (const event of events) this.apply(event);
    const at = now();
    for (const [jti, exp] of this.revokedJtis) if (exp <= at) this.revokedJtis.delete(jti);
  }

  private apply(event: AuthEventRow): void {
    if (event.seq > this.lastSeq) this.lastSeq = event.seq;
    switch (event.kind) {
      case 'token_revoked':
        this.revokedJtis.set(event.ref, event.expires_at ?? Number.MAX_SAFE_INTEGER);
        break;
      case 'application_revoked': {
        const app = this.apps.get(event.ref);
        if (app) app.revoked = true;
        break;
      }
      case 'signing_key_rotated':
        if (!this.keys.has(event.ref) || this.currentKid !== event.ref) {
          this.loadKeys().catch((err: unknown) => this.options.log?.warn({ err }, 'signing key reload failed'));
        }
        break;
    }
  }

  private async loadKeys(): Promise<void> {
    const rows = await this.repo.signingKeys();
    const keys = new Map<string, KeyObject>();
    let current: { kid: string; created_at: number } | undefined;
    for (const row of rows) {
      keys.set(row.kid, createSecretKey(Buffer.from(row.secret, 'base64url')));
      if (row.retired_at === null && (!current || row.created_at >= current.created_at)) current = row;
    }
    this.keys = keys;
    this.currentKid = current?.kid ?? rows[rows.length - 1]?.kid;
  }

  private async application(id: string): Promise<AppInfo | undefined> {
    const cached = this.apps.get(id);
    if (cached) return cached;
    if (id.length > 64) return undefined;
    const row = await this.tenants.findApplication(id);
    if (!row) return undefined;
    const info = appInfo(row);
    this.apps.set(id, info);
    return info;
  }

  /** Checks HTTP Basic application credentials; a wrong or revoked one is a 401 `invalid_credentials`. */
  async authenticateApplication(applicationId: string, secret: string): Promise<AppInfo> {
    const app = await this.application(applicationId);
    // Hash and compare even for an unknown id, so timing does not reveal which ids exist.
    const ok = verifySecret(secret, app?.secretHash ?? '0'.repeat(64));
    if (!app || !ok || app.revoked) throw invalidCredentials();
    return app;
  }

  async issueToken(app: AppInfo, form: TokenForm): Promise<TokenResponse> {
    if (form.grant_type !== 'client_credentials') {
      throw new HrError(
        400,
        'invalid_request',
        `Unsupported grant_type "${form.grant_type}"; use client_credentials.`,
        {},
        'unsupported_grant_type',
      );
    }
    if (form.scope !== 'client') {
      throw new HrError(400, 'invalid_request', `Unsupported scope "${form.scope}"; use client.`, {}, 'invalid_scope');
    }
    if (form.client_id !== app.clientId) {
      throw new HrError(400, 'invalid_client_id', 'The client is not valid for this application or does not exist.');
    }
    const kid = this.currentKid;
    const key = kid ? this.keys.get(kid) : undefined;
    if (!kid || !key) throw new Error('no signing key loaded');
    const issuedAt = Math.floor(now() / 1000);
    const ttl = this.options.tokenTtlSeconds;
    const token = signJwt(
      key,
      { alg: ALGORITHM, typ: 'JWT', kid },
      {
        app: `${app.id}:${app.name}`,
        cid: app.clientId,
        scope: 'client',
        iss: TOKEN_ISSUER,
        sub: app.id,
        iat: issuedAt,
        exp: issuedAt + ttl,
        jti: randomUUID(),
      },
    );
    return { access_token: token, token_type: 'bearer', expires_in: ttl };
  }

  private async verify(token: string): Promise<Claims> {
    const cached = this.verified.get(token);
    if (cached) return cached;
    if (token.length > MAX_TOKEN_LENGTH) throw invalidToken('The access token is malformed.');
    let payload: Record<string, unknown>;
    try {
      const result = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? await this.keyFor(header.kid) : undefined;
          if (!key) throw new joseErrors.JWSSignatureVerificationFailed('unknown key');
          return key;
        },
        { algorithms: [ALGORITHM], issuer: TOKEN_ISSUER, requiredClaims: ['exp', 'iat', 'jti', 'sub'] },
      );
      payload = result.payload as Record<string, unknown>;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw invalidToken('The access token has expired.');
      throw invalidToken('The access token is malformed or its signature is invalid.');
    }
    const { jti, cid, sub, exp, scope } = payload;
    if (typeof jti !== 'string' || typeof cid !== 'string' || typeof sub !== 'string' || typeof exp !== 'number') {
      throw invalidToken('The access token lacks required claims.');
    }
    if (scope !== 'client') throw invalidToken('The access token is not for the client scope.');
    const claims: Claims = { jti, cid, sub, exp };
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims);
    return claims;
  }

  private async keyFor(kid: string): Promise<KeyObject | undefined> {
    const known = this.keys.get(kid);
    if (known) return known;
    // A key made by another process since our last poll.
    if (kid.length > 64) return undefined;
    const row = await this.repo.findSigningKey(kid);
    if (!row) return undefined;
    const key = createSecretKey(Buffer.from(row.secret, 'base64url'));
    this.keys.set(kid, key);
    return key;
  }

  /** Checks a bearer token on every call: signature, expiry, revocation, and that its application still stands. */
  async authenticate(token: string): Promise<AuthContext> {
    const claims = await this.verify(token);
    if (claims.exp * 1000 <= now()) {
      this.verified.delete(token);
      throw invalidToken('The access token has expired.');
    }
    if (this.revokedJtis.has(claims.jti)) throw invalidToken('The access token has been revoked.');
    const app = await this.application(claims.sub);
    if (!app || app.revoked || app.clientId !== claims.cid) {
      throw invalidToken('The application of this access token no longer exists or was revoked.');
    }
    return { clientId: claims.cid, applicationId: app.id, readOnly: app.readOnly, jti: claims.jti };
  }

  /**
   * RFC 7009 revocation by the application that holds the token. A token that
   * is already invalid needs no revoking; one of another application is refused.
   */
  async revokeToken(app: AppInfo, token: string): Promise<void> {
    let claims: Claims;
    try {
      claims = await this.verify(token);
    } catch {
      return;
    }
    if (claims.sub !== app.id) {
      throw new HrError(400, 'invalid_request', 'This token was not issued to this application.');
    }
    const at = now();
    if (claims.exp * 1000 <= at) return;
    await this.repo.recordTokenRevocation(claims.jti, claims.exp * 1000, at);
    this.revokedJtis.set(claims.jti, claims.exp * 1000);
  }

  /** Starts signing with a new key; tokens signed with older keys stay valid until they expire. */
  async rotateSigningKey(): Promise<string> {
    const kid = newId();
    const at = now();
    await this.work.run(async ({ auth }) => {
      await auth.retireSigningKeys(at);
      await auth.insertSigningKey({ kid, secret: newSecret(), created_at: at, retired_at: null });
      await auth.recordKeyRotation(kid, at);
    });
    await this.loadKeys();
    return kid;
  }
}
