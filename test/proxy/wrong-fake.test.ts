/**
 * The validation proxy (docs/proxy.md) in front of a deliberately wrong fake of the real service, a node:http
 * server: it forwards each call and its answer unchanged, and finds each departure, with its operation, field,
 * what Atrium's schema expects and what came: a wrong type, a missing field, an extra field, a wrong value, a
 * header, an undeclared status, a route Atrium does not serve, and a request Atrium would refuse that the fake
 * took. The journal holds no body and no secret, and the proxy's page shows the same report. No database is
 * involved (Atrium's packaged OpenAPI document is the reference), so it runs once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startProxy } from '../../src/admin/proxy/start.js';
import type { ProxyReport } from '../../src/admin/proxy/store.js';
import { atrium } from '../support/cli.js';

const TOKEN = 'fake-access-token-0123456789';
const BEARER = 'Bearer caller-token-abcdef';

function organization(): Record<string, unknown> {
  const org: Record<string, unknown> = { id: 'paris', name: 'Paris', has_children: false };
  for (const field of ['description', 'parent_organization_id', 'corporate_name', 'address1', 'address2'])
    org[field] = null;
  for (const field of ['zip_code', 'city', 'country', 'contact_firstname', 'contact_lastname', 'contact_email']) {
    org[field] = null;
  }
  org.contact_phone_number = null;
  org.created_at = '2026-01-01T00:00:00.000Z';
  org.updated_at = '2026-01-01T00:00:00.000Z';
  return org;
}

/** What the fake answers: method and path → status, headers, body. */
function answer(method: string, url: string): { status: number; headers: Record<string, string>; body: unknown } {
  const json = { 'content-type': 'application/json; charset=utf-8', 'x-fake': 'yes' };
  if (method === 'POST' && url === '/api/v2/client/tokens') {
    return {
      status: 200,
      headers: { ...json, 'cache-control': 'no-cache' },
      body: { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 },
    };
  }
  if (method === 'GET' && url === '/api/v2/client/organizations/paris') {
    const { has_children: _, ...org } = organization();
    return { status: 200, headers: json, body: { ...org, id: 42, color: 'blue' } };
  }
  if (method === 'PUT' && url === '/api/v2/client/organizations/paris') {
    return { status: 201, headers: json, body: organization() };
  }
  if (url.startsWith('/api/v2/client/organizations')) {
    return { status: 418, headers: json, body: { code: 'teapot', message: 'I am a teapot' } };
  }
  return { status: 200, headers: json, body: { anything: true } };
}

describe('validation proxy in front of a wrong fake', () => {
  let fake: http.Server;
  let received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let dir: string;
  let fakeHost: string;

  before(async () => {
    received = [];
    fake = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const a = answer(req.method ?? '', req.url ?? '');
        res.writeHead(a.status, a.headers);
        res.end(JSON.stringify(a.body));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeHost = `127.0.0.1:${(fake.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-proxy-fake-'));
    proxy = await startProxy({
      target: `http://${fakeHost}`,
      port: 0,
      host: '127.0.0.1',
      journal: path.join(dir, 'proxy.sqlite'),
    });
  });
  after(async () => {
    await proxy.close();
    await new Promise((resolve) => fake.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = (method: string, p: string, body?: unknown, type = 'application/json') =>
    fetch(`${proxy.url}${p}`, {
      method,
      headers: { authorization: BEARER, ...(body !== undefined ? { 'content-type': type } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });

  it('forwards each call and its answer unchanged', async () => {
    const form = 'grant_type=client_credentials&scope=client&client_id=acme&client_secret=hunter2';
    const token = await call('POST', '/api/v2/client/tokens', form, 'application/x-www-form-urlencoded');
    assert.equal(token.status, 200);
    assert.equal(token.headers.get('x-fake'), 'yes');
    assert.equal(token.headers.get('cache-control'), 'no-cache');
    assert.deepEqual(await token.json(), { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 });
    const [first] = received;
    assert.equal(first?.body, form, 'the request body reached the fake unchanged');
    assert.equal(first?.headers.authorization, BEARER);
    assert.equal(first?.headers.host, fakeHost, 'Host names the target');

    const org = await call('GET', '/api/v2/client/organizations/paris');
    assert.equal(org.status, 200);
    assert.equal(((await org.json()) as { id: unknown }).id, 42);
    assert.equal((await call('GET', '/api/v2/client/organizations?per_page=2')).status, 418);
    assert.equal((await call('GET', '/api/v2/client/no_such_things/7')).status, 200);
    assert.equal((await call('PUT', '/api/v2/client/organizations/paris', { name: 5, colour: 'red' })).status, 201);
    assert.equal(received.length, 5, 'every call reached the fake');
  });

  it('finds each departure, with its operation, field, expected and actual', () => {
    const report = proxy.report();
    const found = report.operations.flatMap((o) =>
      o.departures.map((d) => `${o.operation} ${d.direction} ${d.kind} ${d.field} | ${d.expected} | ${d.actual}`),
    );
    const expected = [
      'hr_getAccessToken response header /header/cache-control | "no-store" | "no-cache"',
      'hr_getAccessToken response wrong_value /body/token_type | one of ["bearer"] | "Bearer"',
      'hr_organizations_retrieve response wrong_type /body/id | string | integer',
      'hr_organizations_retrieve response missing_field /body/has_children | boolean | absent',
      'hr_organizations_retrieve response extra_field /body/color | absent | string',
      'hr_organizations_list response undeclared_status /status | 200, 400, 401, 403, 422 | 418',
      'GET /api/v2/client/no_such_things/7 request unserved_operation  | an operation of Atrium | GET /api/v2/client/no_such_things/7',
      'hr_organizations_upsert request wrong_type /body/name | string | integer',
    ];
    for (const line of expected) assert.ok(found.includes(line), `${line}\nnot in:\n${found.join('\n')}`);
    assert.equal(found.length, expected.length, found.join('\n'));
    const list = report.operations.find((o) => o.operation === 'hr_organizations_list');
    assert.deepEqual(list?.departures[0]?.example, {
      method: 'GET',
      path: '/api/v2/client/organizations?per_page=2',
      status: 418,
    });
    assert.equal(report.calls, 5);
  });

  it('`atrium proxy report` prints each departure under its operation', async () => {
    const run = await atrium({}, 'proxy', 'report', '--journal', path.join(dir, 'proxy.sqlite'));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^5 calls, 5 operations, 5 with departures \(8 in all\)$/m);
    assert.match(run.stdout, /^hr_organizations_retrieve \[hr\]: 1 calls, 1 departing$/m);
    assert.ok(
      run.stdout.includes(
        '  response wrong_type /body/id: expected string, got integer (1×, e.g. GET /api/v2/client/organizations/paris → 200)\n',
      ),
      run.stdout,
    );
  });

  it('keeps no body and no secret, and nothing but its journal', async () => {
    const bytes = ['', '-wal']
      .map((s) => path.join(dir, `proxy.sqlite${s}`))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('');
    for (const secret of [TOKEN, 'caller-token', 'hunter2', 'Paris']) {
      assert.ok(!bytes.includes(secret), `${secret} is not in the journal`);
    }
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => !f.startsWith('proxy.sqlite')),
      [],
    );
  });

  it('shows the report on its own page, never forwarded', async () => {
    const before = received.length;
    const page = await fetch(`${proxy.url}/__atrium/proxy`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.match(html, /hr_organizations_retrieve/);
    assert.match(html, /undeclared_status/);
    const json = (await (await fetch(`${proxy.url}/__atrium/proxy.json`)).json()) as ProxyReport;
    assert.deepEqual(json, proxy.report());
    assert.equal(received.length, before, 'the page is the proxy’s own');
  });
});
