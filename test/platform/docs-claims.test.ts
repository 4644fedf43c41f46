/**
 * The docs never say that an operation Atrium serves is missing (issue 45). Every sentence of README.md and docs/
 * that says "not implemented", "not served", "does not exist", "is not supported" or "not available" is read for the
 * operations it names in backticks (`GET /requests/{id}/pdf`, or a bare path such as `/process_pdf_templates`), and
 * each is looked up in the OpenAPI document of a running server: a served one fails the test.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi } from '../support/openapi.js';
import { ROOT } from '../support/root.js';

/** The phrasings the docs use to say something is not there. */
const CLAIM = /\b(?:not implemented|not served|(?:does|do) not exist|(?:is|are) not supported|not available)\b/i;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The prefix a document's relative paths hang under: HR paths are written without `/api/v2/client`, and so on. */
function prefixesOf(doc: string): string[] {
  if (doc === 'docs/hr-api.md') return ['/api/v2/client'];
  if (doc.startsWith('docs/academy')) return ['/v1'];
  if (doc === 'docs/admin.md') return ['/admin/v1'];
  return ['/api/v2/client', '/v1', '/admin/v1'];
}

/** `{id}` and `:id` alike, so that a path is compared by its shape. */
const shape = (p: string) =>
  p
    .replace(/\{[^}]*\}|:[A-Za-z_]\w*/g, '{}')
    .replace(/\/+$/, '')
    .toLowerCase();

/**
 * The claim scopes of a Markdown text: each sentence holding a claim phrase, within its bullet, table row or
 * paragraph (lines joined, so a backticked operation broken over two lines reads whole); a heading holding one
 * (`#### Not implemented`) makes the whole paragraph after it a scope.
 */
function claimScopes(text: string): string[] {
  const units: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) units.push(current.join(' ').replace(/\s+/g, ' ').trim());
    current = [];
  };
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      flush();
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line.trim() === '') flush();
    else if (/^\s*(?:[-*+]|\d+\.)\s|^\s*\||^#/.test(line)) {
      flush();
      current.push(line);
      if (line.startsWith('#')) flush();
    } else current.push(line);
  }
  flush();

  const scopes: string[] = [];
  for (const [i, unit] of units.entries()) {
    if (!CLAIM.test(unit)) continue;
    if (unit.startsWith('#')) {
      const next = units[i + 1];
      if (next) scopes.push(next);
      continue;
    }
    // Sentences end at a full stop followed by a space (or the unit's end); a colon does not end one, so
    // "Not implemented: `A`, `B`." is one scope.
    for (const sentence of unit.split(/(?<=\.)\s+(?=[A-Z*`(])/)) if (CLAIM.test(sentence)) scopes.push(sentence);
  }
  return scopes;
}

/** The operations a scope names in backticks: a method and a path, or a bare path (every method). */
function mentions(scope: string): { method: string | null; path: string }[] {
  const out: { method: string | null; path: string }[] = [];
  for (const m of scope.matchAll(/`([^`]+)`/g)) {
    const code = (m[1] as string).trim();
    const found = /^(?:([A-Z]+)(?:\|[A-Z]+)*\s+)?(\/[^\s?#]*)/.exec(code);
    if (!found) continue;
    const method = found[1] ?? null;
    if (method && !(METHODS as readonly string[]).includes(method)) continue;
    out.push({ method, path: found[2] as string });
  }
  return out;
}

/** The served operations a claim names (empty when the claim is true). */
function servedAmong(scope: string, doc: string, served: ReadonlyArray<{ method: string; path: string }>): string[] {
  const hits: string[] = [];
  for (const { method, path: p } of mentions(scope)) {
    const candidates = [shape(p), ...prefixesOf(doc).map((prefix) => shape(prefix + p))];
    for (const op of served) {
      const s = shape(op.path);
      // A bare path names the path and everything under it; HEAD is served wherever GET is.
      const pathMatches = method ? candidates.includes(s) : candidates.some((c) => s === c || s.startsWith(`${c}/`));
      const methodMatches = !method || op.method === method || (method === 'HEAD' && op.method === 'GET');
      if (pathMatches && methodMatches) {
        hits.push(`${method ?? '(any)'} ${p} is served as ${op.method} ${op.path}`);
        break;
      }
    }
  }
  return hits;
}

const documents = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

describe('docs claim no served operation missing', () => {
  let server: TestServer;
  let served: { method: string; path: string }[];

  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite');
    const doc = await fetchOpenApi(server.url);
    served = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item as object)
        .filter((m) => (METHODS as readonly string[]).includes(m.toUpperCase()))
        .map((m) => ({ method: m.toUpperCase(), path: p })),
    );
  });
  after(() => server.close());

  it('the check finds a false claim, and passes a true one', () => {
    assert.ok(served.some((o) => o.method === 'GET' && o.path === '/api/v2/client/requests/{id}/pdf'));
    const claims = claimScopes(
      [
        '- Downloads support `Range`. Page previews (`/preview`) and `GET /requests/{id}/pdf`',
        '  are not implemented: they render documents.',
        '',
        '#### Not implemented',
        '',
        '`POST /kb_articles/images`, `GET',
        '/kb_articles/{id}/hits`, and `GET /requests/{request_id}/attachments/{a}/preview/{page}`.',
        '',
        '- `GET /requests/{id}` is served. Not implemented: `POST /kb_articles/{id}/feedback`.',
      ].join('\n'),
    );
    assert.equal(claims.length, 3);
    assert.deepEqual(
      claims.map((c) => servedAmong(c, 'docs/hr-api.md', served).length),
      [1, 2, 0],
      'the PDF, the KB image upload and the preview are served; the third bullet names only what is not',
    );
    assert.deepEqual(mentions(claims[1] as string)[1], { method: 'GET', path: '/kb_articles/{id}/hits' });
  });

  it('no sentence of README.md or docs/ calls a served operation missing', () => {
    const wrong: string[] = [];
    let claims = 0;
    for (const doc of documents) {
      for (const scope of claimScopes(fs.readFileSync(path.join(ROOT, doc), 'utf8'))) {
        claims++;
        for (const hit of servedAmong(scope, doc, served)) wrong.push(`${doc}: ${hit}\n  in: ${scope}`);
      }
    }
    // Every operation of the reference is served, so the claims left name none: the check still reads them.
    assert.ok(claims >= 5, `${claims} claims read`);
    assert.deepEqual(wrong, [], `claims of a missing operation that Atrium serves:\n${wrong.join('\n')}`);
  });
});
