import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../support/root.js';

/** Runs an example as a user would (`node examples/x.mjs`, after `npm run build`): exit code and output. */
function run(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'examples', file)], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// The examples start their own server (SQLite in a temporary directory): no dialect loop.
describe('SDK examples run against a server they start', () => {
  it('examples/hr.mjs', async () => {
    const { code, stdout, stderr } = await run('hr.mjs');
    assert.equal(code, 0, `exit code; stderr: ${stderr}`);
    assert.match(stdout, /^organizations: acme, acme-fr, acme-de, acme-us$/m);
    assert.match(stdout, /^request #1: 1 closed request\(s\)$/m);
    assert.match(stdout, /^not found: not_found \(request [0-9a-f-]{36}\)$/m);
    assert.match(stdout, /^validation: name too_short$/m);
    assert.match(stdout, /^done$/m);
  });

  it('examples/sandbox.mjs', async () => {
    const { code, stdout, stderr } = await run('sandbox.mjs');
    assert.equal(code, 0, `exit code; stderr: ${stderr}`);
    assert.match(stdout, /^tenant: hr Acme \(\d{2,}-character secret\)$/m);
    assert.match(stdout, /^created at: 2031-02-01T09:00:00\+00:00$/m);
    assert.match(stdout, /^clock: 2031-03-04T09:00:00\+00:00 \(frozen\)$/m);
    assert.match(stdout, /^without retries: 503 service_unavailable$/m);
    assert.match(stdout, /^with retries: acme$/m);
    assert.match(stdout, /^request log: \d+ calls, 2 faulted, authorization Bearer \[REDACTED\]$/m);
    assert.match(stdout, /^report: \d+ calls; organizations list 3 calls, 2 errors$/m);
    assert.match(stdout, /^after restore: 0 organizations$/m);
    assert.match(stdout, /^done$/m);
  });

  it('examples/academy.mjs', async () => {
    const { code, stdout, stderr } = await run('academy.mjs');
    assert.equal(code, 0, `exit code; stderr: ${stderr}`);
    assert.match(stdout, /^5 events: Onboarding live session 1 \| .* \| Onboarding live session 5$/m);
    assert.match(stdout, /^offers added: 07\/06\/2031, 07\/13\/2031$/m);
    assert.match(stdout, /^bundle of 3 events$/m);
    assert.match(stdout, /^deleted: 404 not_found$/m);
    assert.match(stdout, /^done$/m);
  });
});
