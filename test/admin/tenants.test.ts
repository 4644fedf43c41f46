import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, expectJson } from '../support/admin.js';
import {
  type Credentials,
  dialects,
  getToken,
  requestToken,
  startServer,
  type TestServer,
} from '../support/harness.js';

interface Tenant {
  kind: 'hr' | 'academy';
  id: string;
  name: string;
  created_at: string;
  applications?: { application_id: string; name: string; read_only: boolean; revoked_at: string | null }[];
  keys?: { key_id: number; state: string }[];
}

interface Failure {
  code: string;
  message: string;
  errors?: { field: string }[];
}

/** The admin audit log's newest entries, straight from the table. */
async function auditRows(server: TestServer, since: number) {
  const rows = await server.app.services.adminAudit.list(50);
  return rows.filter((r) => r.seq > since).reverse();
}

for (const dialect of dialects()) {
  describe(`admin API: making tenants and their credentials (${dialect})`, () => {
    let server: TestServer;
    let token: string;
    let tokenId: string;

    const admin = adminCaller(
      () => server,
      () => token,
    );
    const json = expectJson;
    const lastSeq = async () => (await server.app.services.adminAudit.list(1))[0]?.seq ?? 0;
    const academyCall = (acadId: string, apikey: string) =>
      fetch(`${server.url}/v1/events/ilt?acadId=${acadId}&apikey=${encodeURIComponent(apikey)}`);

    before(async () => {
      server = await startServer(dialect);
      const made = await server.app.services.adminTokens.create('tenants tests', 'cli');
      token = made.token;
      tokenId = made.token_id;
    });
    after(() => server.close());

    it('creates an HR client and an application whose credentials get tokens at once; the secret is never listed', async () => {
      const since = await lastSeq();
      const res = await admin('POST', '/tenants/hr', { name: 'Made over the admin API' });
      const { tenant: client } = await json<{ tenant: Tenant }>(res, 201);
      assert.equal(client.kind, 'hr');
      assert.equal(client.name, 'Made over the admin API');
      assert.deepEqual(client.applications, []);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);

      const made = await json<Credentials & { name: string; read_only: boolean }>(
        await admin('POST', `/tenants/hr/${client.id}/applications`, { name: 'sync' }),
        201,
      );
      assert.equal(made.client_id, client.id);
      assert.equal(made.name, 'sync');
      assert.equal(made.read_only, false);
      assert.ok(made.application_secret.length >= 32, 'a long random secret');
      const bearer = await getToken(server, made);
      const employees = await fetch(`${server.url}/api/v2/client/employees`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      assert.equal(employees.status, 200, 'the new application calls the HR API');

      const listed = await admin('GET', '/tenants');
      const text = await listed.text();
      assert.equal(listed.status, 200);
      assert.ok(!text.includes(made.application_secret), 'no listing shows the secret');
      const again = (JSON.parse(text) as { tenants: Tenant[] }).tenants.find((t) => t.id === client.id);
      assert.deepEqual(
        again?.applications?.map((a) => [a.application_id, a.name, a.read_only, a.revoked_at]),
        [[made.application_id, 'sync', false, null]],
      );
      // Stored as a hash only.
      const stored = await server.app.database.db
        .selectFrom('hr_applications')
        .select('secret_hash')
        .where('id', '=', made.application_id)
        .executeTakeFirstOrThrow();
      assert.notEqual(stored.secret_hash, made.application_secret);
      assert.ok(!stored.secret_hash.includes(made.application_secret));

      const audit = await auditRows(server, since);
      assert.deepEqual(
        audit.map((a) => [a.action, a.target, a.actor]),
        [
          ['tenant.created', `hr:${client.id}`, `token ${tokenId} (tenants tests)`],
          ['application.created', `hr:${client.id}`, `token ${tokenId} (tenants tests)`],
        ],
      );
      assert.ok(!JSON.stringify(audit).includes(made.application_secret), 'the audit log has no secret');
    });

    it('makes a read-only application that may only read (403 on a write)', async () => {
      const client = (await json<{ tenant: Tenant }>(await admin('POST', '/tenants/hr', { name: 'Read-only' }), 201))
        .tenant;
      const made = await json<Credentials & { read_only: boolean }>(
        await admin('POST', `/tenants/hr/${client.id}/applications`, { name: 'bi', read_only: true }),
        201,
      );
      assert.equal(made.read_only, true);
      const bearer = await getToken(server, made);
      const write = await fetch(`${server.url}/api/v2/client/employees/e1`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'A', last_name: 'B', email: 'a@example.com' }),
      });
      assert.equal(write.status, 403);
      assert.equal(((await write.json()) as Failure).code, 'insufficient_scope');
    });

    it("revokes an application: no new token, its tokens refused; another client's application is not found", async () => {
      const client = (await json<{ tenant: Tenant }>(await admin('POST', '/tenants/hr', { name: 'Revocations' }), 201))
        .tenant;
      const other = (await json<{ tenant: Tenant }>(await admin('POST', '/tenants/hr', { name: 'Another' }), 201))
        .tenant;
      const made = await json<Credentials>(
        await admin('POST', `/tenants/hr/${client.id}/applications`, { name: 'to revoke' }),
        201,
      );
      const bearer = await getToken(server, made);

      const foreign = await admin('DELETE', `/tenants/hr/${other.id}/applications/${made.application_id}`);
      assert.equal((await json<Failure>(foreign, 404)).code, 'not_found');
      assert.equal((await requestToken(server, made)).status, 200, 'a refused revocation changed nothing');
      assert.equal(
        (await json<Failure>(await admin('DELETE', `/tenants/hr/${client.id}/applications/nope`), 404)).code,
        'not_found',
      );

      const since = await lastSeq();
      const res = await admin('DELETE', `/tenants/hr/${client.id}/applications/${made.application_id}`);
      assert.equal(res.status, 204);
      assert.equal(await res.text(), '');
      assert.equal((await requestToken(server, made)).status, 401, 'no new token');
      const refused = await fetch(`${server.url}/api/v2/client/employees`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      assert.equal(refused.status, 401, 'its token is refused');
      const row = await server.app.database.db
        .selectFrom('hr_applications')
        .select('revoked_at')
        .where('id', '=', made.application_id)
        .executeTakeFirstOrThrow();
      assert.notEqual(row.revoked_at, null);
      assert.equal((await admin('DELETE', `/tenants/hr/${client.id}/applications/${made.application_id}`)).status, 204);
      const audit = await auditRows(server, since);
      assert.deepEqual(
        audit.map((a) => [a.action, a.target, a.detail]),
        [
          ['application.revoked', `hr:${client.id}`, { application_id: made.application_id }],
          ['application.revoked', `hr:${client.id}`, { application_id: made.application_id }],
        ],
      );
    });

    it('creates an academy with its key, and rotates it: the new key works, the old one through its grace', async () => {
      const since = await lastSeq();
      const made = await json<{ tenant: Tenant; apikey: string; super_admin_id: number }>(
        await admin('POST', '/tenants/academy', { name: 'Academy over the admin API' }),
        201,
      );
      assert.equal(made.tenant.kind, 'academy');
      assert.equal(made.tenant.name, 'Academy over the admin API');
      assert.equal(made.tenant.keys?.length, 1);
      assert.equal(made.tenant.keys?.[0]?.state, 'current');
      assert.ok(Number.isInteger(made.super_admin_id));
      assert.equal((await academyCall(made.tenant.id, made.apikey)).status, 200, 'the key calls the Academy API');

      const rotated = await json<{ apikey: string; previous_keys_expire_at: string }>(
        await admin('POST', `/tenants/academy/${made.tenant.id}/keys`),
        201,
      );
      assert.notEqual(rotated.apikey, made.apikey);
      assert.ok(Date.parse(rotated.previous_keys_expire_at) > Date.now(), 'a grace period');
      assert.equal((await academyCall(made.tenant.id, rotated.apikey)).status, 200, 'the new key');
      assert.equal((await academyCall(made.tenant.id, made.apikey)).status, 200, 'the old key, in its grace');
      const tenant = await json<Tenant>(await admin('GET', `/tenants/academy/${made.tenant.id}`), 200);
      assert.deepEqual(tenant.keys?.map((k) => k.state).sort(), ['current', 'grace']);
      const text = JSON.stringify(tenant);
      assert.ok(!text.includes(made.apikey) && !text.includes(rotated.apikey), 'no key is ever listed');

      const audit = await auditRows(server, since);
      assert.deepEqual(
        audit.map((a) => [a.action, a.target]),
        [
          ['tenant.created', `academy:${made.tenant.id}`],
          ['academy.key_rotated', `academy:${made.tenant.id}`],
        ],
      );
      assert.ok(!JSON.stringify(audit).includes(rotated.apikey));
    });

    it('refuses bad bodies (422, 400), unknown tenants (404) and other credentials (401), writing nothing', async () => {
      const count = async () => {
        const { tenants } = await json<{ tenants: Tenant[] }>(await admin('GET', '/tenants'), 200);
        return tenants.length;
      };
      const before = await count();
      const since = await lastSeq();
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'ok', extra: 1 }, 'extra'],
        [{ name: 7 }, 'name'],
      ] as const) {
        for (const kind of ['hr', 'academy']) {
          const failure = await json<Failure>(await admin('POST', `/tenants/${kind}`, body), 422);
          assert.equal(failure.code, 'validation_error', JSON.stringify(body));
          assert.ok(
            failure.errors?.some((e) => e.field.includes(field)),
            `${kind} ${JSON.stringify(body)}: ${JSON.stringify(failure.errors)}`,
          );
        }
      }
      assert.equal((await json<Failure>(await admin('POST', '/tenants/hr', '{"name":'), 400)).code, 'invalid_request');
      assert.equal((await json<Failure>(await admin('POST', '/tenants/hr', '[1]'), 400)).code, 'invalid_request');

      const client = (await json<{ tenant: Tenant }>(await admin('POST', '/tenants/hr', { name: 'For 4xx' }), 201))
        .tenant;
      const appFailure = await json<Failure>(
        await admin('POST', `/tenants/hr/${client.id}/applications`, { name: 'x', read_only: 'yes' }),
        422,
      );
      assert.ok(appFailure.errors?.some((e) => e.field.includes('read_only')));
      assert.equal(
        (await json<Failure>(await admin('POST', '/tenants/hr/no-such-client/applications', { name: 'x' }), 404)).code,
        'not_found',
      );
      assert.equal((await json<Failure>(await admin('POST', '/tenants/academy/999999/keys'), 404)).code, 'not_found');
      assert.equal((await json<Failure>(await admin('POST', '/tenants/academy/abc/keys'), 404)).code, 'not_found');
      assert.equal(
        (await json<Failure>(await admin('POST', '/tenants/academy', { name: 'x' }, 'atrium_admin_nope'), 401)).code,
        'invalid_token',
      );
      assert.equal(await count(), before + 1, 'only the client made for this test');
      const audit = await auditRows(server, since);
      assert.deepEqual(
        audit.map((a) => a.action),
        ['tenant.created'],
      );
    });
  });
}
