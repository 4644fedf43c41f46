import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret, safeEqual } from '../../platform/security/secrets.js';
import { type Clock, formatDateTime } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { AdminTokenRecord, AdminTokensRepository } from './repository.js';

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
}

function listed(token: AdminTokenRecord): ListedAdminToken {
  return {
    token_id: token.id,
    name: token.name,
    created_at: formatDateTime(token.createdAt),
    revoked_at: token.revokedAt === null ? null : formatDateTime(token.revokedAt),
  };
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

  /** A new token: the only time it is shown. `actor` is who made it (`cli`, or an operator's token). */
  async create(name: string, actor: string): Promise<ListedAdminToken & { token: string }> {
    const token = `${ADMIN_TOKEN_PREFIX}${newSecret()}`;
    const record: AdminTokenRecord = { id: newId(), name, createdAt: this.clock.now(), revokedAt: null };
    await this.work.run(async ({ tokens, audit }) => {
      await tokens.insert(record, hashSecret(token));
      await audit.record({
        at: record.createdAt,
        actor,
        action: 'admin_token.created',
        target: record.id,
        detail: { name },
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
    return { id: found.id, name: found.name, createdAt: found.createdAt, revokedAt: found.revokedAt };
  }
}
