/**
 * The benchmark harness works (issue 8: "CI may run it only as a smoke check that the harness works"): a
 * `--smoke` run builds its tiny dataset, starts the servers, loads every scenario and writes its report. Nothing
 * here looks at a speed: benchmarks assert nothing about performance in `npm test`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

interface Row {
  id: string;
  reqPerSec: number;
  requests: number;
  non2xx: number;
  errors: number;
  ratio: number;
  rssBytes: number;
}
interface Report {
  mode: string;
  passes: { name: string; baselineJson: { reqPerSec: number }; baselineFile?: { reqPerSec: number }; rows: Row[] }[];
  targets: { what: string; value: number | null; met: boolean | null }[];
  startup?: { medianAtriumMs: number; medianBareNodeMs: number };
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
  'add-offers',
];

describe('benchmark harness (npm run bench -- --smoke)', () => {
  it('measures every scenario without a failed request, against baselines of the same run, and reports it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-smoke-'));
    const out = path.join(dir, 'smoke.json');
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'bench/run.ts', '--smoke', '--out', out],
        { cwd: root, timeout: 240_000, maxBuffer: 10 * 2 ** 20, env: { ...process.env, DATABASE_URL: '' } },
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
      for (const row of main.rows) {
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
        'POST /api/v2/client/tokens',
        'addOffers p99 / event GET p99',
        'server RSS after a pass',
      ]) {
        assert.ok(
          what.some((w) => w.startsWith(expected)),
          `a target line for ${expected}`,
        );
      }
      assert.ok((report.startup?.medianAtriumMs ?? 0) > 0, 'start-up of the CLI was measured');
      assert.match(stdout, /targets:/, 'the table is printed');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
