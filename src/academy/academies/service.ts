import type { Tables } from '../../platform/db/schema.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { academyTenantId } from '../../platform/db/tenant.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { NotFoundError } from '../../platform/errors.js';
import { hashSecret, newSecret, safeEqual } from '../../platform/security/secrets.js';
import { isViewPass, type ViewPasses } from '../../platform/security/view-pass.js';
import { type Clock, formatDateTime } from '../../platform/time.js';
import { AcademyError } from '../errors.js';
import type { AcademiesRepository } from './repository.js';

export interface CreatedAcademy {
  acadId: number;
  /** Shown once: only its hash is stored. */
  apikey: string;
  superAdminId: number;
}

/** Who is calling, once an API key has been accepted. */
/** An academy as `atrium tenants list` shows it. */
export interface ListedAcademy {
  acadId: number;
  name: string;
  created_at: string;
  keys: { key_id: number; created_at: string; expires_at: string | null; state: 'current' | 'grace' | 'expired' }[];
}

export interface AcademyContext {
  academyId: AcademyTenantId;
  superAdminId: number;
  /** The id of the key used (`atrium tenants list` shows it; the request log records it); none for a command's work. */
  keyId?: number;
  /** A view pass of the admin API (the console browsing), not a key: read-only, never logged. */
  viewPass?: boolean;
}

interface CachedKey {
  keyId: number;
  /** The hash as stored in the database. */
  keyHash: string;
  academyId: AcademyTenantId;
  superAdminId: number;
  expiresAt: number | null;
  checkedAt: number;
}

/** Re-read a cached key after this long, so a rotation in another process shortens its life promptly. */
const KEY_CACHE_MS = 1000;

/** The repositories academy writes touch (the academy, its super administrator and its keys). */
export interface AcademiesWork {
  academies: AcademiesRepository;
}

/**
 * Academies and their API keys. Keys are 256-bit random values stored only as
 * SHA-256 hashes. Authentication hashes the presented key, looks the key row up
 * by that hash (a database index, or this process's cache keyed by the hash),
 * then compares the stored hash with the computed one, and the academy id with
 * the `acadId` sent, each with the constant-time `safeEqual`. The look-up itself
 * is not constant time: its timing can only depend on the hash of the presented
 * key, which tells nothing about any valid key.
 */
export class AcademiesService {
  private readonly cache = new Map<string, CachedKey>();

  private readonly repo: AcademiesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, AcademiesWork>,
    private readonly clock: Clock,
    private readonly graceSeconds: number,
    private readonly viewPasses?: ViewPasses,
  ) {
    this.repo = work.read.academies;
  }

  /**
   * Every academy with its API keys' ids and dates (never a key nor its hash), oldest first. A key is `current`
   * until a rotation gives it an `expires_at`; `expired` once that has passed.
   */
  async list(): Promise<ListedAcademy[]> {
    const [academies, keys] = await Promise.all([this.repo.list(), this.repo.listKeys()]);
    const at = this.clock.now();
    return academies.map((a) => ({
      acadId: a.id,
      name: a.name,
      created_at: formatDateTime(a.createdAt),
      keys: keys
        // tenant-by-hand: the operator's list of every academy pairs each with its own keys, read for all at once.
        .filter((k) => k.academyId === a.id)
        .map((k) => ({
          key_id: k.id,
          created_at: formatDateTime(k.createdAt),
          expires_at: k.expiresAt === null ? null : formatDateTime(k.expiresAt),
          state: k.expiresAt === null ? 'current' : k.expiresAt > at ? 'grace' : 'expired',
        })),
    }));
  }

  async create(name: string): Promise<CreatedAcademy> {
    const apikey = newSecret();
    const at = this.clock.now();
    const academy = await this.work.run(({ academies }) => academies.create(name, hashSecret(apikey), at));
    return { acadId: academy.id, apikey, superAdminId: academy.superAdminId };
  }

  /** The academy of that name, created when missing; a fresh key either way, earlier keys untouched (seed). */
  async ensure(name: string): Promise<CreatedAcademy> {
    const existing = await this.repo.findByName(name);
    if (!existing) return this.create(name);
    const apikey = newSecret();
    const at = this.clock.now();
    await this.work.run(({ academies }) => academies.addKey(academyTenantId(existing.id), hashSecret(apikey), at));
    return { acadId: existing.id, apikey, superAdminId: existing.superAdminId };
  }

  /** Throws NotFoundError unless the academy exists (the admin API's `/tenants/academy/{acadId}`). */
  async requireAcademy(acadId: number): Promise<void> {
    if (!(await this.repo.find(acadId))) throw new NotFoundError('academy', String(acadId));
  }

  /** A new key; the academy's other keys keep working for the grace period, then stop. */
  async rotateKey(acadId: number): Promise<{ acadId: number; apikey: string; previousKeysExpireAt: string }> {
    if (!(await this.repo.find(acadId))) throw new NotFoundError('academy', String(acadId));
    const apikey = newSecret();
    const at = this.clock.now();
    const until = at + this.graceSeconds * 1000;
    await this.work.run(({ academies }) => academies.addKey(academyTenantId(acadId), hashSecret(apikey), at, until));
    return { acadId, apikey, previousKeysExpireAt: new Date(until).toISOString() };
  }

  /** Forgets the academy's keys known to this process (a snapshot restored its credentials): read again. */
  forgetAcademy(academyId: AcademyTenantId): void {
    for (const [hash, entry] of this.cache) if (entry.academyId === academyId) this.cache.delete(hash);
  }

  /**
   * A view pass (platform/security/view-pass.ts) in place of a key: it must name this `acadId`'s academy, which
   * must exist. Its expiry is on the wall clock. The guard refuses it every write.
   */
  private async viewPass(acadIdText: string, pass: string, refuse: () => AcademyError): Promise<AcademyContext> {
    const claims = this.viewPasses?.verify(pass, this.clock.wall());
    const academyId = Number(acadIdText);
    if (!claims || !safeEqual(claims.tenant, `academy:${academyId}`)) throw refuse();
    const academy = await this.repo.find(academyId);
    if (!academy) throw refuse();
    return { academyId: academyTenantId(academyId), superAdminId: academy.superAdminId, viewPass: true };
  }

  /** Checks `apikey` + `acadId`; any mismatch is a 401 that says nothing about which part was wrong. */
  async authenticate(acadIdText: string | undefined, apikey: string | undefined): Promise<AcademyContext> {
    const refuse = () => new AcademyError(401, 'unauthorized', 'Missing or invalid apikey or acadId.');
    if (!apikey || !acadIdText || !/^[0-9]{1,9}$/.test(acadIdText) || apikey.length > 256) throw refuse();
    if (isViewPass(apikey)) return this.viewPass(acadIdText, apikey, refuse);
    const hash = hashSecret(apikey);
    const at = this.clock.now();
    let entry = this.cache.get(hash);
    if (!entry || at - entry.checkedAt > KEY_CACHE_MS) {
      const row = await this.repo.findKey(hash);
      if (!row) {
        this.cache.delete(hash);
        throw refuse();
      }
      entry = {
        keyId: Number(row.id),
        keyHash: row.keyHash,
        academyId: row.academyId,
        superAdminId: row.superAdminId,
        expiresAt: row.expiresAt,
        checkedAt: at,
      };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, entry);
    }
    // A rotated key's grace runs on the academy's own time (the admin API can move it).
    const expired = entry.expiresAt !== null && entry.expiresAt <= this.clock.nowOf(`academy:${entry.academyId}`);
    // Both comparisons always run, so the time taken does not tell which one failed.
    const sameKey = safeEqual(entry.keyHash, hash);
    const sameAcademy = safeEqual(String(entry.academyId), acadIdText.replace(/^0+(?=\d)/, ''));
    if (!sameKey || !sameAcademy || expired) throw refuse();
    return { academyId: entry.academyId, superAdminId: entry.superAdminId, keyId: entry.keyId };
  }
}
