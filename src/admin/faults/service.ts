import { HR_OPERATIONS } from '../../hr/openapi.js';
import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { ConflictError, FieldValidationError, NotFoundError } from '../../platform/errors.js';
import type { ActiveFault, FaultEffect, FaultSource } from '../../platform/http/faults.js';
import { operationId } from '../../platform/http/openapi.js';
import { newId } from '../../platform/security/secrets.js';
import { type Clock, parseDateTime } from '../../platform/time.js';
import type { AdminAuditRepository } from '../audit/repository.js';
import type { TenantRef } from '../tenant-ref.js';
import type { FaultRecord, TenantFaultsRepository } from './repository.js';

export interface FaultsWork {
  faults: TenantFaultsRepository;
  audit: AdminAuditRepository;
}

/** A new rule, as the admin API takes it. */
export interface NewFault {
  match?: {
    api?: 'hr' | 'academy';
    method?: string;
    operation_id?: string;
    path?: string;
    before_authentication?: boolean;
  };
  effect: FaultEffect;
  probability?: number;
  remaining_count?: number;
  until?: string;
  seed?: number;
}

/** The HR operations that authenticate by themselves (the token endpoint): a rule reaches them before authentication only. */
const HR_BEFORE_AUTHENTICATION = new Set(
  ['POST /tokens', 'POST /revoke_token'].map((route) => operationId('hr', HR_OPERATIONS[route] as string)),
);

/** The most rules a tenant may have at once. */
export const MAX_FAULTS_PER_TENANT = 100;
/** How often each process reads back the rules other processes set, and writes the uses it counted. */
const REFRESH_MS = 1000;

/**
 * `/employees/*` → a pattern of the path after the API's prefix: `*` is one segment, `**` any rest; a trailing
 * slash is optional.
 */
export function compilePath(pattern: string): RegExp {
  const body = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) =>
      segment === '**'
        ? '.*'
        : segment
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*'),
    )
    .join('/');
  return new RegExp(`^${body}/?$`);
}

function active(rule: FaultRecord): ActiveFault {
  return {
    id: rule.id,
    method: rule.method,
    operationId: rule.operationId,
    path: rule.path === null ? null : compilePath(rule.path),
    effect: rule.effect,
    probability: rule.probability,
    remainingCount: rule.remainingCount,
    until: rule.until,
    seed: rule.seed,
    beforeAuthentication: rule.beforeAuthentication,
  };
}

/** What a rule's shape cannot say alone: a uniform range that runs backwards, a rule that can never apply. */
function ruleFindings(tenant: TenantRef, body: NewFault): { field: string; code: string; message: string }[] {
  const fields: { field: string; code: string; message: string }[] = [];
  const effect = body.effect;
  if (effect.type === 'latency' && effect.distribution === 'uniform' && effect.min_ms > effect.max_ms) {
    fields.push({ field: 'effect.max_ms', code: 'invalid', message: 'Must be at least min_ms.' });
  }
  const operation = body.match?.operation_id;
  if (tenant.kind === 'hr' && operation !== undefined) {
    const early = body.match?.before_authentication === true;
    if (early && !HR_BEFORE_AUTHENTICATION.has(operation)) {
      fields.push({
        field: 'match.operation_id',
        code: 'invalid',
        message: `Before authentication, a rule of the HR API applies to ${[...HR_BEFORE_AUTHENTICATION].join(' and ')} only.`,
      });
    }
    if (!early && HR_BEFORE_AUTHENTICATION.has(operation)) {
      fields.push({
        field: 'match.before_authentication',
        code: 'invalid',
        message: 'This operation authenticates the call itself: a rule reaches it with before_authentication: true.',
      });
    }
  }
  return fields;
}

/**
 * The fault rules of every tenant (docs/admin.md, "Faults"): kept in `tenant_faults`, applied at once in the process
 * that serves the change, read back by every other one each second. A counted rule's uses are taken in the
 * database, one statement each, so that several processes never apply it more often than counted.
 */
export class FaultsService implements FaultSource {
  private rules = new Map<string, ActiveFault[]>();
  /** Whether any rule of `rules` applies before authentication. */
  private early = false;
  private version = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Uses of uncounted rules not yet written. */
  private uses = new Map<string, number>();
  /** The flush under way (or the last one, settled): flushes run one after another. */
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly work: UnitOfWork<Tables, FaultsWork>,
    private readonly clock: Clock,
    /** Every operationId of the tenant APIs, to refuse a rule that names none. */
    private readonly operationIds: () => ReadonlySet<string>,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch(() => {
        // The database is away for a moment: the rules known stay.
      });
    }, REFRESH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flushUses().catch(() => {});
  }

  async refresh(): Promise<void> {
    await this.flushUses();
    const version = this.version;
    const all = await this.work.read.faults.all();
    if (version !== this.version) return;
    const byTenant = new Map<string, ActiveFault[]>();
    for (const rule of all) byTenant.set(rule.tenant, [...(byTenant.get(rule.tenant) ?? []), active(rule)]);
    this.rules = byTenant;
    this.noteEarly();
  }

  private setRules(tenant: string, rules: ActiveFault[]): void {
    this.rules.set(tenant, rules);
    this.noteEarly();
  }

  private noteEarly(): void {
    this.early = [...this.rules.values()].some((rules) => rules.some((rule) => rule.beforeAuthentication));
  }

  anyBeforeAuthentication(): boolean {
    return this.early;
  }

  nextDraw(rule: ActiveFault): Promise<number | undefined> {
    return this.work.read.faults.nextDraw(rule.id);
  }

  /**
   * Writes the uses counted since the last flush. Flushes run one after another: a read that flushes first (`list`,
   * `get`) then waits for a flush already under way (the refresh's), so it sees every use counted before it.
   */
  private flushUses(): Promise<void> {
    const run = this.flushing.then(async () => {
      if (this.uses.size === 0) return;
      const uses = this.uses;
      this.uses = new Map();
      for (const [id, n] of uses) await this.work.read.faults.applied(id, n);
    });
    this.flushing = run.catch(() => {});
    return run;
  }

  rulesOf(tenant: string): readonly ActiveFault[] {
    return this.rules.get(tenant) ?? [];
  }

  async consume(rule: ActiveFault): Promise<boolean> {
    const taken = await this.work.read.faults.consume(rule.id);
    if (!taken) {
      // Spent: drop it here until the next refresh confirms it.
      const tenantRules = [...this.rules].find(([, rules]) => rules.includes(rule));
      if (tenantRules)
        this.setRules(
          tenantRules[0],
          tenantRules[1].filter((r) => r !== rule),
        );
    }
    return taken;
  }

  applied(rule: ActiveFault): void {
    this.uses.set(rule.id, (this.uses.get(rule.id) ?? 0) + 1);
  }

  async list(tenant: TenantRef): Promise<FaultRecord[]> {
    await this.flushUses();
    return this.work.read.faults.list(tenant.key);
  }

  /** The operationIds a rule of this tenant may name: those of its own API, sorted (the same set `create` checks). */
  operations(tenant: TenantRef): string[] {
    return [...this.operationIds()].filter((id) => id.startsWith(`${tenant.kind}_`)).sort();
  }

  async get(tenant: TenantRef, id: string): Promise<FaultRecord> {
    await this.flushUses();
    const found = await this.work.read.faults.find(tenant.key, id);
    if (!found) throw new NotFoundError('fault', id, `No fault rule ${id} on this tenant.`);
    return found;
  }

  async create(tenant: TenantRef, body: NewFault, actor: string): Promise<FaultRecord> {
    const match = body.match ?? {};
    const fields = ruleFindings(tenant, body);
    if (match.api !== undefined && match.api !== tenant.kind) {
      fields.push({ field: 'match.api', code: 'invalid', message: `This tenant is of the ${tenant.kind} API.` });
    }
    if (match.operation_id !== undefined) {
      const ids = this.operationIds();
      if (!ids.has(match.operation_id) || !match.operation_id.startsWith(`${tenant.kind}_`)) {
        fields.push({
          field: 'match.operation_id',
          code: 'not_found',
          message: `No operation of the ${tenant.kind} API has this operationId (see /openapi.json).`,
        });
      }
    }
    let until: number | null = null;
    if (body.until !== undefined) {
      const at = parseDateTime(body.until);
      if (at === undefined) {
        fields.push({ field: 'until', code: 'invalid', message: 'Must be a datetime: YYYY-MM-DDThh:mm:ss±hh:mm.' });
      } else until = at;
    }
    if (fields.length > 0) throw new FieldValidationError(fields);
    const rule: FaultRecord = {
      id: newId(),
      tenant: tenant.key,
      method: match.method ?? null,
      operationId: match.operation_id ?? null,
      path: match.path ?? null,
      effect: body.effect,
      probability: body.probability ?? 1,
      remainingCount: body.remaining_count ?? null,
      until,
      appliedCount: 0,
      createdAt: this.clock.wall(),
      seed: body.seed ?? null,
      beforeAuthentication: match.before_authentication === true,
    };
    await this.work.run(async ({ faults, audit }) => {
      if ((await faults.count(tenant.key)) >= MAX_FAULTS_PER_TENANT) {
        throw new ConflictError(
          `A tenant has at most ${MAX_FAULTS_PER_TENANT} fault rules; delete some first.`,
          'too_many_faults',
        );
      }
      await faults.insert(rule);
      await audit.record({
        at: rule.createdAt,
        actor,
        action: 'tenant.fault_created',
        target: tenant.key,
        detail: { id: rule.id, ...body },
      });
    });
    this.version++;
    this.setRules(tenant.key, [...this.rulesOf(tenant.key), active(rule)]);
    return rule;
  }

  /** Deletes one rule, or (without `id`) every rule of the tenant. */
  async remove(tenant: TenantRef, actor: string, id?: string): Promise<void> {
    await this.work.run(async ({ faults, audit }) => {
      const removed = await faults.remove(tenant.key, id);
      if (id !== undefined && removed === 0)
        throw new NotFoundError('fault', id, `No fault rule ${id} on this tenant.`);
      await audit.record({
        at: this.clock.wall(),
        actor,
        action: id === undefined ? 'tenant.faults_cleared' : 'tenant.fault_deleted',
        target: tenant.key,
        detail: id === undefined ? { deleted: removed } : { id },
      });
    });
    this.version++;
    this.setRules(tenant.key, id === undefined ? [] : this.rulesOf(tenant.key).filter((rule) => rule.id !== id));
  }
}
