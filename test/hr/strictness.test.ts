/**
 * Issue 24, item 8: real clients send extra query parameters and ask for large pages. By default the HR API ignores
 * a query parameter a route does not declare and clamps `per_page` to the route's maximum; `ATRIUM_STRICT=1` keeps
 * the 400s, for integrators who want to catch their own mistakes (docs/hr-api.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface ErrorBody {
  code: string;
  message: string;
}

async function ids(res: Response): Promise<string[]> {
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return (JSON.parse(text) as { id: string }[]).map((x) => x.id);
}

async function refused(res: Response, name: string): Promise<void> {
  const body = (await res.json()) as ErrorBody;
  assert.equal(res.status, 400, JSON.stringify(body));
  assert.equal(body.code, 'invalid_request');
  assert.match(body.message, new RegExp(`"${name}"`));
}

/** 105 organizations: more than the largest page. */
async function organizations(hr: HrCaller): Promise<void> {
  for (let i = 0; i < 105; i += 15) {
    await Promise.all(
      Array.from({ length: Math.min(15, 105 - i) }, async (_, j) => {
        const id = `org-${String(i + j).padStart(3, '0')}`;
        const res = await hr.call('PUT', `/organizations/${id}`, { name: id });
        assert.equal(res.status, 201, await res.text());
      }),
    );
  }
}

describe('ATRIUM_STRICT: a yes/no setting, off by default', () => {
  it('reads 1/0, true/false, yes/no, on/off and refuses anything else', () => {
    assert.equal(loadConfig({}).strict, false);
    for (const yes of ['1', 'true', 'YES', ' on ']) assert.equal(loadConfig({ ATRIUM_STRICT: yes }).strict, true, yes);
    for (const no of ['0', 'false', 'No', 'off', '']) assert.equal(loadConfig({ ATRIUM_STRICT: no }).strict, false, no);
    assert.throws(() => loadConfig({ ATRIUM_STRICT: 'maybe' }), ConfigError);
  });
});

for (const dialect of dialects()) {
  describe(`HR query strings, lenient by default (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      await organizations(hr);
    });
    after(() => server.close());

    it('ignores a query parameter the route does not declare, even repeated', async () => {
      const plain = await ids(await hr.call('GET', '/organizations?per_page=5'));
      assert.equal(plain.length, 5);
      assert.deepEqual(await ids(await hr.call('GET', '/organizations?per_page=5&colour=blue')), plain);
      assert.deepEqual(await ids(await hr.call('GET', '/organizations?colour=a&colour=b&per_page=5')), plain);
      assert.deepEqual(await ids(await hr.call('GET', '/organizations?per_page=5&utm_source=x&_=1700000000')), plain);
      const head = await hr.call('HEAD', '/organizations?colour=blue');
      assert.equal(head.status, 200);
      assert.equal((await hr.call('GET', '/kb_categories?color=red')).status, 200);
      assert.equal((await hr.call('GET', '/users?sort_by=name')).status, 200);
    });

    it('clamps per_page above the maximum to it, and links the next page with the clamped size', async () => {
      for (const perPage of ['101', '1000', '99999999999999999999999999']) {
        const res = await hr.call('GET', `/organizations?per_page=${perPage}`);
        assert.equal((await ids(res.clone())).length, 100, perPage);
        assert.match(res.headers.get('link') ?? '', /per_page=100&cursor=/, perPage);
        assert.ok(res.headers.get('next-cursor'), perPage);
      }
      assert.equal((await ids(await hr.call('GET', '/organizations?per_page=100'))).length, 100);
      assert.equal((await hr.call('GET', '/users?per_page=500')).status, 200);
    });

    it('still refuses a declared parameter with a bad value, a repeated declared parameter, and per_page below 1', async () => {
      await refused(await hr.call('GET', '/organizations?per_page=0'), 'per_page');
      await refused(await hr.call('GET', '/organizations?per_page=-5'), 'per_page');
      await refused(await hr.call('GET', '/organizations?per_page=1e3'), 'per_page');
      await refused(await hr.call('GET', '/organizations?per_page=0x100'), 'per_page');
      await refused(await hr.call('GET', '/organizations?per_page=5&per_page=6'), 'per_page');
      await refused(await hr.call('GET', '/organizations?recursive=maybe'), 'recursive');
    });
  });

  describe(`HR query strings with ATRIUM_STRICT=1 (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    before(async () => {
      server = await startServer(dialect, { ATRIUM_STRICT: '1' });
      hr = await hrCaller(server);
      await organizations(hr);
    });
    after(() => server.close());

    it('refuses an unknown query parameter and a per_page above the maximum with 400 naming it', async () => {
      await refused(await hr.call('GET', '/organizations?colour=blue'), 'colour');
      await refused(await hr.call('GET', '/organizations?per_page=101'), 'per_page');
      await refused(await hr.call('GET', '/kb_categories?color=red'), 'color');
      await refused(await hr.call('GET', '/users?per_page=500'), 'per_page');
      assert.equal((await hr.call('HEAD', '/organizations?colour=blue')).status, 400);
      assert.equal((await ids(await hr.call('GET', '/organizations?per_page=100'))).length, 100);
    });

    it('still ignores an unknown body member: strictness is for query strings (docs/hr-api.md)', async () => {
      const res = await hr.call('POST', '/employees/search', { colour: 'blue', per_page: 1 });
      assert.equal(res.status, 200, await res.clone().text());
      assert.deepEqual(await res.json(), []);
    });
  });
}
