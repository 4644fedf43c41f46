/**
 * The validation proxy in front of a second Atrium, over a whole tenant of each API (test/support/tenants.ts: one
 * object of every HR resource, made through the proxy, and an academy with events and registrations), then a read
 * of every collection and every object made: no departure (docs/proxy.md, "What is checked").
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { operationIndex } from '../../src/admin/proxy/operations.js';
import { startProxy } from '../../src/admin/proxy/start.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { fullAcademyTenant, fullHrTenant } from '../support/tenants.js';

for (const dialect of dialects()) {
  describe(`validation proxy over whole tenants of a second Atrium (${dialect})`, () => {
    let real: TestServer;
    let proxy: Awaited<ReturnType<typeof startProxy>>;
    let dir: string;
    let served: ReturnType<typeof operationIndex>;

    before(async () => {
      real = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      const document = (await (await fetch(`${real.url}/openapi.json`)).json()) as Record<string, unknown>;
      served = operationIndex(document);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-proxy-breadth-'));
      proxy = await startProxy({
        target: real.url,
        port: 0,
        host: '127.0.0.1',
        journal: path.join(dir, 'j.sqlite'),
        document,
      });
    });
    after(async () => {
      await proxy.close();
      await real.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('finds no departure in the writes that make whole tenants and the reads of everything they made', async () => {
      const through = { ...real, url: proxy.url };
      const hr = await fullHrTenant(through);
      const academy = await fullAcademyTenant(through);
      // Every collection and object made, read where Atrium serves a GET of it.
      const reads: [(m: string, p: string) => Promise<Response>, string][] = [];
      for (const [caller, prefix, ids] of [
        [hr.caller, '/api/v2/client', hr.ids],
        [academy.caller, '/v1', academy.ids],
      ] as const) {
        for (const [collection, made] of Object.entries(ids as Record<string, (string | number)[]>)) {
          for (const p of [collection, ...made.map((id) => `${collection}/${id}`)]) {
            if (served.match('GET', `${prefix}${p}`)) reads.push([(m, q) => caller.call(m, q), p]);
          }
        }
      }
      assert.ok(reads.length > 40, `${reads.length} reads`);
      for (const [call, p] of reads) {
        const res = await call('GET', p);
        await res.arrayBuffer();
        assert.ok(res.status < 500, `GET ${p}: ${res.status}`);
      }
      const report = proxy.report();
      const departures = report.operations.flatMap((o) =>
        o.departures.map(
          (d) =>
            `${o.operation} ${d.direction} ${d.kind} ${d.field} | ${d.expected} | ${d.actual} | ${d.example.method} ${d.example.path} ${d.example.status}`,
        ),
      );
      assert.ok(report.operations.length > 100, `${report.operations.length} operations checked`);
      assert.deepEqual(departures, [], departures.join('\n'));
    });
  });
}
