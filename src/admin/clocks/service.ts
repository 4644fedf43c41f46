import type { Tables } from '../../platform/db/schema.js';
import { hrTenantId } from '../../platform/db/tenant.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { FieldValidationError, InvalidRequestError } from '../../platform/errors.js';
import { type Clock, parseDateTime, type TenantTime } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { TenantRef } from '../tenant-ref.js';
import type { TenantClocksRepository } from './repository.js';

export interface ClocksWork {
  clocks: TenantClocksRepository;
  audit: AdminAuditRepository;
}

/** A tenant's clock as the service knows it. */
export interface TenantClock {
  tenant: TenantRef;
  /** The tenant's time, and the installation's, read at the same moment. */
  now: number;
  installationNow: number;
  offsetMs: number;
  frozen: boolean;
}

/** What `PUT …/clock` sets: an instant or an offset (not both), and whether the time stands still. */
export interface ClockChange {
  now?: string;
  offset_seconds?: number;
  frozen?: boolean;
}

/** The largest move either way: a century, far more than any test needs, and far inside every date type. */
const MAX_OFFSET_MS = 100 * 366 * 86_400_000;
/** How often each process reads back the clocks other processes set. */
const REFRESH_MS = 1000;

/**
 * The tenants' clocks (docs/admin.md, "Clock"). A tenant's time is an offset from the installation's clock, or an
 * instant it stands still at; it is kept in `tenant_clocks`, applied at once in this process and read back by
 * every other within a second. Moving an HR client's time forward brings its waiting background jobs (webhook
 * retries) forward by as much. Each change is an admin action, audited in its own transaction.
 */
export class ClocksService {
  private timer: NodeJS.Timeout | undefined;
  /** Bumped by each change this process makes: a refresh read before it must not undo it. */
  private version = 0;

  constructor(
    private readonly work: UnitOfWork<Tables, ClocksWork>,
    private readonly clock: Clock,
  ) {}

  /** Reads every tenant's clock now, then every second until `stop()`. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch(() => {
        // The database is away for a moment: the clocks known stay; the next refresh tries again.
      });
    }, REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async refresh(): Promise<void> {
    const version = this.version;
    const times = await this.work.read.clocks.all();
    if (version === this.version) this.clock.replaceTenants(times);
  }

  show(tenant: TenantRef): TenantClock {
    return this.describe(tenant, this.clock.timeOf(tenant.key));
  }

  /** Sets a tenant's time: `now` or `offset_seconds` (else its time as it is), frozen or flowing. */
  async set(tenant: TenantRef, change: ClockChange, actor: string): Promise<TenantClock> {
    if (change.now !== undefined && change.offset_seconds !== undefined) {
      throw new InvalidRequestError('Give "now" or "offset_seconds", not both.');
    }
    let target: number | undefined;
    if (change.now !== undefined) {
      target = parseDateTime(change.now);
      if (target === undefined) {
        throw new FieldValidationError([
          { field: 'now', code: 'invalid', message: 'Must be a datetime: YYYY-MM-DDThh:mm:ss±hh:mm.' },
        ]);
      }
    }
    const audited = { ...change };
    return this.change(tenant, 'tenant.clock_set', audited, actor, (current, wall) => {
      const at = target ?? (change.offset_seconds !== undefined ? wall + change.offset_seconds * 1000 : current.now);
      const frozen = change.frozen ?? current.frozen;
      return { at, frozen };
    });
  }

  /** Moves a tenant's time by a number of seconds (negative: back), frozen or not as it was. */
  async advance(tenant: TenantRef, seconds: number, actor: string): Promise<TenantClock> {
    return this.change(tenant, 'tenant.clock_advanced', { seconds }, actor, (current) => ({
      at: current.now + seconds * 1000,
      frozen: current.frozen,
    }));
  }

  /** Gives a tenant the installation's time again. */
  async reset(tenant: TenantRef, actor: string): Promise<TenantClock> {
    return this.change(tenant, 'tenant.clock_reset', {}, actor, (_current, wall) => ({ at: wall, frozen: false }));
  }

  private async change(
    tenant: TenantRef,
    action: string,
    detail: Record<string, unknown>,
    actor: string,
    next: (current: { now: number; frozen: boolean }, wall: number) => { at: number; frozen: boolean },
  ): Promise<TenantClock> {
    const time = await this.work.run(async ({ clocks, audit }) => {
      const wall = this.clock.wall();
      const stored = await clocks.find(tenant.key);
      const current = { now: stored ? (stored.frozenAt ?? wall + stored.offsetMs) : wall, frozen: !!stored?.frozenAt };
      const { at, frozen } = next(current, wall);
      const offsetMs = at - wall;
      if (Math.abs(offsetMs) > MAX_OFFSET_MS) {
        throw new InvalidRequestError('A tenant clock moves at most 100 years from the installation clock.');
      }
      const moved: TenantTime | undefined =
        offsetMs === 0 && !frozen ? undefined : { offsetMs, frozenAt: frozen ? at : null };
      if (moved) await clocks.save(tenant.key, moved, wall);
      else await clocks.remove(tenant.key);
      if (tenant.kind === 'hr' && at > current.now)
        await clocks.bringJobsForward(hrTenantId(tenant.id), at - current.now);
      await audit.record({ at: wall, actor, action, target: tenant.key, detail });
      return moved;
    });
    this.version++;
    this.clock.setTenant(tenant.key, time);
    return this.describe(tenant, time);
  }

  private describe(tenant: TenantRef, time: TenantTime | undefined): TenantClock {
    const installationNow = this.clock.wall();
    return {
      tenant,
      now: time ? (time.frozenAt ?? installationNow + time.offsetMs) : installationNow,
      installationNow,
      offsetMs: time ? (time.frozenAt ?? installationNow + time.offsetMs) - installationNow : 0,
      frozen: time?.frozenAt != null,
    };
  }
}
