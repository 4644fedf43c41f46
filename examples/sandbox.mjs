/**
 * Testing an integration with Atrium's sandbox controls (README, "Testing your integration with Atrium"): a
 * fresh tenant and its credentials, its clock, a fault, the request log and the integration report, through
 * `AdminClient`.
 *
 *   npm run build && node examples/sandbox.mjs
 */
import { AdminClient, HrClient, HrServerError } from '@atrium/client';
import { startAtrium } from './server.mjs';

const server = await startAtrium();
try {
  // An operator token: printed once by the CLI, kept as a hash by Atrium.
  const { token } = server.atrium('admin', 'create-token', '--name', 'integration tests');
  const admin = new AdminClient({ baseUrl: server.baseUrl, token });

  // A fresh HR client for this run, and an application of it (its secret is in this answer only).
  const { tenant: made } = await admin.tenants.createHr('Acme');
  const client_id = made.id;
  const tenant = `hr:${client_id}`;
  const app = await admin.tenants.createApplication(tenant, { name: 'Integration tests' });
  console.log('tenant:', made.kind, made.name, `(${app.application_secret.length}-character secret)`);
  // A snapshot of the empty tenant, to go back to after the run.
  await admin.snapshots.create(tenant, 'baseline');
  const hrClient = (options = {}) =>
    new HrClient({
      baseUrl: server.baseUrl,
      applicationId: app.application_id,
      applicationSecret: app.application_secret,
      clientId: client_id,
      ...options,
    });

  // The clock: this tenant's time stands at the first of February 2031; others keep the real time.
  await admin.clock.set(tenant, { now: '2031-02-01T09:00:00+00:00', frozen: true });
  const hr = hrClient();
  const acme = await hr.organizations.upsert('acme', { name: 'Acme' });
  console.log('created at:', acme.created_at);
  const later = await admin.clock.advance(tenant, { days: 31 });
  console.log('clock:', later.now, later.frozen ? '(frozen)' : '');

  // A fault: the next organizations list answers 503. A client that retries gets through; one that does not, fails.
  await admin.faults.create(tenant, {
    match: { operation_id: 'hr_organizations_list' },
    effect: { type: 'status', status: 503, retry_after_seconds: 0 },
    remaining_count: 1,
  });
  const noRetry = await hrClient({ maxRetries: 0 })
    .organizations.list()
    .toArray()
    .catch((error) => error);
  console.log('without retries:', noRetry instanceof HrServerError ? `${noRetry.status} ${noRetry.code}` : 'ok');
  await admin.faults.create(tenant, {
    match: { operation_id: 'hr_organizations_list' },
    effect: { type: 'status', status: 503, retry_after_seconds: 0 },
    remaining_count: 1,
  });
  const retried = await hrClient({ maxRetries: 2 }).organizations.list().toArray();
  console.log('with retries:', retried.map((o) => o.id).join(', '));

  // The request log: what the client sent, secrets redacted. It is written once a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const calls = [];
  for await (const call of admin.requests.list(tenant, { limit: 10 })) calls.push(call);
  const faulted = calls.filter((c) => c.fault_id !== null).length;
  console.log(
    `request log: ${calls.length} calls, ${faulted} faulted, authorization ${calls[0]?.request.headers.authorization}`,
  );

  // The integration report: each operation called, and what would not work on the real service.
  const report = await admin.reports.retrieve(tenant, { since: '2026-01-01T00:00:00Z' });
  const list = report.operations.find((o) => o.operation_id === 'hr_organizations_list');
  console.log(`report: ${report.calls} calls; organizations list ${list?.calls} calls, ${list?.errors} errors`);

  // Back to the baseline: the organization made above is gone, the credentials still work.
  await admin.snapshots.restore(tenant, 'baseline');
  await admin.clock.reset(tenant);
  const after = await hrClient().organizations.list().toArray();
  console.log('after restore:', after.length, 'organizations');
  console.log('done');
} finally {
  await server.stop();
}
