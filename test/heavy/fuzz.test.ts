/**
 * Bad input never causes a 5xx: every operation of both APIs, read from the OpenAPI document of a running
 * server, gets requests generated from its schemas and then mutated (test/support/fuzz.ts). Every answer is
 * below 500, every 4xx is one the API documents with that API's error body, and a rejected write leaves every
 * table (and, with SQLite, the blob directory) exactly as it was.
 *
 * `npm test` runs ATRIUM_FUZZ_RUNS_PER_OP cases per operation (default 2: 374 per dialect, other seeds on
 * each dialect); `npm run fuzz` runs 50 per operation. ATRIUM_FUZZ_SEED replays a run (the seed is printed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { changed, snapshot } from '../support/dbstate.js';
import {
  type CaseContext,
  describeCase,
  idPools,
  problem,
  type RawResponse,
  requestArb,
  send,
} from '../support/fuzz.js';
import { basic, dialects, getToken, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, type Operation, operations } from '../support/openapi.js';
import { fullAcademyTenant, fullHrTenant } from '../support/tenants.js';

const RUNS_PER_OP = Number(process.env.ATRIUM_FUZZ_RUNS_PER_OP ?? 2);
const SEED = process.env.ATRIUM_FUZZ_SEED ? Number(process.env.ATRIUM_FUZZ_SEED) : Date.now() % 2 ** 31;
const BODY_LIMIT = 65_536;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

for (const dialect of dialects()) {
  describe(`fuzzing every route of both APIs from the OpenAPI document (${dialect})`, () => {
    let server: TestServer;
    let ops: Operation[];
    let ctx: CaseContext;
    const stats = { cases: 0, writesRejected: 0, byStatus: new Map<number, number>() };

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_BODY_LIMIT: String(BODY_LIMIT),
        ATRIUM_UPLOAD_LIMIT: String(BODY_LIMIT),
        ATRIUM_UPLOAD_SWEEP_MS: '86400000',
        ATRIUM_ACADEMY_RATE_LIMIT: '0',
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_AUTH_FAILURE_LIMIT: '0',
        LOG_LEVEL: 'warn',
      });
      // Background jobs (a bulk call's items, webhook deliveries) write after their request: they would make an
      // accepted write look like a rejected one that changed the database. The runner stays stopped here.
      await server.app.services.jobs.stop();
      const hr = await fullHrTenant(server);
      const academy = await fullAcademyTenant(server);
      const token = await getToken(server, hr.caller.creds);
      ops = operations(await fetchOpenApi(server.url));
      ctx = {
        pools: idPools(hr.ids, academy.ids),
        hr: { headers: { authorization: `Bearer ${hr.caller.token}` }, query: [], userIds: [hr.userId] },
        academy: {
          headers: {},
          query: [
            ['acadId', String(academy.caller.acadId)],
            ['apikey', academy.caller.apikey],
          ],
          userIds: [],
        },
        basic: { authorization: basic(hr.caller.creds), clientId: hr.caller.creds.client_id, token },
        bodyLimit: BODY_LIMIT,
      };
    });
    after(async () => {
      const statuses = [...stats.byStatus.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`);
      console.log(
        `fuzz (${dialect}): ${stats.cases} cases over ${ops?.length ?? 0} operations, seed ${SEED}; ${stats.writesRejected} rejected writes checked unchanged; ${statuses.join(', ')}`,
      );
      await server?.close();
    });

    it('the OpenAPI document lists both APIs', () => {
      assert.ok(ops.filter((o) => o.api === 'hr').length > 100, 'HR operations');
      assert.ok(ops.filter((o) => o.api === 'academy').length > 40, 'Academy operations');
    });

    it(`never a 5xx, always the API's error body, nothing written by a rejected write (${RUNS_PER_OP} cases per operation)`, async () => {
      const dataDir = server.config.dataDir;
      let index = 0;
      const failures: string[] = [];
      for (const op of ops) {
        const property = fc.asyncProperty(requestArb(op, ctx), async (req) => {
          const write = WRITES.has(req.method);
          const blobDir = dialect === 'sqlite' ? dataDir : undefined;
          const before = write ? await snapshot(server.app.database, blobDir) : undefined;
          let res: RawResponse;
          try {
            res = await send(server.url, req);
          } catch (err) {
            // Node's client refuses some requests before sending (a header it cannot encode): not a case.
            if ((err as { code?: string }).code === 'ERR_INVALID_CHAR') return;
            if ((err as { code?: string }).code === 'ERR_UNESCAPED_CHARACTERS') return;
            throw new Error(`${(err as Error).message}\n${describeCase(req)}`);
          }
          stats.cases += 1;
          stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
          const wrong = problem(op.api, req.method, res);
          if (wrong) {
            const errors = server.logs.filter((l) => l.includes('"level":50')).slice(-2);
            throw new Error(`${wrong}\n${describeCase(req, res)}\n  server log: ${errors.join('\n')}`);
          }
          if (write && res.status >= 400) {
            stats.writesRejected += 1;
            const after = await snapshot(server.app.database, blobDir);
            const diff = changed(before as Map<string, string>, after);
            if (diff.length) throw new Error(`a rejected write changed ${diff.join(', ')}\n${describeCase(req, res)}`);
          }
        });
        const seed = SEED + (dialect === 'postgres' ? 100_000 : 0) + index++;
        const details = await fc.check(property, {
          numRuns: RUNS_PER_OP,
          seed,
          endOnFailure: process.env.ATRIUM_FUZZ_SHRINK !== '1',
        });
        if (details.failed) {
          const cause =
            details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          failures.push(`${op.method} ${op.path} (seed ${seed}): ${cause}`);
        }
      }
      assert.equal(failures.length, 0, `${failures.length} operations failed:\n\n${failures.join('\n\n')}`);
      assert.ok(stats.cases >= ops.length, `${stats.cases} cases sent`);
    });
  });
}
