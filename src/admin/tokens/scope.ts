import type { FastifyRequest } from 'fastify';
import { HrError } from '../../hr/errors.js';
import { NotFoundError } from '../../platform/errors.js';
import type { AdminTokenScope } from './repository.js';

/** `/tenants/{kind}/{id}…` and `/tenants/hr/{id}…` in a route's pattern: the tenant it acts on. */
const TENANT_ROUTE = /\/tenants\/(hr|academy|:kind)\/:id(?:\/|$)/;

/** Routes that change nothing a tenant holds though their method is not a read's: a read-only token may call them. */
const READS_BY_POST = [/\/requests\/verify$/, /\/view_pass$/, /\/session$/];

/** The tenant (`kind/id`) a call's route acts on, if it names one. */
export function routeTenant(request: FastifyRequest): string | undefined {
  const match = TENANT_ROUTE.exec(request.routeOptions.url ?? '');
  if (!match) return undefined;
  const params = (request.params ?? {}) as { kind?: unknown; id?: unknown };
  const kind = match[1] === ':kind' ? String(params.kind ?? '') : match[1];
  return `${kind}/${String(params.id ?? '')}`;
}

/** Whether a token may see this tenant (`kind`, `id`). */
export function inScope(scope: AdminTokenScope, kind: string, id: string): boolean {
  return scope.tenants === null || scope.tenants.includes(`${kind}/${id}`);
}

/**
 * A token limited to some tenants (docs/admin.md, "Tokens scoped to tenants") is refused, as not found, every route
 * of another tenant, so that it learns nothing of it; and, with a 403 `outside_scope`, the routes of no tenant but
 * the listing of tenants (which it sees filtered) and its session. A read-only token is refused every change with a
 * 403 `read_only_token`.
 */
export function enforceScope(request: FastifyRequest, scope: AdminTokenScope): void {
  const tenant = routeTenant(request);
  const url = request.routeOptions.url ?? '';
  if (scope.tenants !== null) {
    if (tenant !== undefined && !scope.tenants.includes(tenant)) {
      throw new NotFoundError('tenant', tenant, `No tenant ${tenant}.`);
    }
    const allowed = /\/session$/.test(url) || (request.method === 'GET' && /\/tenants$/.test(url));
    if (tenant === undefined && !allowed) {
      throw new HrError(
        403,
        'outside_scope',
        `This operator token is limited to ${scope.tenants.join(', ') || 'no tenant'}: it cannot act beyond them.`,
      );
    }
  }
  const reads = ['GET', 'HEAD', 'OPTIONS'].includes(request.method) || READS_BY_POST.some((r) => r.test(url));
  if (scope.readOnly && !reads) {
    throw new HrError(403, 'read_only_token', 'This operator token is read-only: it cannot change anything.');
  }
}
