/**
 * The validation proxy (docs/proxy.md) in front of a second Atrium acting as the real service: a scenario across
 * both APIs (tokens, lists, reads, writes, a 404, validation errors, a count) goes through it unchanged and it finds
 * no departure; the journal counts each operation, `atrium proxy report --json` prints it, and `--record` saves
 * each exchange, redacted, in the recording format (docs/proxy.md, "Recording").
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RecordedExchange } from '../../src/admin/proxy/recorder.js';
import { type StartProxyOptions, startProxy } from '../../src/admin/proxy/start.js';
import type { ProxyReport } from '../../src/admin/proxy/store.js';
import { academyCaller, eventBody } from '../support/academy.js';
import { atrium, json } from '../support/cli.js';
import { dialects, hrCaller, startServer, type TestServer } from '../support/harness.js';

type Running = Awaited<ReturnType<typeof startProxy>>;

for (const dialect of dialects()) {
  describe(`validation proxy in front of a second Atrium (${dialect})`, () => {
    let real: TestServer;
    let proxy: Running;
    let dir: string;
    let document: Record<string, unknown>;
    const secrets: string[] = [];
    const calls: { method: string; path: string; status: number; operation: string }[] = [];

    before(async () => {
      real = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      document = (await (await fetch(`${real.url}/openapi.json`)).json()) as Record<string, unknown>;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-proxy-'));
      const options: StartProxyOptions = {
        target: real.url,
        port: 0,
        host: '127.0.0.1',
        journal: path.join(dir, 'proxy.sqlite'),
        record: path.join(dir, 'recording'),
        document,
      };
      proxy = await startProxy(options);
    });
    after(async () => {
      await proxy.close();
      await real.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('forwards a dozen calls of both APIs unchanged and finds no departure', async () => {
      const through = { ...real, url: proxy.url };
      const hr = await hrCaller(through);
      secrets.push(hr.token, hr.creds.application_secret);
      const step = async (res: Response, status: number, operation: string, method: string, p: string) => {
        assert.equal(res.status, status, `${method} ${p}: ${res.status} ${await res.clone().text()}`);
        calls.push({ method, path: p, status, operation });
        return res.status === 204 || method === 'HEAD' ? undefined : ((await res.json()) as Record<string, unknown>);
      };
      const hrStep = async (method: string, p: string, status: number, operation: string, body?: unknown) =>
        step(await hr.call(method, p, body), status, operation, method, p);
      await hrStep('PUT', '/organizations/paris', 201, 'hr_organizations_upsert', { name: 'Paris' });
      const org = await hrStep('GET', '/organizations/paris', 200, 'hr_organizations_retrieve');
      assert.equal(org?.name, 'Paris');
      await hrStep('GET', '/organizations?per_page=2', 200, 'hr_organizations_list');
      await hrStep('HEAD', '/organizations', 200, 'hr_organizations_count');
      await hrStep('GET', '/organizations/nowhere', 404, 'hr_organizations_retrieve');
      const employee = await hrStep('POST', '/employees', 201, 'hr_employees_create', {
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@example.com',
        registration_references: [{ organization_id: 'paris', employee_number: 'A1' }],
      });
      await hrStep('GET', `/employees/${employee?.id}`, 200, 'hr_employees_retrieve');
      await hrStep('GET', '/employees', 200, 'hr_employees_list');
      await hrStep('POST', '/employees', 422, 'hr_employees_create', { firstname: 'No', lastname: 'Email' });
      await hrStep('GET', '/employees?per_page=x', 400, 'hr_employees_list');

      const academy = await academyCaller(through);
      secrets.push(academy.apikey);
      const acStep = async (method: string, p: string, status: number, operation: string, body?: unknown) =>
        step(await academy.call(method, p, body), status, operation, method, `/v1${p}`);
      await acStep('GET', '/users', 200, 'academy_users_list');
      await acStep('GET', '/users/101', 200, 'academy_users_retrieve');
      await acStep('GET', '/users/999', 404, 'academy_users_retrieve');
      const event = await acStep('POST', '/events/ilt', 201, 'academy_events_ilt_create', eventBody('ilt'));
      await acStep('GET', `/events/ilt/${event?.id}`, 200, 'academy_events_ilt_retrieve');
      await acStep('GET', '/courses', 200, 'academy_courses_list');

      const report = proxy.report();
      const departures = report.operations.flatMap((o) => o.departures.map((d) => ({ operation: o.operation, ...d })));
      assert.deepEqual(departures, [], JSON.stringify(departures, null, 2));
      const token = report.operations.find((o) => o.operation === 'hr_getAccessToken');
      assert.equal(token?.calls, 1, 'the token call went through the proxy');
      for (const c of calls) {
        const seen = report.operations.find((o) => o.operation === c.operation);
        assert.ok(seen && seen.departing === 0, `${c.operation} counted, without departures`);
      }
      assert.equal(report.calls, calls.length + 1);
    });

    it('`atrium proxy report --json` prints the journal, per operation', async () => {
      const run = await atrium(real.env, 'proxy', 'report', '--json', '--journal', path.join(dir, 'proxy.sqlite'));
      assert.equal(run.code, 0, run.stderr);
      const report = json<ProxyReport>(run);
      assert.equal(report.departures, 0);
      assert.equal(report.calls, calls.length + 1);
      assert.equal(report.operations.find((o) => o.operation === 'hr_employees_create')?.calls, 2);
      const text = await atrium(real.env, 'proxy', 'report', '--journal', path.join(dir, 'proxy.sqlite'));
      assert.match(text.stdout, /^\d+ calls, \d+ operations, 0 with departures \(0 in all\)$/m);
      assert.match(text.stdout, /^hr_employees_create \[hr\]: 2 calls, 0 departing$/m);
    });

    it('records each exchange, redacted, in the order received', async () => {
      const recording = JSON.parse(fs.readFileSync(path.join(dir, 'recording/recording.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(recording.format, 'atrium-recording');
      assert.equal(recording.version, 1);
      assert.equal(recording.target, new URL(real.url).origin);
      assert.ok(!Number.isNaN(Date.parse(String(recording.started_at))), 'started_at is a date');
      const lines = fs.readFileSync(path.join(dir, 'recording/exchanges.ndjson'), 'utf8').trim().split('\n');
      const exchanges = lines.map((l) => JSON.parse(l) as RecordedExchange);
      assert.deepEqual(
        exchanges.map((e) => e.seq),
        exchanges.map((_, i) => i + 1),
      );
      const [token, put] = exchanges;
      assert.ok(token && put, 'two exchanges at least');
      assert.equal(token.operation_id, 'hr_getAccessToken');
      assert.equal(token.api, 'hr');
      assert.equal(token.request.headers.authorization, '[redacted]');
      assert.match(String((token.request.body as { text: string }).text), /^grant_type=client_credentials/);
      assert.equal((token.response.body as { access_token: string }).access_token, '[redacted]');
      assert.equal(put.request.path, '/api/v2/client/organizations/paris');
      assert.deepEqual(put.request.body, { name: 'Paris' });
      assert.equal(put.response.status, 201);
      assert.equal((put.response.body as { id: string }).id, 'paris');
      const head = exchanges.find((e) => e.request.method === 'HEAD');
      assert.equal(head?.response.body, null);
      const users = exchanges.find((e) => e.operation_id === 'academy_users_list');
      assert.equal(users?.api, 'academy');
      assert.match(users?.request.path ?? '', /apikey=%5Bredacted%5D|apikey=\[redacted\]/);
      const all = lines.join('\n');
      assert.equal(secrets.length, 3);
      for (const secret of secrets) assert.ok(!all.includes(secret), 'no token, secret or key in the recording');
    });
  });
}
