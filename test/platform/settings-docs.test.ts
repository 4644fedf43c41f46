/**
 * Every setting the server reads is documented, with the same default, in docs/configuration.md's table and in
 * `.env.example` (issue 17, item 15).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.js';
import { ROOT } from '../support/root.js';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The environment variables a source file reads (`env.NAME`, `env['NAME']`, `integer(env, 'NAME', …)`). */
function namesRead(file: string): string[] {
  const source = read(file);
  const names = new Set<string>();
  for (const m of source.matchAll(
    /env\.([A-Z][A-Z0-9_]+)|env\[['"]([A-Z][A-Z0-9_]+)['"]\]|\(env, ['"]([A-Z][A-Z0-9_]+)['"]/g,
  )) {
    names.add((m[1] ?? m[2] ?? m[3]) as string);
  }
  return [...names].sort();
}

describe('settings documentation', () => {
  const documented = read('docs/configuration.md');
  const example = read('.env.example');
  const table = new Map(
    [...documented.matchAll(/^\| `([A-Z_]+)` \| [^|]*\| ([^|]*)\|/gm)].map((m) => [
      m[1] as string,
      (m[2] as string).trim(),
    ]),
  );
  const lines = new Map([...example.matchAll(/^# ([A-Z_]+)=(\S*)/gm)].map((m) => [m[1] as string, m[2] as string]));
  const read_ = [...namesRead('src/platform/config.ts'), ...namesRead('src/platform/build-info.ts')];

  it('every variable the server reads is in the table of docs/configuration.md and .env.example', () => {
    assert.ok(read_.length > 20, `${read_.length} variables found`);
    assert.deepEqual(
      read_.filter((n) => !table.has(n)),
      [],
      'missing from the table of docs/configuration.md',
    );
    assert.deepEqual(
      read_.filter((n) => !lines.has(n)),
      [],
      'missing from .env.example',
    );
    assert.deepEqual(
      [...lines.keys()].filter((n) => !table.has(n)),
      [],
      '.env.example names what docs/configuration.md does not',
    );
  });

  it('the defaults agree: .env.example, docs/configuration.md and what loadConfig uses', () => {
    const config = loadConfig({}) as unknown as Record<string, unknown>;
    const mismatched: string[] = [];
    for (const [name, value] of lines) {
      if (value === '') continue;
      const inTable = table.get(name) ?? '';
      if (!inTable.includes(`\`${value}\``)) mismatched.push(`${name}: docs ${inTable}, .env.example ${value}`);
    }
    assert.deepEqual(mismatched, []);
    // Spot checks against the code itself.
    assert.equal(String(config.port), lines.get('PORT'));
    assert.equal(String(config.requestTimeoutMs), lines.get('ATRIUM_REQUEST_TIMEOUT'));
    assert.equal(String(config.headersTimeoutMs), lines.get('ATRIUM_HEADERS_TIMEOUT'));
    assert.equal(String(config.maxConnections), lines.get('ATRIUM_MAX_CONNECTIONS'));
    assert.equal(String(config.bodyLimit), lines.get('ATRIUM_BODY_LIMIT'));
    assert.equal(String(config.tokenTtlSeconds), lines.get('ATRIUM_TOKEN_TTL'));
  });
});
