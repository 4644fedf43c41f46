import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

async function error(res: Response, status: number, code: string): Promise<ErrorBody> {
  const body = (await res.json()) as ErrorBody;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return body;
}

for (const dialect of dialects()) {
  describe(`HR errors (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
    });
    after(() => server.close());

    it('404 not_found with the error body for unknown paths, authenticated or not', async () => {
      await error(await hr.call('GET', '/no_such_resource'), 404, 'not_found');
      await error(await fetch(`${server.url}/api/v2/client/nothing/here`), 404, 'not_found');
      await error(await hr.call('GET', `/organizations/${'x'.repeat(300)}`), 404, 'not_found');
    });

    it('405 method_not_allowed with Allow for a known path and an unsupported method', async () => {
      const res = await hr.call('DELETE', '/organizations/abc');
      assert.equal(res.headers.get('allow'), 'GET, HEAD, PUT, PATCH');
      await error(res, 405, 'method_not_allowed');
      const tokens = await fetch(`${server.url}/api/v2/client/tokens`);
      assert.equal(tokens.headers.get('allow'), 'POST');
      await error(tokens, 405, 'method_not_allowed');
      await error(await hr.call('POST', '/organizations', { name: 'x' }), 405, 'method_not_allowed');
    });

    it('400 invalid_request naming an invalid or repeated query parameter (unknown ones: test/hr/strictness.test.ts)', async () => {
      const cases: [string, string][] = [
        ['per_page=0', 'per_page'],
        ['recursive=maybe', 'recursive'],
        ['q=ab&q=cd', 'q'],
      ];
      for (const [query, name] of cases) {
        const body = await error(await hr.call('GET', `/organizations?${query}`), 400, 'invalid_request');
        assert.match(body.message, new RegExp(`"${name}"`), query);
      }
    });

    it('400 invalid_request for malformed JSON and for a non-object body; 415 for an unknown content type', async () => {
      await error(await hr.call('PUT', '/organizations/a', '{"name": "x"'), 400, 'invalid_request');
      await error(await hr.call('PUT', '/organizations/a', '[1,2]'), 400, 'invalid_request');
      const xml = await hr.call('PUT', '/organizations/a', '<name/>', { 'content-type': 'application/xml' });
      await error(xml, 415, 'unsupported_media_type');
      assert.equal((await hr.call('GET', '/organizations/a')).status, 404);
    });

    it('413 payload_too_large for a body over the limit', async () => {
      const big = JSON.stringify({ name: 'x', description: 'y'.repeat(1_100_000) });
      await error(await hr.call('PUT', '/organizations/big', big), 413, 'payload_too_large');
      assert.equal((await hr.call('GET', '/organizations/big')).status, 404);
    });

    it('treats a JSON content type with an empty body as no body', async () => {
      const list = await hr.call('GET', '/organizations', undefined, { 'content-type': 'application/json' });
      assert.equal(list.status, 200);
      const body = await error(await hr.call('PATCH', '/organizations/a', ''), 400, 'invalid_request');
      assert.match(body.message, /JSON object/);
    });

    it('422 validation_error lists each field error with a dotted path', async () => {
      const body = await error(
        await hr.call('PUT', '/organizations/a', { name: '', country: ['FR'], contact_email: { x: 1 } }),
        422,
        'validation_error',
      );
      assert.deepEqual(body.errors?.map((e) => [e.field, e.code]).sort(), [
        ['contact_email', 'invalid_type'],
        ['country', 'invalid_type'],
        ['name', 'too_short'],
      ]);
      for (const e of body.errors ?? []) assert.equal(typeof e.message, 'string');
      // Bodies are never coerced: a number is not a string, on every route.
      for (const path of ['/organizations/a', '/organization_groups/g']) {
        const typed = await error(await hr.call('PUT', path, { name: 7 }), 422, 'validation_error');
        assert.deepEqual(
          typed.errors?.map((e) => [e.field, e.code]),
          [['name', 'invalid_type']],
        );
      }
    });

    it('a NUL character (U+0000) is a validation error, never a database failure', async () => {
      // A body field, a nested list item and an object key: 422 with the field path.
      const field = await error(
        await hr.call('PUT', '/organizations/nul', { name: 'a\u0000b', city: 'Paris' }),
        422,
        'validation_error',
      );
      assert.deepEqual(
        field.errors?.map((e) => [e.field, e.code]),
        [['name', 'invalid_format']],
      );
      assert.match(field.errors?.[0]?.message ?? '', /NUL/);
      assert.equal((await hr.call('PUT', '/organizations/nul-ok', { name: 'Fine' })).status, 201);
      const nested = await error(
        await hr.call('PUT', '/organization_groups/g-nul', { name: 'G', organizations_ids: ['nul-ok', 'x\u0000'] }),
        422,
        'validation_error',
      );
      assert.deepEqual(
        nested.errors?.map((e) => [e.field, e.code]),
        [['organizations_ids.1', 'invalid_format']],
      );
      // Together with another error of another field, both are listed.
      const both = await error(
        await hr.call('PUT', '/organizations/nul', { name: '', city: '\u0000' }),
        422,
        'validation_error',
      );
      assert.deepEqual(both.errors?.map((e) => [e.field, e.code]).sort(), [
        ['city', 'invalid_format'],
        ['name', 'too_short'],
      ]);
      // A query parameter: 400 naming it.
      for (const query of ['q=ab%00cd', 'parent_organization_id=%00', 'cursor=1%00']) {
        const body = await error(await hr.call('GET', `/organizations?${query}`), 400, 'invalid_request');
        assert.match(body.message, new RegExp(`"${query.split('=')[0]}"`), query);
      }
      // A path parameter cannot be an id: 404, as for any other impossible id.
      await error(await hr.call('GET', '/organizations/a%00b'), 404, 'not_found');
      await error(await hr.call('PATCH', '/organizations/a%00b', { name: 'x' }), 404, 'not_found');
      // Also in a list under a parent (the lists' one implementation declares their path parameters).
      await error(await hr.call('GET', '/webhooks/a%00b/deliveries'), 404, 'not_found');
      await error(await hr.call('GET', '/datasets/a%00b/values'), 404, 'not_found');
      assert.equal((await hr.call('GET', '/organizations/nul')).status, 404, 'nothing was stored');
    });

    it('echoes X-Request-Id, or makes one', async () => {
      const given = await hr.call('GET', '/organizations', undefined, { 'x-request-id': 'trace-123' });
      assert.equal(given.headers.get('x-request-id'), 'trace-123');
      const made = await hr.call('GET', '/nowhere');
      assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });

    it('never sends CORS headers on the HR API', async () => {
      const res = await hr.call('GET', '/organizations', undefined, { origin: 'https://example.test' });
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      const preflight = await fetch(`${server.url}/api/v2/client/organizations`, {
        method: 'OPTIONS',
        headers: { origin: 'https://example.test', 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.headers.get('access-control-allow-origin'), null);
      assert.equal(preflight.status, 405);
    });
  });

  describe(`HR unexpected failures (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('answers 500 internal_error with no stack or SQL, logs it with the request id, and readyz turns 503', async () => {
      const hr = await hrCaller(server);
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
      await server.app.database.close();
      const res = await hr.call('GET', '/organizations/abc', undefined, { 'x-request-id': 'boom-1' });
      const text = await res.text();
      assert.equal(res.status, 500);
      const body = JSON.parse(text) as ErrorBody;
      assert.equal(body.code, 'internal_error');
      assert.doesNotMatch(text, /select|hr_organizations|at .*\.ts|stack/i);
      const logged = server.logs.map((l) => JSON.parse(l) as { reqId?: string; level: number; err?: unknown });
      assert.ok(
        logged.some((l) => l.reqId === 'boom-1' && l.level === 50 && l.err),
        'the failure is logged at error level with the request id',
      );
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 503);
    });
  });
}
