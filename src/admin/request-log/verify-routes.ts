import type { ErrorObject } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import { InvalidRequestError } from '../../platform/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { fieldErrorsFromAjv } from '../../platform/http/validation.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { compileMatcher, describeCount } from './matcher.js';
import { presentCall } from './presenter.js';
import { Cleared, RequestMatcher, Verification } from './schemas.js';
import type { RequestLogService } from './service.js';

const tags = ['Admin: Request log'];

/**
 * `POST /tenants/{kind}/{id}/requests/verify` and `DELETE /tenants/{kind}/{id}/requests`: a tenant's calls checked
 * against a matcher, and its log emptied (docs/admin.md, "Verification").
 */
export async function requestVerifyRoutes(
  app: FastifyInstance,
  opts: {
    resolve: (kind: string, id: string) => Promise<TenantRef>;
    requestLog: RequestLogService;
    actorOf: (request: FastifyRequest) => string;
  },
): Promise<void> {
  const { resolve, requestLog, actorOf } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/tenants/:kind/:id/requests/verify',
    {
      // A matcher its schema refuses is a 400 (`invalid_request`, with `errors`), not the admin API's usual 422.
      attachValidation: true,
      schema: {
        tags,
        summary: "Verify a tenant's calls",
        description:
          "Counts the tenant's logged calls that meet every criterion of the matcher (its newest 10,000 at most, after this process's waiting calls are written), and says whether the count is what `count` asks. When too few matched, the closest other calls, with each criterion they fail.",
        params: TenantParams,
        body: RequestMatcher,
        response: { 200: Verification, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const failed = request.validationError;
      if (failed && failed.validationContext !== 'body') throw failed;
      const tenant = await resolve(request.params.kind, request.params.id);
      if (failed) {
        const errors = fieldErrorsFromAjv(failed.validation as ErrorObject[]);
        const first = errors[0];
        throw new InvalidRequestError(
          first?.field ? `Invalid matcher: "${first.field}": ${first.message}` : 'The matcher must be a JSON object.',
          errors,
        );
      }
      const matcher = compileMatcher(request.body);
      const found = await requestLog.verify(tenant.key, matcher);
      const ok =
        found.matched >= matcher.count.min && (matcher.count.max === null || found.matched <= matcher.count.max);
      return {
        ok,
        matched: found.matched,
        expected: describeCount(matcher.count),
        scanned: found.scanned,
        complete: found.complete,
        calls: found.calls.map(presentCall),
        closest:
          found.matched < matcher.count.min
            ? found.closest.map((c) => ({ call: presentCall(c.call), differences: c.differences }))
            : [],
      };
    },
  );

  api.delete(
    '/tenants/:kind/:id/requests',
    {
      schema: {
        tags,
        summary: "Empty a tenant's request log",
        description:
          "Deletes every logged call of the tenant (those this process has yet to write too) and resets its usage of the log's caps, so that a test starts clean. Audited (`tenant.requests_cleared`).",
        params: TenantParams,
        response: { 200: Cleared, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      return { deleted: await requestLog.clear(tenant.key, actorOf(request)) };
    },
  );
}
