/**
 * The benchmark harness works (issue 8: "CI may run it only as a smoke check that the harness works"): a
 * `--smoke` run builds its tiny dataset, starts the servers, loads every scenario and writes its report. Nothing
 * here looks at a speed: benchmarks assert nothing about performance in `npm test`. It does check that the CPU per
 * call (issue 23's yardstick) is the server's CPU time over the calls answered, and that the peers pass and the
 * webhooks pass (issue 18) run.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ROOT } from '../support/root.js';

const root = ROOT;

interface Row {
  id: string;
  reqPerSec: number;
  requests: number;
  non2xx: number;
  errors: number;
  ratio: number;
  rssBytes: number;
  cpuUsPerCall: number;
  cpuSeconds: number;
  cpuUserUsPerCall: number;
  cpuRatio: number;
}
interface Measured {
  reqPerSec: number;
  requests: number;
  cpuUsPerCall: number;
  cpuSeconds: number;
  cpuUserUsPerCall: number;
}
interface Report {
  mode: string;
  passes: {
    name: string;
    baselineJson: Measured;
    baselineFile?: Measured;
    healthz: Measured;
    healthzRuns: Measured[];
    rows: Row[];
  }[];
  targets: { what: string; value: number | null; met: boolean | null }[];
  startup?: { medianAtriumMs: number; medianBareNodeMs: number };
  peers: {
    events: number;
    rows: { endpoint: string; server: string; measurement: Measured & { non2xx: number; errors: number } }[];
    ratios: { endpoint: string; peer: string; ratio: number }[];
  };
  webhooks: {
    withWebhook: Measured & { id: string; non2xx: number; errors: number };
    withoutWebhook: Measured & { id: string; non2xx: number; errors: number };
    ratio: number;
    cpuRatio: number;
    outboxWith: Measured & { id: string; non2xx: number; errors: number };
    outboxWithout: Measured & { id: string; non2xx: number; errors: number };
    outboxRatio: number;
    drains: { webhooks: number; deliveries: number; seconds: number; perSecond: number; complete: boolean }[];
  };
  imports: {
    rows: number;
    import: { status: string; created: number; rowsPerSecond: number; peakRssBytes: number; p99Ratio: number };
    bulk: { status: string; rowsPerSecond: number };
    single: { rowsPerSecond: number };
    bulkOverSingle: number;
  };
  previews: {
    documents: number;
    pngBytes: number;
    first: { calls: number; cpuUsPerCall: number };
    cached: Measured & { non2xx: number; errors: number };
    download: Measured & { non2xx: number; errors: number };
    firstOverDownload: number;
    cachedOverDownload: number;
  };
}

const SCENARIOS = [
  'tokens',
  'requests-page1',
  'requests-page1-noauth',
  'requests-deep',
  'employee-get',
  'employee-get-noauth',
  'events-list',
  'event-get',
  'document-download',
  'requests-create',
  'add-offers',
];

describe('benchmark harness (npm run bench -- --smoke)', () => {
  it('measures every scenario without a failed request, against baselines of the same run, and reports it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-smoke-'));
    const out = path.join(dir, 'smoke.json');
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'bench/run.ts', '--smoke', '--peers', '--out', out],
        { cwd: root, timeout: 900_000, maxBuffer: 10 * 2 ** 20, env: { ...process.env, DATABASE_URL: '' } },
      );
      const report = JSON.parse(fs.readFileSync(out, 'utf8')) as Report;
      assert.equal(report.mode, 'smoke');
      const main = report.passes.find((p) => p.name === 'main');
      assert.ok(main, 'a main pass');
      assert.deepEqual(
        main.rows.map((r) => r.id),
        SCENARIOS,
        'every scenario, each unauthenticated twin right after its scenario',
      );
      assert.ok(main.baselineJson.reqPerSec > 0, 'the node:http baseline answered');
      assert.ok((main.baselineFile?.reqPerSec ?? 0) > 0, 'the file-streaming baseline answered');
      // The yardstick (issue 23): each server's CPU time over the window, per call answered.
      const perCall = (m: Measured, what: string) => {
        assert.ok(m.requests > 0 && m.cpuSeconds >= 0, `${what}: requests and CPU time were counted`);
        assert.ok(Math.abs(m.cpuUsPerCall - (m.cpuSeconds * 1e6) / m.requests) < 1e-6, `${what}: CPU per call`);
        assert.ok(m.cpuUserUsPerCall >= 0 && m.cpuUserUsPerCall <= m.cpuUsPerCall, `${what}: its user-mode part`);
      };
      perCall(main.baselineJson, 'node:http baseline');
      assert.equal(main.healthzRuns.length, 2, '/healthz measured before and after the scenarios');
      for (const run of main.healthzRuns) perCall(run, 'GET /healthz');
      assert.ok(main.healthz.cpuUsPerCall > 0, "Atrium's /healthz costs some CPU per call");
      for (const row of main.rows) {
        perCall(row, row.id);
        assert.ok(
          Math.abs(row.cpuRatio - row.cpuUsPerCall / main.healthz.cpuUsPerCall) < 1e-9,
          `${row.id}: CPU per call as a ratio to /healthz's`,
        );
        assert.ok(row.requests > 0, `${row.id}: requests were made`);
        assert.equal(row.non2xx, 0, `${row.id}: every answer was 2xx`);
        assert.equal(row.errors, 0, `${row.id}: no connection errors or timeouts`);
        assert.ok(row.rssBytes > 0, `${row.id}: the server's RSS was read`);
        const base = row.id === 'document-download' ? main.baselineFile?.reqPerSec : main.baselineJson.reqPerSec;
        assert.ok(
          Math.abs(row.ratio - row.reqPerSec / (base ?? Number.NaN)) < 1e-9,
          `${row.id}: ratio to its baseline`,
        );
      }
      const what = report.targets.map((t) => t.what);
      for (const expected of [
        'POST /api/v2/client/tokens: CPU per call / healthz',
        'GET /requests?per_page=20 (page 1): CPU per call / healthz',
        'requests list, CPU per call: deep cursor / page 1',
        'addOffers p99 / event GET p99',
        'server RSS after a pass',
        'PUT /organizations/{id}, req/s: one webhook / none, outbox',
        'PUT /organizations/{id}, req/s: one webhook / none, delivering',
        'webhook deliveries a second, one process, 1 webhook',
        'webhook deliveries a second, one process, 8 webhooks',
        'CSV import of',
        'CSV import, peak RSS',
        'employee GET p99 during the import / idle',
        'bulk PUT of',
      ]) {
        assert.ok(
          what.some((w) => w.startsWith(expected)),
          `a target line for ${expected}`,
        );
      }
      assert.ok((report.startup?.medianAtriumMs ?? 0) > 0, 'start-up of the CLI was measured');
      // The peers pass: json-server and Prism, started by the bench, answer both endpoints without an error.
      assert.deepEqual(
        report.peers.rows.map((r) => `${r.endpoint} ${r.server}`),
        [
          'event-get atrium',
          'events-list atrium',
          'event-get json-server',
          'events-list json-server',
          'event-get prism',
          'events-list prism',
        ],
      );
      for (const r of report.peers.rows) {
        perCall(r.measurement, `peers ${r.server} ${r.endpoint}`);
        assert.equal(r.measurement.non2xx + r.measurement.errors, 0, `peers ${r.server} ${r.endpoint}: all 2xx`);
      }
      for (const r of report.peers.ratios) {
        const atrium = report.peers.rows.find((x) => x.endpoint === r.endpoint && x.server === 'atrium');
        const peer = report.peers.rows.find((x) => x.endpoint === r.endpoint && x.server === r.peer);
        assert.ok(
          Math.abs(r.ratio - (atrium?.measurement.reqPerSec ?? 0) / (peer?.measurement.reqPerSec ?? 0)) < 1e-9,
          `peers: ${r.endpoint} ratio to ${r.peer}`,
        );
      }
      // The webhooks pass (issue 18): the write with one webhook and without, delivering and with the runner
      // stopped (the outbox alone), then every delivery drained.
      const hooks = report.webhooks;
      for (const m of [hooks.withWebhook, hooks.withoutWebhook, hooks.outboxWith, hooks.outboxWithout]) {
        perCall(m, m.id);
        assert.ok(m.requests > 0, `${m.id}: requests were made`);
        assert.equal(m.non2xx + m.errors, 0, `${m.id}: every answer was 2xx`);
      }
      assert.ok(Math.abs(hooks.ratio - hooks.withWebhook.reqPerSec / hooks.withoutWebhook.reqPerSec) < 1e-9);
      assert.ok(Math.abs(hooks.cpuRatio - hooks.withWebhook.cpuUsPerCall / hooks.withoutWebhook.cpuUsPerCall) < 1e-9);
      assert.ok(Math.abs(hooks.outboxRatio - hooks.outboxWith.reqPerSec / hooks.outboxWithout.reqPerSec) < 1e-9);
      assert.deepEqual(
        hooks.drains.map((d) => [d.webhooks, d.complete]),
        [
          [1, true],
          [8, true],
        ],
        'the deliveries to one webhook, then to eight, all reached the receiver',
      );
      for (const d of hooks.drains) assert.ok(d.deliveries > 0 && d.seconds > 0 && d.perSecond > 0);
      // The imports pass (issue 19): a CSV of employees imported whole, a bulk PUT completed, single PUTs timed.
      const imp = report.imports;
      assert.equal(imp.import.status, 'success');
      assert.equal(imp.import.created, imp.rows, 'every row of the CSV created an employee');
      assert.ok(imp.import.rowsPerSecond > 0 && imp.import.peakRssBytes > 0 && imp.import.p99Ratio > 0);
      assert.equal(imp.bulk.status, 'completed');
      assert.ok(Math.abs(imp.bulkOverSingle - imp.bulk.rowsPerSecond / imp.single.rowsPerSecond) < 1e-9);
      // The previews pass (issue 20): every first render answered a PNG; the cached ones and the download, no failure.
      const pv = report.previews;
      assert.equal(pv.first.calls, pv.documents);
      assert.ok(pv.pngBytes > 1000 && pv.first.cpuUsPerCall > 0, 'first renders measured');
      for (const m of [pv.cached, pv.download]) assert.ok(m.requests > 0 && m.non2xx === 0 && m.errors === 0);
      assert.ok(Math.abs(pv.firstOverDownload - pv.first.cpuUsPerCall / pv.download.cpuUsPerCall) < 1e-9);
      assert.ok(Math.abs(pv.cachedOverDownload - pv.cached.cpuUsPerCall / pv.download.cpuUsPerCall) < 1e-9);
      assert.match(stdout, /preview, first render \(\d+ PDFs of 3 pages\), CPU per call \/ 1 MiB download/);
      assert.match(stdout, /targets:/, 'the table is printed');
      assert.match(stdout, /CPU per call: GET \/healthz \d+ µs, bare node:http \d+ µs/, 'the yardsticks are printed');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
