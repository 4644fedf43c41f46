import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../support/root.js';

const SRC = path.join(ROOT, 'src');

/**
 * Where the wall clock may be read directly, and why. Everything else reads the time through the clock of
 * `platform/time.ts` (the injected `Clock`, or `wallClock()` for what belongs to no tenant), so that a tenant's moved clock (the admin API) reaches every
 * time-derived state of that tenant.
 */
const ALLOWED: Record<string, string> = {
  'platform/time.ts': 'the clock itself',
  'cli/seed.ts': "the demo application's name: no tenant behaviour",
};

/** Reads of the wall clock: `Date.now()`, `new Date()` without an argument, `Date()` as a function. */
const WALL_CLOCK = /\bDate\.now\s*\(|\bnew\s+Date\s*\(\s*\)|(?<![\w.])Date\s*\(\s*\)|performance\.timeOrigin/;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the wall clock', () => {
  it('is read for tenant behaviour only through the clock service (platform/time.ts)', () => {
    const found: string[] = [];
    for (const file of files(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (rel in ALLOWED) continue;
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (WALL_CLOCK.test(line.replace(/\/\/.*$/, ''))) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, [], `read the time through platform/time.ts instead:\n${found.join('\n')}`);
  });

  it('finds what it looks for', () => {
    for (const text of ['Date.now()', 'const t = new Date();', 'String(Date())', 'performance.timeOrigin']) {
      assert.ok(WALL_CLOCK.test(text), text);
    }
    for (const text of ['new Date(at)', 'parseDate(x)', 'toDate()', 'clock.now()'])
      assert.ok(!WALL_CLOCK.test(text), text);
  });
});
