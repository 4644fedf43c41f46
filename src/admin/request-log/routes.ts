import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import { InvalidRequestError, NotFoundError } from '../../platform/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { parseDateTime } from '../../platform/time.js';
import { TenantParams, type TenantRef } from '../tenant-ref.js';
import { cursorOf, presentCall, seqOfCursor } from './presenter.js';
import type { CallFilter } from './repository.js';
import { CallParams, LoggedCall, LogPage, LogQuery, TailQuery } from './schemas.js';
import type { RequestLogService } from './service.js';

const tags = ['Admin: Request log'];
/** A comment line this often keeps a quiet tail's connection (and any proxy's) open. */
const HEARTBEAT_MS = 15_000;
/** How often a tail looks for calls other processes wrote. */
const POLL_MS = 1000;

function instant(text: string | undefined, field: string): number | undefined {
  if (text === undefined) return undefined;
  const at = parseDateTime(text);
  if (at === undefined) {
    throw new InvalidRequestError(`Invalid query parameter "${field}": must be a datetime, YYYY-MM-DDThh:mm:ss±hh:mm.`);
  }
  return at;
}

/** `/tenants/{kind}/{id}/requests`: a tenant's request log, paged, one call, and a live tail (Server-Sent Events). */
export async function requestLogRoutes(
  app: FastifyInstance,
  opts: { resolve: (kind: string, id: string) => Promise<TenantRef>; requestLog: RequestLogService },
): Promise<void> {
  const { resolve, requestLog } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/tenants/:kind/:id/requests',
    {
      schema: {
        tags,
        summary: "Read a tenant's request log",
        description:
          'Every call of the tenant API by this tenant, newest first, with its headers and bodies (capped, secrets redacted). Calls appear within about a second of their answer.',
        params: TenantParams,
        querystring: LogQuery,
        response: { 200: LogPage, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const q = request.query;
      const filter: CallFilter = {};
      if (q.method !== undefined) filter.method = q.method.toUpperCase();
      if (q.status !== undefined) {
        if (q.status.endsWith('xx')) filter.statusClass = Number(q.status[0]);
        else filter.status = Number(q.status);
      }
      if (q.operation_id !== undefined) filter.operationId = q.operation_id;
      if (q.path !== undefined) filter.pathPrefix = q.path;
      const since = instant(q.since, 'since');
      const until = instant(q.until, 'until');
      if (since !== undefined) filter.since = since;
      if (until !== undefined) filter.until = until;
      if (q.faulted !== undefined) filter.faulted = q.faulted;
      if (q.cursor !== undefined) {
        const before = seqOfCursor(q.cursor);
        if (before === undefined) throw new InvalidRequestError("The cursor is not one of this log's.");
        filter.beforeSeq = before;
      }
      const limit = q.limit ?? 50;
      const calls = await requestLog.list(tenant.key, filter, limit + 1);
      const page = calls.slice(0, limit);
      const last = page.at(-1);
      return {
        requests: page.map(presentCall),
        next_cursor: calls.length > limit && last ? cursorOf(last.seq) : null,
      };
    },
  );

  api.get(
    '/tenants/:kind/:id/requests/tail',
    {
      schema: {
        tags,
        summary: "Follow a tenant's request log live (Server-Sent Events)",
        description:
          "A `text/event-stream`: one `request` event per call, its data the logged call, its `id` the call's `seq`. It starts after the newest call (or after `after`, or the `Last-Event-ID` a reconnecting client sends), and lasts until the client leaves.",
        params: TenantParams,
        querystring: TailQuery,
        produces: ['text/event-stream'],
        response: {
          200: { description: 'The stream of calls.', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(401, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const lastEventId = request.headers['last-event-id'];
      const resumed =
        typeof lastEventId === 'string' && /^[0-9]{1,16}$/.test(lastEventId) ? Number(lastEventId) : undefined;
      let after = request.query.after ?? resumed ?? (await requestLog.lastSeq(tenant.key));
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-request-id': request.id,
        'x-content-type-options': 'nosniff',
      });
      res.write(`: tail of ${tenant.key} after ${after}\n\n`);
      let open = true;
      request.raw.on('close', () => {
        open = false;
      });
      let quietSince = performance.now();
      try {
        while (open && !res.destroyed) {
          const calls = await requestLog.list(tenant.key, { afterSeq: after }, 100);
          for (const call of calls) {
            res.write(`id: ${call.seq}\nevent: request\ndata: ${JSON.stringify(presentCall(call))}\n\n`);
            after = call.seq;
          }
          if (calls.length === 100) continue;
          if (calls.length > 0) quietSince = performance.now();
          else if (performance.now() - quietSince >= HEARTBEAT_MS) {
            res.write(': heartbeat\n\n');
            quietSince = performance.now();
          }
          if (!(await requestLog.nextWrite(POLL_MS))) break;
        }
      } catch (err) {
        // The log cannot be read (the database is away): the stream ends; the client reconnects with Last-Event-ID.
        request.log.warn({ err }, 'request log tail ended');
      } finally {
        res.end();
      }
    },
  );

  api.get(
    '/tenants/:kind/:id/requests/:seq',
    {
      schema: {
        tags,
        summary: 'Get one logged call',
        params: CallParams,
        response: { 200: Type.Ref(LoggedCall), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tenant = await resolve(request.params.kind, request.params.id);
      const call = await requestLog.get(tenant.key, request.params.seq);
      if (!call)
        throw new NotFoundError(
          'call',
          String(request.params.seq),
          `No call ${request.params.seq} in this tenant's log.`,
        );
      return presentCall(call);
    },
  );
}
