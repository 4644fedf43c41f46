import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../time.js';

/** What a fault rule does to a call it matches (docs/admin.md, "Faults"). */
export type FaultEffect =
  | { type: 'latency'; latency_ms: number }
  | { type: 'status'; status: FaultStatus; retry_after_seconds?: number }
  | { type: 'reset' }
  | { type: 'slow_body'; bytes_per_second: number };

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
}

/** Where the hook finds a tenant's rules, and spends a counted rule's uses (across processes). */
export interface FaultSource {
  rulesOf(tenant: string): readonly ActiveFault[];
  /** Takes one use of a counted rule; false when another call took the last one. */
  consume(rule: ActiveFault): Promise<boolean>;
  /** Counts an uncounted rule's use (best effort). */
  applied(rule: ActiveFault): void;
}

/** The header on every answer a fault shaped: the rule's id. */
export const FAULT_HEADER = 'x-atrium-fault';

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault rule applied to this call, if any (the request log records it). */
    faultId?: string;
    /** A `slow_body` fault's rate, for the onSend hook. */
    slowBodyRate?: number;
  }
}

export interface FaultInjectionOptions {
  source: FaultSource;
  clock: Clock;
  /** The API's prefix: patterns match the path after it. */
  prefix: string;
  tenantOf(request: FastifyRequest): string;
  operationIdOf(method: string, routeUrl: string): string | undefined;
  /** The API's own error body of an injected status. */
  errorBody(status: FaultStatus, code: string, message: string): object;
  random?: () => number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The first of a tenant's rules that matches this call and fires (its probability, its count, its end). */
async function firing(request: FastifyRequest, options: FaultInjectionOptions): Promise<ActiveFault | undefined> {
  // The console browsing with a view pass is never shaped, nor uses up a rule's count.
  if (request.viewPass) return undefined;
  const tenant = options.tenantOf(request);
  const rules = options.source.rulesOf(tenant);
  if (rules.length === 0) return undefined;
  const path = (request.url.split('?', 1)[0] as string).slice(options.prefix.length) || '/';
  const random = options.random ?? Math.random;
  for (const rule of rules) {
    if (rule.method !== null && rule.method !== request.method) continue;
    if (rule.operationId !== null) {
      const route = request.routeOptions.url;
      if (!route || options.operationIdOf(request.method, route) !== rule.operationId) continue;
    }
    if (rule.path !== null && !rule.path.test(path)) continue;
    if (rule.until !== null && options.clock.nowOf(tenant) >= rule.until) continue;
    if (random() >= rule.probability) continue;
    if (rule.remainingCount !== null) {
      if (!(await options.source.consume(rule))) continue;
    } else {
      options.source.applied(rule);
    }
    return rule;
  }
  return undefined;
}

/**
 * The fault injection of a tenant API (the admin API's rules, docs/admin.md "Faults"): an `onRequest` hook, after
 * the guard, that delays the call, answers an error status in the API's own body, or drops the connection; and an
 * `onSend` hook that sends a `slow_body` fault's answer at its rate. Every answer a rule shaped carries
 * `X-Atrium-Fault: <rule id>`.
 */
export function faultInjection(options: FaultInjectionOptions) {
  return {
    async onRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const rule = await firing(request, options);
      if (!rule) return;
      request.faultId = rule.id;
      reply.header(FAULT_HEADER, rule.id);
      const effect = rule.effect;
      switch (effect.type) {
        case 'latency':
          await sleep(effect.latency_ms);
          return;
        case 'slow_body':
          request.slowBodyRate = effect.bytes_per_second;
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
      const rate = request.slowBodyRate;
      if (rate === undefined || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
      const bytes = Buffer.from(payload);
      reply.header('content-length', String(bytes.length));
      return trickle(bytes, rate);
    },
  };
}

/** The bytes, a tenth of a second's worth at a time. */
function trickle(bytes: Buffer, bytesPerSecond: number): Readable {
  const step = Math.max(1, Math.floor(bytesPerSecond / 10));
  let at = 0;
  return new Readable({
    read() {
      if (at >= bytes.length) {
        this.push(null);
        return;
      }
      const chunk = bytes.subarray(at, at + step);
      at += chunk.length;
      setTimeout(() => this.push(chunk), at === chunk.length ? 0 : 100);
    },
  });
}
