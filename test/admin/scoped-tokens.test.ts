/**
 * Operator tokens scoped to tenants (docs/admin.md, "Tokens scoped to tenants"): walking every operation of the admin
 * API's OpenAPI document, a token limited to one HR client and one academy is refused every other tenant's route as
 * not found (and that tenant is left as it was), and every route of no tenant but the listing and the session; it
 * reaches its own tenants. A read-only token is refused every change. The listing is filtered; the console's session
 * carries the scope; the admin audit log names it; `atrium admin create-token --tenant` checks the tenants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { atrium } from '../support/cli.js';
import { dialects, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, type Operation, operations } from '../support/openapi.js';

interface ErrorBody {
  code?: string;
  message?: string;
}

for (const dialect of dialects()) {
  describe(`operator tokens scoped to tenants (${dialect})`, () => {
    let server: TestServer;
    let ops: Operation[];
    let full = '';
    let scoped = '';
    let readOnly = '';
    let mine = { hr: '', academy: '' };
    let other = { hr: '', academy: '' };

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      const services = server.app.services;
      full = (await services.adminTokens.create('full', 'cli')).token;
      mine = { hr: (await hrCaller(server)).creds.client_id, academy: '' };
      other = { hr: (await hrCaller(server)).creds.client_id, academy: '' };
      const call = (path: string, body: unknown) =>
        fetch(`${server.url}/admin/v1${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${full}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ tenant: { id: string } }>);
      mine.academy = (await call('/tenants/academy', { name: 'Mine' })).tenant.id;
      other.academy = (await call('/tenants/academy', { name: 'Other' })).tenant.id;
      const tenants = [`hr/${mine.hr}`, `academy/${mine.academy}`];
      scoped = (await services.adminTokens.create('partner', 'cli', { tenants, readOnly: false })).token;
      readOnly = (await services.adminTokens.create('viewer', 'cli', { tenants, readOnly: true })).token;
      ops = operations(await fetchOpenApi(server.url), ['admin']);
    });
    after(() => server.close());

    /** The operation's path with its tenant and placeholders for any other parameter. */
    const pathOf = (op: Operation, tenant: { hr: string; academy: string }, kind: 'hr' | 'academy') =>
      op.path
        .replace('/tenants/hr/{id}', `/tenants/hr/${tenant.hr}`)
        .replace('/tenants/academy/{id}', `/tenants/academy/${tenant.academy}`)
        .replace('{kind}/{id}', `${kind}/${kind === 'hr' ? tenant.hr : tenant.academy}`)
        .replace(/\{[a-z_]+\}/g, 'x1');

    const send = async (token: string, op: Operation, path: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method: op.method.toUpperCase(),
        headers: {
          authorization: `Bearer ${token}`,
          ...(op.body.length > 0 ? { 'content-type': 'application/json' } : {}),
        },
        ...(op.body.length > 0 ? { body: '{}' } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : {}) as ErrorBody };
    };

    const tenantRoutes = () => ops.filter((op) => /\/tenants\/(hr|academy|\{kind\})\/\{id\}/.test(op.path));
    const kindsOf = (op: Operation): ('hr' | 'academy')[] =>
      op.path.includes('/tenants/hr/')
        ? ['hr']
        : op.path.includes('/tenants/academy/')
          ? ['academy']
          : ['hr', 'academy'];

    it('walks every route of another tenant: not found, as an unknown tenant, and nothing changes', async () => {
      const routes = tenantRoutes();
      assert.ok(routes.length >= 30, `${routes.length} routes of a tenant`);
      const before = await auditCount();
      for (const op of routes) {
        for (const kind of kindsOf(op)) {
          const path = pathOf(op, other, kind);
          // The tail is a stream: its refusal comes before it opens.
          const { status, body } = await send(scoped, op, path);
          const id = kind === 'hr' ? other.hr : other.academy;
          assert.equal(status, 404, `${op.method} ${path}: ${status} ${JSON.stringify(body)}`);
          assert.equal(body.message, `No tenant ${kind}/${id}.`, `${op.method} ${path}`);
        }
      }
      assert.equal(await auditCount(), before, 'no admin action was taken');
    });

    it('reaches its own tenants on every route (no refusal for its scope)', async () => {
      for (const op of tenantRoutes()) {
        for (const kind of kindsOf(op)) {
          if (op.path.endsWith('/requests/tail')) continue;
          const path = pathOf(op, mine, kind);
          const { status, body } = await send(scoped, op, path);
          assert.ok(
            !(status === 404 && body.message?.startsWith('No tenant')) && status !== 403 && status !== 401,
            `${op.method} ${path}: ${status} ${JSON.stringify(body)}`,
          );
        }
      }
    });

    it('is refused the routes of no tenant but the listing and the session (403 outside_scope)', async () => {
      const global = ops.filter((op) => !/\/tenants\/(hr|academy|\{kind\})\/\{id\}/.test(op.path));
      assert.ok(global.some((op) => op.path === '/admin/v1/tenants/hr' && op.method.toLowerCase() === 'post'));
      for (const op of global) {
        const { status, body } = await send(scoped, op, op.path);
        const allowed =
          op.path.endsWith('/session') || (op.path === '/admin/v1/tenants' && op.method.toLowerCase() === 'get');
        if (allowed) assert.notEqual(body.code, 'outside_scope', `${op.method} ${op.path}`);
        else assert.deepEqual([status, body.code], [403, 'outside_scope'], `${op.method} ${op.path}`);
      }
      const listed = await fetch(`${server.url}/admin/v1/tenants`, { headers: { authorization: `Bearer ${scoped}` } });
      const ids = ((await listed.json()) as { tenants: { kind: string; id: string }[] }).tenants.map(
        (t) => `${t.kind}/${t.id}`,
      );
      assert.deepEqual(ids.sort(), [`academy/${mine.academy}`, `hr/${mine.hr}`].sort());
    });

    it('read-only: every change is 403 read_only_token; reads, verification and a view pass are not', async () => {
      for (const op of tenantRoutes()) {
        for (const kind of kindsOf(op)) {
          if (op.path.endsWith('/requests/tail')) continue;
          const path = pathOf(op, mine, kind);
          const { status, body } = await send(readOnly, op, path);
          const reads =
            op.method.toLowerCase() === 'get' || op.path.endsWith('/requests/verify') || op.path.endsWith('/view_pass');
          if (reads) assert.notEqual(body.code, 'read_only_token', `${op.method} ${path}`);
          else assert.deepEqual([status, body.code], [403, 'read_only_token'], `${op.method} ${path}`);
        }
      }
    });

    it('a console session opened with a scoped token carries its scope', async () => {
      const signIn = await fetch(`${server.url}/admin/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: scoped }),
      });
      assert.equal(signIn.status, 201, await signIn.clone().text());
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const listed = await fetch(`${server.url}/admin/v1/tenants`, { headers: { cookie } });
      assert.equal(((await listed.json()) as { tenants: unknown[] }).tenants.length, 2);
      const refused = await fetch(`${server.url}/admin/v1/tenants/hr/${other.hr}`, { headers: { cookie } });
      assert.equal(refused.status, 404);
    });

    it('the admin audit log names the scope of the token that acted', async () => {
      const res = await fetch(`${server.url}/admin/v1/tenants/hr/${mine.hr}/clock/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${scoped}`, 'content-type': 'application/json' },
        body: JSON.stringify({ seconds: 60 }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      const [last] = await server.app.services.adminAudit.list(1);
      assert.match(last?.actor ?? '', new RegExp(`\\(partner; tenants hr/${mine.hr}, academy/${mine.academy}\\)$`));
    });

    it('atrium admin create-token --tenant checks each tenant, and lists the scope', async () => {
      const bad = await atrium(server.env, 'admin', 'create-token', '--name', 'x', '--tenant', 'hr/nobody');
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /--tenant hr\/nobody: no such tenant/);
      const malformed = await atrium(server.env, 'admin', 'create-token', '--name', 'x', '--tenant', 'payroll/1');
      assert.notEqual(malformed.code, 0);
      assert.match(malformed.stderr, /hr\/CLIENT_ID or academy\/ACAD_ID/);
      const made = await atrium(
        server.env,
        'admin',
        'create-token',
        '--name',
        'ci',
        '--tenant',
        `hr/${mine.hr}`,
        '--read-only',
        '--json',
      );
      assert.equal(made.code, 0, made.stderr);
      const token = JSON.parse(made.stdout) as { tenants: string[]; read_only: boolean; token: string };
      assert.deepEqual([token.tenants, token.read_only], [[`hr/${mine.hr}`], true]);
      const refused = await fetch(`${server.url}/admin/v1/tenants/academy/${mine.academy}`, {
        headers: { authorization: `Bearer ${token.token}` },
      });
      assert.equal(refused.status, 404);
    });

    async function auditCount(): Promise<number> {
      return (await server.app.services.adminAudit.list(1000)).length;
    }
  });
}
