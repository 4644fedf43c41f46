import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdminApiError, AdminClient, type IntegrationReport } from '@atrium/client';
import { atrium, json } from '../support/cli.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

type Line = IntegrationReport['operations'][number];

for (const dialect of dialects()) {
  describe(`admin API: integration report (${dialect})`, () => {
    let server: TestServer;
    let admin: AdminClient;
    let hr: HrCaller;
    let tenant: string;

    before(async () => {
      server = await startServer(dialect);
      const { token } = await server.app.services.adminTokens.create('report', 'cli');
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      hr = await hrCaller(server);
      tenant = `hr:${hr.creds.client_id}`;
      await hr.call('PUT', '/organizations/paris', { name: 'Paris' });
      for (let i = 0; i < 3; i++) await hr.call('GET', '/organizations/paris');
      await hr.call('GET', '/organizations/nowhere');
      await hr.call('GET', '/organizations?colour=blue&per_page=5000');
      await hr.call('GET', '/employee_documents');
      await hr.call('GET', '/webhooks/no-such-webhook/deliveries');
      const rule = await admin.faults.create(tenant, {
        match: { operation_id: 'hr_organizations_list' },
        effect: { type: 'status', status: 503 },
        remaining_count: 1,
      });
      assert.equal((await hr.call('GET', '/organizations')).status, 503, rule.id);
      await server.app.services.requestLog.flush();
    });
    after(() => server.close());

    const line = (report: IntegrationReport, id: string | null, method = 'GET'): Line => {
      const found = report.operations.find((l) => l.operation_id === id && l.method === method);
      assert.ok(found, `${method} ${id} in ${JSON.stringify(report.operations.map((l) => l.operation_id))}`);
      return found;
    };

    it('counts each operation, its errors and latency, and flags extensions, deprecated calls and ignored parameters', async () => {
      const report = await admin.reports.retrieve(tenant);
      assert.equal(report.tenant, tenant);
      assert.equal(report.calls, 10);
      assert.equal(report.errors, 3);
      assert.equal(line(report, 'hr_getAccessToken', 'POST').calls, 1, "the caller's token request");
      const retrieve = line(report, 'hr_organizations_retrieve');
      assert.equal(retrieve.calls, 4);
      assert.equal(retrieve.errors, 1);
      assert.equal(retrieve.error_rate, 0.25);
      assert.deepEqual(retrieve.statuses, { 200: 3, 404: 1 });
      const { p50, p95, p99, max } = retrieve.latency_ms;
      assert.ok(p50 > 0 && p50 <= p95 && p95 <= p99 && p99 <= max, JSON.stringify(retrieve.latency_ms));
      assert.equal(retrieve.extension, false);
      assert.equal(report.operations[0]?.operation_id, 'hr_organizations_retrieve', 'most called first');

      const list = line(report, 'hr_organizations_list');
      assert.deepEqual(list.ignored_parameters, { colour: 1, 'per_page>100': 1 });
      assert.equal(list.faulted, 1);
      assert.equal(line(report, 'hr_employeeDocuments_list').deprecated, true);
      const deliveries = line(report, 'hr_webhooks_deliveries_list');
      assert.equal(deliveries.extension, true, 'an extension, even answered 404');
      assert.equal(deliveries.deprecated, false);
      assert.equal(line(report, 'hr_organizations_upsert', 'PUT').calls, 1);

      // The timeline: 30-minute points over the default 24 hours, every call and error in one of them.
      assert.equal(report.timeline.bucket_seconds, 1800);
      assert.ok(report.timeline.points.length >= 48 && report.timeline.points.length <= 49);
      const sum = (key: 'calls' | 'errors') => report.timeline.points.reduce((n, p) => n + p[key], 0);
      assert.equal(sum('calls'), 10);
      assert.equal(sum('errors'), 3);
      const newest = report.timeline.points.slice(-2).reduce((n, p) => n + p.calls, 0);
      assert.equal(newest, 10, 'the calls just made are in the newest point (or the one before, across a boundary)');
      const starts = report.timeline.points.map((p) => Date.parse(p.at));
      assert.ok(
        starts.every((at, i) => i === 0 || at - (starts[i - 1] as number) === 1_800_000),
        'evenly spaced',
      );
      assert.equal((starts[0] as number) % 1_800_000, 0, 'aligned on the bucket');
    });

    it('reads a time range, and answers 400 for a bad one and 404 for an unknown tenant', async () => {
      const empty = await admin.reports.retrieve(tenant, {
        since: '2001-01-01T00:00:00Z',
        until: '2001-01-02T00:00:00Z',
      });
      assert.equal(empty.calls, 0);
      assert.deepEqual(empty.operations, []);
      assert.equal(empty.timeline.points.length, 48);
      assert.ok(empty.timeline.points.every((p) => p.calls === 0 && p.errors === 0));
      const hour = await admin.reports.retrieve(tenant, {
        since: '2001-01-01T00:00:00Z',
        until: '2001-01-01T01:00:00Z',
      });
      assert.equal(hour.timeline.bucket_seconds, 60, 'a minute per point over an hour');
      assert.equal(hour.timeline.points.length, 60);
      assert.equal(hour.timeline.points[0]?.at, '2001-01-01T00:00:00+00:00');
      const fail = async (call: Promise<unknown>, status: number) => {
        const error = await call.catch((e: unknown) => e);
        assert.ok(error instanceof AdminApiError);
        assert.equal(error.status, status);
      };
      await fail(admin.reports.retrieve(tenant, { since: '2030-01-02T00:00:00Z', until: '2030-01-01T00:00:00Z' }), 400);
      await fail(admin.reports.retrieve(tenant, { since: 'last week' }), 400);
      await fail(admin.reports.retrieve('hr:nobody'), 404);
      await fail(admin.request('GET', `/tenants/hr/${hr.creds.client_id}/report?format=pdf`), 400);
    });

    it('atrium report prints it as markdown, or as the API answers it with --json', async () => {
      const md = await atrium(server.env, 'report', '--tenant', tenant);
      assert.equal(md.code, 0, md.stderr);
      assert.match(md.stdout, new RegExp(`^# Integration report: ${tenant}\\n`));
      assert.match(md.stdout, /\| `hr_organizations_retrieve` \| 4 \| 1 \| 25\.0 % \|/);
      assert.match(
        md.stdout,
        /- `hr_webhooks_deliveries_list` is an Atrium extension: the real service has no such operation/,
      );
      assert.match(md.stdout, /- `hr_employeeDocuments_list` is deprecated in the real API/);
      assert.match(md.stdout, /- `hr_organizations_list` was sent `colour`, which it does not take/);
      assert.match(
        md.stdout,
        /- `hr_organizations_list` was sent `per_page` above its maximum, 100: Atrium served 100/,
      );
      const report = json<IntegrationReport>(await atrium(server.env, 'report', '--tenant', tenant, '--json'));
      assert.equal(report.calls, 10);
      const unknown = await atrium(server.env, 'report', '--tenant', 'hr:nobody');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /No tenant hr\/nobody/);
      const bad = await atrium(server.env, 'report', '--tenant', 'payroll:1');
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /must be hr:<client_id> or academy:<acadId>/);
    });
  });
}
