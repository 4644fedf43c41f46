import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret, safeEqual } from '../../platform/security/secrets.js';
import { type Clock, formatDateTime } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { AdminTokenRecord, AdminTokenScope, AdminTokensRepository } from './repository.js';

/** What an admin token starts with: tells a person (and a secret scanner) what it is. */
export const ADMIN_TOKEN_PREFIX = 'atrium_admin_';

export interface AdminTokensWork {
  tokens: AdminTokensRepository;
  audit: AdminAuditRepository;
}

/** A token as the CLI and the admin API show it: never the token, never its hash. */
export interface ListedAdminToken {
  token_id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
  /** The tenants it is limited to (`hr/<client_id>`, `academy/<acadId>`); null: every tenant. */
  tenants: string[] | null;
  read_only: boolean;
}

function listed(token: AdminTokenRecord): ListedAdminToken {
  return {
    token_id: token.id,
    name: token.name,
    created_at: formatDateTime(token.createdAt),
    revoked_at: token.revokedAt === null ? null : formatDateTime(token.revokedAt),
    tenants: token.tenants,
    read_only: token.readOnly,
  };
}

/** A token's scope in words, for the audit log's actor and the CLI: `hr/abc, academy/3; read-only`, or ''. */
export function describeScope(scope: AdminTokenScope): string {
  const parts = [];
  if (scope.tenants !== null) parts.push(`tenants ${scope.tenants.join(', ')}`);
  if (scope.readOnly) parts.push('read-only');
  return parts.join('; ');
}

/**
 * The operators' tokens of the admin API (docs/admin.md): made by `atrium admin create-token`, shown once, stored
 * as their SHA-256 only (a 256-bit random secret needs no slow hash), revoked by `atrium admin revoke-token`. Each
 * creation and revocation is an admin action, written to the admin audit log in the same transaction.
 */
export class AdminTokensService {
  constructor(
    private readonly work: UnitOfWork<Tables, AdminTokensWork>,
    private readonly clock: Clock,
  ) {}

  /**
   * A new token: the only time it is shown. `actor` is who made it (`cli`, or an operator's token); `scope` limits
   * it to some tenants, or to reading (every tenant, and changes, when left out).
   */
  async create(
    name: string,
    actor: string,
    scope: AdminTokenScope = { tenants: null, readOnly: false },
  ): Promise<ListedAdminToken & { token: string }> {
    const token = `${ADMIN_TOKEN_PREFIX}${newSecret()}`;
    const record: AdminTokenRecord = {
      id: newId(),
      name,
      createdAt: this.clock.now(),
      revokedAt: null,
      tenants: scope.tenants === null ? null : [...new Set(scope.tenants)],
      readOnly: scope.readOnly,
    };
    await this.work.run(async ({ tokens, audit }) => {
      await tokens.insert(record, hashSecret(token));
      await audit.record({
        at: record.createdAt,
        actor,
        action: 'admin_token.created',
        target: record.id,
        detail: { name, tenants: record.tenants, read_only: record.readOnly },
      });
    });
    return { ...listed(record), token };
  }

  /** Every token, revoked ones too, oldest first. */
  async list(): Promise<ListedAdminToken[]> {
    return (await this.work.read.tokens.list()).map(listed);
  }

  /**
   * Revokes a token: it is refused from its next use on, by every process. A token revoked already stays as it
   * is (the answer shows when it was revoked). Unknown: NotFoundError.
   */
  async revoke(id: string, actor: string): Promise<ListedAdminToken> {
    const at = this.clock.now();
    const token = await this.work.run(async ({ tokens, audit }) => {
      if (await tokens.revoke(id, at)) {
        await audit.record({ at, actor, action: 'admin_token.revoked', target: id, detail: {} });
      }
      return tokens.find(id);
    });
    if (!token) throw new NotFoundError('admin token', id);
    return listed(token);
  }

  /** The token a presented secret is, unless it is unknown or revoked. */
  async verify(presented: string): Promise<AdminTokenRecord | undefined> {
    if (!presented.startsWith(ADMIN_TOKEN_PREFIX)) return undefined;
    const hash = hashSecret(presented);
    const found = await this.work.read.tokens.findByHash(hash);
    // The lookup is by the hash of a 256-bit secret; the comparison is constant-time all the same.
    if (!found || !safeEqual(found.tokenHash, hash) || found.revokedAt !== null) return undefined;
    const { tokenHash: _, ...record } = found;
    return record;
  }
}
