import { createHmac, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { Logger } from 'pino';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { isSealed, type SecretBox } from '../../../platform/security/secret-box.js';
import { newId, newSecret, verifySecret } from '../../../platform/security/secrets.js';
import { isViewPass, type ViewPasses } from '../../../platform/security/view-pass.js';
import type { Clock } from '../../../platform/time.js';
import { HrError } from '../../errors.js';
import type { ApplicationRecord, TenantsRepository } from '../tenants/repository.js';
import type { AuthEventRecord, AuthRepository } from './repository.js';

export const TOKEN_ISSUER = 'atrium';
const ALGORITHM = 'HS256';
const MAX_TOKEN_LENGTH = 4096;
const VERIFIED_CACHE_SIZE = 10_000;
/** Re-read events this far back on each poll (see AuthRepository.eventsSince). */
const EVENT_WINDOW_MS = 10_000;
/** How far ahead of this server's clock a token's `iat` may be (another server's clock running fast). */
export const IAT_SKEW_SECONDS = 60;
/** What a key id looks like (this server makes UUIDs); anything else is refused before any look-up. */
const KID_FORM = /^[A-Za-z0-9_-]{1,64}$/;

/** Who is calling, once a bearer token has been accepted. */
export interface AuthContext {
  clientId: HrTenantId;
  applicationId: string;
  readOnly: boolean;
  jti: string;
  /** A view pass of the admin API (the console browsing), not an application's token: read-only, never logged. */
  viewPass?: boolean;
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
  kid: string;
  jti: string;
  cid: string;
  sub: string;
  exp: number;
}

interface AppInfo {
  id: string;
  clientId: HrTenantId;
  name: string;
  secretHash: string;
  readOnly: boolean;
  revoked: boolean;
}

function appInfo(app: ApplicationRecord): AppInfo {
  return {
    id: app.id,
    clientId: app.clientId,
    name: app.name,
    secretHash: app.secretHash,
    readOnly: app.readOnly,
    revoked: app.revokedAt !== null,
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

interface SigningKey {
  key: KeyObject;
  /** When it stopped signing (epoch ms); it verifies for one token lifetime more. */
  retiredAt: number | null;
}

const keyPurpose = (kid: string): string => `signing_key:${kid}`;

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
 * kept in the database (sealed by the master key), so every process and machine
 * on the same database accepts every other's tokens. Revocations and key
 * rotations reach every process through the auth_events log, which each process
 * polls; nothing per request touches the database once an application is known.
 */
export class AuthService {
  private keys = new Map<string, SigningKey>();
  private currentKid: string | undefined;
  private readonly apps = new Map<string, AppInfo>();
  private readonly revokedJtis = new Map<string, number>();
  private readonly verified = new Map<string, Claims>();
  private lastSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The key reload in flight, shared by every token naming an unknown key meanwhile. */
  private reloading: Promise<void> | undefined;
  /** performance.now() of the last reload an unknown key id caused. */
  private lastReloadAt = Number.NEGATIVE_INFINITY;
  /** Reads of the signing keys table since start (tests bound it: an unknown key id never costs a query of its own). */
  keyReads = 0;

  private readonly repo: AuthRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, AuthWork>,
    private readonly tenants: TenantsRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly options: { tokenTtlSeconds: number; refreshMs: number; log?: Logger; viewPasses?: ViewPasses },
  ) {
    this.repo = work.read.auth;
  }

  private now(): number {
    return this.clock.now();
  }

  /** A client's own time (the admin API can move it): what its tokens are issued and checked against. */
  private nowOf(clientId: HrTenantId): number {
    return this.clock.nowOf(`hr:${clientId}`);
  }

  /**
   * The time a token is checked against: its client's, read from the claims before the signature is (the
   * signature still decides; a forged `cid` only picks whose clock the check reads).
   */
  private tokenNow(token: string): number {
    try {
      const { cid } = decodeJwt(token);
      if (typeof cid === 'string') return this.nowOf(hrTenantId(cid));
    } catch {
      // Malformed: the verification refuses it.
    }
    return this.now();
  }

  /**
   * Seals signing keys stored in plain text by an earlier release (run at every start, by the server and the CLI;
   * a row sealed meanwhile by another process is left alone).
   */
  async sealPlaintextKeys(): Promise<number> {
    let sealed = 0;
    for (const row of await this.repo.signingKeys()) {
      if (isSealed(row.secret)) continue;
      sealed += await this.repo.replaceSecret(row.kid, row.secret, this.box.seal(keyPurpose(row.kid), row.secret));
    }
    return sealed;
  }

  /** Loads keys and revocations, then follows the event log. */
  async start(): Promise<void> {
    await this.work.run(async ({ auth }) => {
      if (!(await auth.hasSigningKey())) {
        const kid = newId();
        await auth.insertSigningKey({
          kid,
          secret: this.box.seal(keyPurpose(kid), newSecret()),
          createdAt: this.now(),
          retiredAt: null,
        });
      }
    });
    await this.loadKeys();
    const at = this.now();
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
    const events = await this.repo.eventsSince(this.lastSeq, this.now() - EVENT_WINDOW_MS);
    for (const event of events) this.apply(event);
    const at = this.now();
    for (const [jti, exp] of this.revokedJtis) if (exp <= at) this.revokedJtis.delete(jti);
  }

  private apply(event: AuthEventRecord): void {
    if (event.seq > this.lastSeq) this.lastSeq = event.seq;
    switch (event.kind) {
      case 'token_revoked':
        this.revokedJtis.set(event.ref, event.expiresAt ?? Number.MAX_SAFE_INTEGER);
        break;
      case 'application_revoked': {
        const app = this.apps.get(event.ref);
        if (app) app.revoked = true;
        break;
      }
      case 'signing_key_rotated':
        // A rotation with --revoke-previous deleted the older keys in the same transaction: reloading drops them.
        if (!this.keys.has(event.ref) || this.currentKid !== event.ref) {
          this.loadKeys().catch((err: unknown) => this.options.log?.warn({ err }, 'signing key reload failed'));
        }
        break;
    }
  }

  private async loadKeys(): Promise<void> {
    this.keyReads += 1;
    const rows = await this.repo.signingKeys();
    const keys = new Map<string, SigningKey>();
    let current: { kid: string; createdAt: number } | undefined;
    for (const row of rows) {
      // A plain-text key (an earlier release's row not yet sealed) is still read as such.
      const secret = isSealed(row.secret) ? this.box.open(keyPurpose(row.kid), row.secret) : row.secret;
      keys.set(row.kid, { key: createSecretKey(Buffer.from(secret, 'base64url')), retiredAt: row.retiredAt });
      if (row.retiredAt === null && (!current || row.createdAt >= current.createdAt)) current = row;
    }
    this.keys = keys;
    this.currentKid = current?.kid ?? rows[rows.length - 1]?.kid;
  }

  /**
   * Whether a key may verify a token now: the current key, or a retired one until the longest token it could have
   * signed has expired (`ATRIUM_TOKEN_TTL` after its retirement). A key revoked (deleted) is unknown.
   */
  private usable(entry: SigningKey | undefined, at: number): entry is SigningKey {
    if (!entry) return false;
    return entry.retiredAt === null || at < entry.retiredAt + this.options.tokenTtlSeconds * 1000;
  }

  /** Forgets the client's applications known to this process (a snapshot restored its credentials): read again. */
  forgetClient(clientId: HrTenantId): void {
    for (const [id, app] of this.apps) if (app.clientId === clientId) this.apps.delete(id);
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

  /**
   * The client an application id belongs to, without checking any secret: the tenant a token call names, for the
   * fault rules applied before authentication (docs/admin.md, "Faults").
   */
  async clientOfApplication(applicationId: string): Promise<string | undefined> {
    return (await this.application(applicationId))?.clientId;
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
      // The reference lists `invalid_scope` among the token endpoint's 401s (RFC 6749 §5.2 would say 400).
      throw new HrError(401, 'invalid_scope', `Unsupported scope "${form.scope}"; use client.`, {}, 'invalid_scope');
    }
    // tenant-by-hand: the token request names its client; it must be the one the application belongs to.
    if (form.client_id !== app.clientId) {
      throw new HrError(400, 'invalid_client_id', 'The client is not valid for this application or does not exist.');
    }
    const kid = this.currentKid;
    const key = kid ? this.keys.get(kid)?.key : undefined;
    if (!kid || !key) throw new Error('no signing key loaded');
    const issuedAt = Math.floor(this.nowOf(app.clientId) / 1000);
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

  /**
   * The token's key id, checked before anything else: its header must parse, name HS256, and carry a `kid` that is
   * a string of this server's form. An array, a number or an over-long id is refused here, before any look-up.
   */
  private headerKid(token: string): string {
    let header: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(token) as Record<string, unknown>;
    } catch {
      throw invalidToken('The access token is malformed or its signature is invalid.');
    }
    const { kid, alg } = header;
    if (alg !== ALGORITHM || typeof kid !== 'string' || !KID_FORM.test(kid)) {
      throw invalidToken('The access token is malformed or its signature is invalid.');
    }
    return kid;
  }

  private async verify(token: string): Promise<Claims> {
    const cached = this.verified.get(token);
    if (cached) return cached;
    if (token.length > MAX_TOKEN_LENGTH) throw invalidToken('The access token is malformed.');
    const kid = this.headerKid(token);
    const at = this.tokenNow(token);
    let payload: Record<string, unknown>;
    try {
      const result = await jwtVerify(
        token,
        async () => {
          const key = await this.keyFor(kid, at);
          if (!key) throw new joseErrors.JWSSignatureVerificationFailed('unknown or retired key');
          return key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: TOKEN_ISSUER,
          requiredClaims: ['exp', 'iat', 'jti', 'sub'],
          currentDate: new Date(at),
        },
      );
      payload = result.payload as Record<string, unknown>;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw invalidToken('The access token has expired.');
      throw invalidToken('The access token is malformed or its signature is invalid.');
    }
    const { jti, cid, sub, exp, iat, scope } = payload;
    if (
      typeof jti !== 'string' ||
      typeof cid !== 'string' ||
      typeof sub !== 'string' ||
      typeof exp !== 'number' ||
      typeof iat !== 'number'
    ) {
      throw invalidToken('The access token lacks required claims.');
    }
    if (scope !== 'client') throw invalidToken('The access token is not for the client scope.');
    // No token this server issues lives longer than ATRIUM_TOKEN_TTL, nor is issued in the future.
    if (exp - iat > this.options.tokenTtlSeconds) {
      throw invalidToken('The access token lives longer than this server issues tokens for.');
    }
    if (iat > at / 1000 + IAT_SKEW_SECONDS) throw invalidToken('The access token is issued in the future.');
    const claims: Claims = { kid, jti, cid, sub, exp };
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims);
    return claims;
  }

  /**
   * The key of a key id, if it may verify now. An id this process does not know (a key made by another process
   * since the last poll) causes one reload of the whole table, shared by every token meanwhile and at most one per
   * refresh period: a burst of unknown ids costs no query nor cache entry of its own.
   */
  private async keyFor(kid: string, at: number): Promise<KeyObject | undefined> {
    let entry = this.keys.get(kid);
    if (!entry) {
      if (!this.reloading && performance.now() - this.lastReloadAt >= this.options.refreshMs) {
        this.lastReloadAt = performance.now();
        this.reloading = this.loadKeys().finally(() => {
          this.reloading = undefined;
        });
      }
      if (this.reloading) await this.reloading.catch(() => {});
      entry = this.keys.get(kid);
    }
    return this.usable(entry, at) ? entry.key : undefined;
  }

  /** Checks a bearer token on every call: signature, expiry, key still valid, revocation, application standing. */
  async authenticate(token: string): Promise<AuthContext> {
    if (isViewPass(token)) return this.viewPass(token);
    const claims = await this.verify(token);
    const at = this.nowOf(hrTenantId(claims.cid));
    if (claims.exp * 1000 <= at) {
      this.verified.delete(token);
      throw invalidToken('The access token has expired.');
    }
    // A token verified earlier stops working when its key is revoked or its retirement window closes.
    if (!this.usable(this.keys.get(claims.kid), at)) {
      this.verified.delete(token);
      throw invalidToken('The access token was signed with a retired or revoked key.');
    }
    if (this.revokedJtis.has(claims.jti)) throw invalidToken('The access token has been revoked.');
    const app = await this.application(claims.sub);
    if (!app || app.revoked || app.clientId !== claims.cid) {
      throw invalidToken('The application of this access token no longer exists or was revoked.');
    }
    return { clientId: hrTenantId(claims.cid), applicationId: app.id, readOnly: app.readOnly, jti: claims.jti };
  }

  /**
   * A view pass (platform/security/view-pass.ts) of one HR client: read-only, as a read-only application's token
   * is, and counted against a limit of its own. Its expiry is on the wall clock.
   */
  private viewPass(pass: string): AuthContext {
    const claims = this.options.viewPasses?.verify(pass, this.clock.wall());
    if (!claims?.tenant.startsWith('hr:')) {
      throw invalidToken('The view pass is malformed, expired or not for this API.');
    }
    const clientId = claims.tenant.slice('hr:'.length);
    return {
      clientId: hrTenantId(clientId),
      applicationId: `view-pass:${clientId}`,
      readOnly: true,
      jti: 'view-pass',
      viewPass: true,
    };
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
    const at = this.nowOf(hrTenantId(claims.cid));
    if (claims.exp * 1000 <= at) return;
    await this.repo.recordTokenRevocation(claims.jti, claims.exp * 1000, at);
    this.revokedJtis.set(claims.jti, claims.exp * 1000);
  }

  /**
   * Starts signing with a new key. Tokens signed with older keys stay valid until they expire (the older keys
   * verify for `ATRIUM_TOKEN_TTL` after this rotation, then never); with `revokePrevious` (a leaked key) the older
   * keys are deleted, and every process refuses their tokens within one refresh period.
   */
  async rotateSigningKey(options: { revokePrevious?: boolean } = {}): Promise<string> {
    const kid = newId();
    const at = this.now();
    const secret = this.box.seal(keyPurpose(kid), newSecret());
    await this.work.run(async ({ auth }) => {
      if (options.revokePrevious === true) await auth.deleteSigningKeys();
      else await auth.retireSigningKeys(at);
      await auth.insertSigningKey({ kid, secret, createdAt: at, retiredAt: null });
      await auth.recordKeyRotation(kid, at);
    });
    await this.loadKeys();
    return kid;
  }
}
