/**
 * The SDK package's copies of the server's schema types (packages/client/src/schemas, written by
 * scripts/client-types.ts) are those the server's schemas give today: a schema changed without
 * `npm run gen:client-types` fails here, naming the stale files. The output is canonical (sorted), so adding one
 * resource rewrites only its own file.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { generate } from '../../scripts/client-types.js';
import { ROOT } from '../support/root.js';

const OUT = path.join(ROOT, 'packages/client/src/schemas');

describe('the SDK schema types', () => {
  it('are current: regenerating them from the server schemas changes nothing', () => {
    const files = generate();
    assert.ok(files.size >= 20, `${files.size} generated files`);
    const stale = [...files]
      .filter(([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text)
      .map(([file]) => path.relative(ROOT, file));
    const extra = fs
      .readdirSync(OUT, { recursive: true })
      .map((n) => path.join(OUT, String(n)))
      .filter((f) => f.endsWith('.ts') && !files.has(f))
      .map((f) => path.relative(ROOT, f));
    assert.deepEqual([...stale, ...extra], [], 'stale: run npm run gen:client-types');
  });

  it('do not depend on the order TypeScript meets the modules in: members and unions come out sorted', () => {
    const forward = generate();
    const backward = generate({ reversed: true });
    const differ = [...forward]
      .filter(([file, text]) => backward.get(file) !== text)
      .map(([f]) => path.relative(ROOT, f));
    assert.deepEqual(differ, []);
    const organization = fs.readFileSync(path.join(OUT, 'hr/core/organizations.ts'), 'utf8');
    assert.match(
      organization,
      /export type Organization = \{\n {4}address1: string \| null;\n {4}address2: string \| null;\n {4}city:/,
    );
  });
});
