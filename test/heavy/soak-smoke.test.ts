/**
 * A ten-second form of `npm run soak` (scripts/soak.ts) on SQLite: the mixed workload runs without an error and
 * every invariant holds. The long form (minutes, both dialects) is `npm run soak -- --minutes N`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../support/root.js';

describe('soak, ten seconds (sqlite)', () => {
  it('no errors, no duplicate request number, no oversold seat, at most 6000 offers, exact counters', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-soak-smoke-')), 'report.json');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/soak.ts', '--minutes', '0.17', '--concurrency', '8', '--smoke', '--json', out],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' }, timeout: 300_000 },
    );
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      requests: number;
      checks: { name: string; pass: boolean }[];
    };
    assert.ok(report.requests > 50, `${report.requests} requests`);
    for (const check of report.checks) {
      // Ten seconds are too short to judge memory growth: that check is the long form's.
      if (!check.name.startsWith('RSS')) assert.ok(check.pass, check.name);
    }
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  });
});
