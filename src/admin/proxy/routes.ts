import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../hr/errors.js';
import { DependencyFailedError } from '../../platform/errors.js';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { ProxyDepartures } from './schemas.js';
import { type ProxyReport, reportOf } from './store.js';

const EMPTY: ProxyReport = { operations: [], departures: 0, calls: 0 };

/**
 * `/proxy/departures`: the validation proxy's journal (docs/proxy.md, "The journal"), as `atrium proxy report
 * --json` prints it. The file is opened read-only on each call (the proxy, another process, writes it meanwhile);
 * no file yet is an empty report.
 */
export async function proxyRoutes(app: FastifyInstance, opts: { journal: string }): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/proxy/departures',
    {
      schema: {
        tags: ['Admin: Proxy'],
        summary: "The validation proxy's departures",
        description:
          "What `atrium proxy` found where the real service departs from Atrium's schemas, per operation, read from its journal (`proxy.sqlite` in the server's data directory, or `ATRIUM_PROXY_JOURNAL`): the same report as `atrium proxy report --json`. Installation-wide: a token scoped to tenants is refused.",
        response: { 200: Type.Ref(ProxyDepartures), ...errorResponses(401, 403, 424) },
      },
    },
    async () => {
      try {
        return reportOf(opts.journal) ?? EMPTY;
      } catch (error) {
        // Another file at the journal's path (not SQLite, or SQLite without the journal's tables).
        throw new DependencyFailedError(
          `The file at ATRIUM_PROXY_JOURNAL (${opts.journal}) is not a journal atrium proxy wrote: ${(error as Error).message}`,
          'journal_unreadable',
        );
      }
    },
  );
}
