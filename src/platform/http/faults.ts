import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../time.js';
import { type BodyShape, type MalformedForm, shapeBody } from './fault-bodies.js';
import { type Draw, type LatencyEffect, latencyOf, randomDraw, seededDraw } from './fault-draws.js';

/** What a fault rule does to a call it matches (docs/admin.md, "Faults"). */
export type FaultEffect =
  | LatencyEffect
  | { type: 'status'; status: FaultStatus; retry_after_seconds?: number }
  | { type: 'reset' }
  | { type: 'slow_body'; bytes_per_second: number }
  | { type: 'chunked_body'; chunks: number; total_ms: number }
  | { type: 'malformed'; form: MalformedForm };

export type FaultStatus = 429 | 500 | 502 | 503 | 504;

/** The code of an injected error status, in both APIs' bodies. */
export const FAULT_CODES: Readonly<Record<FaultStatus, string>> = {
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** A rule as the hook matches it. */
export interface ActiveFault {
  id: string;
  /** Null: any method. */
  method: string | null;
  /** Null: any operation. */
  operationId: string | null;
  /** The path pattern, compiled; null: any path. */
  path: RegExp | null;
  effect: FaultEffect;
  /** In (0, 1]. */
  probability: number;
  /** Null: no count. */
  remainingCount: number | null;
  /** The tenant's instant it stops at; null: never. */
  until: number | null;
  /** Null: the draws are Math.random's. */
  seed: number | null;
  /** Applies before the credentials are checked (the token endpoint, the Academy key check), and only there. */
  beforeAuthentication: boolean;
}

/** Where the hook finds a tenant's rules, and spends a counted rule's uses (across processes). */
export interface FaultSource {
  rulesOf(tenant: string): readonly ActiveFault[];
  /** Whether any tenant has a rule applied before authentication (else the hook names no tenant: no look-up). */
  anyBeforeAuthentication(): boolean;
  /** Takes one use of a counted rule; false when another call took the last one. */
  consume(rule: ActiveFault): Promise<boolean>;
  /** Counts an uncounted rule's use (best effort). */
  applied(rule: ActiveFault): void;
  /** Takes the index of this call among the calls a seeded rule matched (0, 1…, across processes); undefined: gone. */
  nextDraw(rule: ActiveFault): Promise<number | undefined>;
}

/** The header on every answer a fault shaped: the rule's id. */
export const FAULT_HEADER = 'x-atrium-fault';
/** The header on an answer a latency rule delayed: the delay drawn, in ms. */
export const FAULT_LATENCY_HEADER = 'x-atrium-fault-latency-ms';

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault rule applied to this call, if any (the request log records it). */
    faultId?: string;
    /** The tenant a rule applied before authentication was of: the request log's tenant if none authenticated. */
    faultTenant?: string;
    /** How a body fault sends the answer, for the onSend hook. */
    faultBody?: BodyShape;
  }
}

export interface FaultInjectionOptions {
  source: FaultSource;
  clock: Clock;
  /** The API's prefix: patterns match the path after it. */
  prefix: string;
  /**
   * `authenticated` (after the guard: the tenant is the caller's) or `before_authentication` (the tenant the call
   * names, undefined if none: only the rules marked so apply).
   */
  stage?: 'authenticated' | 'before_authentication';
  tenantOf(request: FastifyRequest): string | undefined | Promise<string | undefined>;
  operationIdOf(method: string, routeUrl: string): string | undefined;
  /** The API's own error body of an injected status. */
  errorBody(status: FaultStatus, code: string, message: string): object;
  random?: () => number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function matches(rule: ActiveFault, request: FastifyRequest, path: string, options: FaultInjectionOptions): boolean {
  if (rule.method !== null && rule.method !== request.method) return false;
  if (rule.operationId !== null) {
    const route = request.routeOptions.url;
    if (!route || options.operationIdOf(request.method, route) !== rule.operationId) return false;
  }
  return rule.path === null || rule.path.test(path);
}

interface Firing {
  rule: ActiveFault;
  tenant: string;
  draw: Draw;
}

/** The first of a tenant's rules that matches this call and fires (its probability, its count, its end). */
async function firing(request: FastifyRequest, options: FaultInjectionOptions): Promise<Firing | undefined> {
  // The console browsing with a view pass is never shaped, nor uses up a rule's count.
  if (request.viewPass) return undefined;
  const early = options.stage === 'before_authentication';
  if (early && !options.source.anyBeforeAuthentication()) return undefined;
  const tenant = await options.tenantOf(request);
  if (tenant === undefined) return undefined;
  const rules = options.source.rulesOf(tenant);
  if (rules.length === 0) return undefined;
  const path = (request.url.split('?', 1)[0] as string).slice(options.prefix.length) || '/';
  const random = options.random ?? Math.random;
  for (const rule of rules) {
    if (rule.beforeAuthentication !== early || !matches(rule, request, path, options)) continue;
    if (rule.until !== null && options.clock.nowOf(tenant) >= rule.until) continue;
    let draw = randomDraw(random);
    if (rule.seed !== null) {
      const n = await options.source.nextDraw(rule);
      if (n === undefined) continue;
      draw = seededDraw(rule.seed, n);
    }
    if (draw(0) >= rule.probability) continue;
    if (rule.remainingCount !== null) {
      if (!(await options.source.consume(rule))) continue;
    } else {
      options.source.applied(rule);
    }
    return { rule, tenant, draw };
  }
  return undefined;
}

/**
 * The fault injection of a tenant API (the admin API's rules, docs/admin.md "Faults"): an `onRequest` hook, after
 * the guard (or, for the rules marked so, before it), that delays the call, answers an error status in the API's
 * own body, or drops the connection; and an `onSend` hook that sends a body fault's answer (slowly, in chunks,
 * malformed). Every answer a rule shaped carries `X-Atrium-Fault: <rule id>`.
 */
export function faultInjection(options: FaultInjectionOptions) {
  return {
    async onRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const fired = await firing(request, options);
      if (!fired) return;
      const { rule, draw } = fired;
      request.faultId = rule.id;
      if (options.stage === 'before_authentication') request.faultTenant = fired.tenant;
      reply.header(FAULT_HEADER, rule.id);
      const effect = rule.effect;
      switch (effect.type) {
        case 'latency': {
          const ms = latencyOf(effect, draw);
          reply.header(FAULT_LATENCY_HEADER, String(ms));
          await sleep(ms);
          return;
        }
        case 'slow_body':
          request.faultBody = { kind: 'slow', bytesPerSecond: effect.bytes_per_second };
          return;
        case 'chunked_body':
          request.faultBody = { kind: 'chunked', chunks: effect.chunks, totalMs: effect.total_ms };
          return;
        case 'malformed':
          request.faultBody = { kind: 'malformed', form: effect.form, ruleId: rule.id };
          return;
        case 'reset':
          reply.hijack();
          request.raw.socket.destroy();
          return;
        case 'status': {
          if (effect.retry_after_seconds !== undefined) reply.header('Retry-After', String(effect.retry_after_seconds));
          const message = `Injected by the fault rule ${rule.id} (Atrium's admin API).`;
          await reply.code(effect.status).send(options.errorBody(effect.status, FAULT_CODES[effect.status], message));
          return;
        }
      }
    },
    async onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
      const shape = request.faultBody;
      if (shape === undefined) return payload;
      // Once: an error answer sent after this one started (a stream's failure) is not shaped again.
      request.faultBody = undefined;
      return shapeBody(shape, reply, payload);
    },
  };
}
