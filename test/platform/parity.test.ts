/**
 * The parity page (docs/parity.md, docs/parity.json; docs/development.md, "Parity") agrees with a live probe of
 * every operation of the manifest (docs/reference/operations.json): each is called over HTTP with placeholder ids
 * and an empty JSON body, and is served when the answer is not the router's (a 404 "No resource at /…" for a path
 * no route has, or the HR API's 405 for a method its path lacks). A 404 of a missing object, a 4xx of a refused
 * body and a 2xx all show that the operation exists. The page's served flags and counts, per API and product area,
 * must be what the probe finds, and its operations the manifest's. `/parity` and `/parity.json` serve it, and `/`
 * links it. This file's own calls do not count as tests of the operations (PROBE_FILES, src/platform/parity/hits.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadManifest, referenceOperations } from '../../src/platform/parity/manifest.js';
import { PARITY_JSON } from '../../src/platform/parity/page-files.js';
import { type OpenApiPaths, type ParityReport, servedOperations } from '../../src/platform/parity/report.js';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi } from '../support/openapi.js';
import { ROOT } from '../support/root.js';

const PLACEHOLDER: Record<string, string> = {
  number: '1',
  page: '1',
  slug: 'no-such-slug',
  external_id: 'no-such-external-id',
};

/** The one HR operation the reference marks "NOT AVAILABLE FOR NOW": its answer is 501 (docs/hr-api.md). */
const NOT_AVAILABLE = 'POST /document_generation_campaigns/csv';

/** The path with each `{name}` replaced by a value of its kind that names nothing. */
const concrete = (api: 'hr' | 'academy', template: string) =>
  template.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) =>
    api === 'academy' ? '999999' : (PLACEHOLDER[name] ?? '00000000-0000-4000-8000-00000000dead'),
  );

const report = JSON.parse(fs.readFileSync(path.join(ROOT, PARITY_JSON), 'utf8')) as ParityReport;
const manifest = loadManifest();
const operations = referenceOperations(manifest);

describe('the parity page is the manifest', () => {
  it('lists every operation of the manifest, in its order, with its area and departures', () => {
    const listed = report.operations.map((o) => [o.api, o.area, o.group, o.method, o.path, o.departures]);
    const expected = operations.map((o) => [o.api, o.area, o.group, o.method, o.path, o.departures]);
    assert.deepEqual(listed, expected, 'docs/parity.json is stale: npm run parity');
    assert.ok(operations.filter((o) => o.api === 'hr').length === 314, 'the HR reference has 314 operations');
  });
});

for (const dialect of dialects()) {
  describe(`the parity page's summary matches a live probe of every operation (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let academy: AcademyCaller;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0', ATRIUM_ACADEMY_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      academy = await academyCaller(server);
    });
    after(() => server.close());

    it(`each of the ${operations.length} operations is served as the page says, and so are the counts`, async () => {
      const live: boolean[] = [];
      for (const op of operations) {
        const caller = op.api === 'hr' ? hr : academy;
        const body = ['POST', 'PUT', 'PATCH'].includes(op.method) ? {} : undefined;
        const url = concrete(op.api, op.path);
        const res = await caller.call(op.method, url, body);
        let text = await res.text();
        // A HEAD answers no body: whether its path is routed is what a GET of it says.
        if (op.method === 'HEAD' && res.status === 404) text = await (await caller.call('GET', url)).text();
        const unrouted = res.status === 405 || (res.status === 404 && text.includes('No resource at /'));
        live.push(!unrouted);
        const key = `${op.method} ${op.path}`;
        assert.ok(res.status < 500 || (res.status === 501 && key === NOT_AVAILABLE), `${key}: ${res.status} ${text}`);
      }
      const differ = operations
        .map((op, i) => ({
          op: `${op.api} ${op.method} ${op.path}`,
          live: live[i],
          page: report.operations[i]?.served,
        }))
        .filter((d) => d.live !== d.page);
      assert.deepEqual(differ, [], 'the page says served where the probe finds otherwise');
      for (const api of report.apis) {
        const probed = operations.flatMap((op, i) => (op.api === api.api ? [{ op, live: live[i] }] : []));
        assert.equal(api.served, probed.filter((p) => p.live).length, `${api.api}: served`);
        for (const area of api.areas) {
          const inArea = probed.filter((p) => p.op.area === area.area);
          assert.equal(area.operations, inArea.length, `${api.api} ${area.area}: operations`);
          assert.equal(area.served, inArea.filter((p) => p.live).length, `${api.api} ${area.area}: served`);
        }
      }
    });

    it("the page's served operations, and those beyond the reference, are the OpenAPI document's", async () => {
      const served = servedOperations((await fetchOpenApi(server.url)) as unknown as OpenApiPaths, manifest);
      const ids = new Set(served.map((s) => s.operationId));
      const onPage = [
        ...report.operations.flatMap((o) => (o.operation_id ? [o.operation_id] : [])),
        ...report.beyond_reference.map((b) => b.operation_id),
      ];
      assert.deepEqual([...onPage].sort(), [...ids].sort());
    });

    it('is served at /parity and /parity.json, and linked from /', async () => {
      const json = await fetch(`${server.url}/parity.json`);
      assert.equal(json.status, 200);
      assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await json.json(), report);
      const page = await fetch(`${server.url}/parity`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const html = await page.text();
      const hrSummary = report.apis[0];
      assert.ok(hrSummary, 'the HR summary');
      assert.ok(html.includes(`<td class="n">${hrSummary.operations}</td><td class="n">${hrSummary.served}</td>`));
      assert.ok(html.includes('<code>POST /employees</code>'), 'an operation row');
      const landing = await (await fetch(`${server.url}/`)).text();
      assert.ok(landing.includes('<a href="parity">'), 'the landing page links the parity page');
    });
  });
}
