import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { type Clock, formatDateTime, type TenantTime } from '../time.js';

/** The header on every answer of a tenant whose clock is moved or frozen, so that nobody is fooled by its dates. */
export const CLOCK_HEADER = 'x-atrium-clock';

/** `X-Atrium-Clock`'s value: the tenant's time, then `frozen` or its offset from the installation's clock. */
export function clockHeader(at: number, time: TenantTime): string {
  const state = time.frozenAt !== null ? 'frozen' : `offset=${Math.round(time.offsetMs / 1000)}`;
  return `${formatDateTime(at)}; ${state}`;
}

/**
 * A `preHandler` hook for an API's authenticated routes: the handler (and everything it calls) runs as work of the
 * caller's tenant, so that the `Clock`'s `now()` answers that tenant's time, and the answer carries `X-Atrium-Clock` when that
 * time is not the installation's. It runs after the body is read: a stream's events would lose the scope.
 */
export function tenantTime(clock: Clock, tenantOf: (request: FastifyRequest) => string) {
  return function enterTenantTime(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const tenant = tenantOf(request);
    const time = clock.timeOf(tenant);
    if (time) reply.header(CLOCK_HEADER, clockHeader(clock.nowOf(tenant), time));
    clock.runAs(tenant, done);
  };
}
