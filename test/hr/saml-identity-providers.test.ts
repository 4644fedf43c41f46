/**
 * SAML identity providers (reference §5.7, docs/hr-api.md "SAML identity providers"): CRUD, the search filters
 * (`activated`, `entity_id`, `scope` with its fallback to unset scopes), the 409 of a second active provider of one
 * scope or name, PUT's 201 then 200, certificates checked as PEM X.509 (422 naming the field) and stored as sent,
 * another tenant's provider a 404, and the database unchanged by a refused write.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

type Body = Record<string, unknown>;

interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

async function json<T = Body>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A fresh self-signed certificate and its private key, made by openssl. */
function selfSigned(cn: string): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-saml-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '30'].concat([
        '-subj',
        `/CN=${cn}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { cert: CERT, key: KEY } = selfSigned('idp.example.com');
const OTHER_CERT = selfSigned('other-idp.example.com').cert;

const base = (name: string, extra: Body = {}): Body => ({
  name,
  entity_id: `https://${name.toLowerCase().replace(/\W+/g, '-')}.example.com/saml`,
  sso_endpoint: 'https://idp.example.com/sso',
  x509_certificate: CERT,
  ...extra,
});

const PATH = '/saml/identity_providers';

for (const dialect of dialects()) {
  describe(`SAML identity providers (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    const db = () => server.app.database.db;
    /** The client's providers and events as stored, to compare before and after a refused write. */
    const state = async (clientId: string) => ({
      providers: await db()
        .selectFrom('hr_saml_identity_providers')
        .selectAll()
        .where('client_id', '=', clientId)
        .orderBy('pk')
        .execute(),
      events: await db()
        .selectFrom('hr_events')
        .select(['type', 'resource_id'])
        .where('client_id', '=', clientId)
        .orderBy('pk')
        .execute(),
    });
    const create = async (body: Body) => json<Body>(await hr.call('POST', PATH, body), 201);

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
    });
    after(() => server.close());

    it('POST creates (201) with the defaults; GET, HEAD, PATCH, DELETE; one audit event per write', async () => {
      const created = await create(base('Okta'));
      assert.match(created.id as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual(created, {
        id: created.id,
        name: 'Okta',
        entity_id: 'https://okta.example.com/saml',
        sso_endpoint: 'https://idp.example.com/sso',
        x509_certificate: CERT,
        activated: false,
        enable_sp_session: false,
        next_logout_url: 'http://www.people-doc.com/',
        scope: null,
        workflow_type: null,
      });
      const item = `${PATH}/${created.id}`;
      assert.deepEqual(await json(await hr.call('GET', item), 200), created);
      const head = await hr.call('HEAD', item);
      assert.equal(head.status, 200);
      assert.equal(await head.text(), '');
      // The certificate is stored byte for byte (its trailing newline included).
      const row = await db()
        .selectFrom('hr_saml_identity_providers')
        .select(['x509_certificate', 'activated', 'client_id'])
        .where('id', '=', created.id as string)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { x509_certificate: CERT, activated: 0, client_id: hr.creds.client_id });

      const patched = await json<Body>(
        await hr.call('PATCH', item, { activated: true, scope: 'employee', workflow_type: 'SP initiated' }),
        200,
      );
      assert.deepEqual(patched, { ...created, activated: true, scope: 'employee', workflow_type: 'SP initiated' });
      const cleared = await json<Body>(await hr.call('PATCH', item, { scope: null }), 200);
      assert.equal(cleared.scope, null);
      assert.equal(cleared.workflow_type, 'SP initiated');

      assert.equal((await hr.call('DELETE', item)).status, 204);
      assert.equal((await hr.call('HEAD', item)).status, 404);
      const gone = await json<ErrorBody>(await hr.call('GET', item), 404);
      assert.equal(gone.code, 'not_found');
      assert.equal((await hr.call('DELETE', item)).status, 404);
      assert.equal((await hr.call('PATCH', item, { name: 'x' })).status, 404);

      const events = (await state(hr.creds.client_id)).events.filter((e) => e.resource_id === created.id);
      assert.deepEqual(
        events.map((e) => e.type),
        [
          'saml_identity_provider.created',
          'saml_identity_provider.updated',
          'saml_identity_provider.updated',
          'saml_identity_provider.deleted',
        ],
      );
    });

    it('PUT creates at a UUID (201), then replaces every attribute (200); a non-UUID id is 422', async () => {
      const id = randomUUID();
      const body = base('Azure AD', {
        activated: true,
        scope: 'manager',
        enable_sp_session: true,
        next_logout_url: 'https://intranet.example.com/bye',
        workflow_type: 'IdP initiated',
      });
      const created = await json<Body>(await hr.call('PUT', `${PATH}/${id}`, body), 201);
      assert.equal(created.id, id);
      assert.equal(created.next_logout_url, 'https://intranet.example.com/bye');
      // The same PUT again is an update: 200, and the same provider (no 409 against itself).
      assert.deepEqual(await json(await hr.call('PUT', `${PATH}/${id}`, body), 200), created);
      // PUT replaces: what is left out returns to its default.
      const replaced = await json<Body>(
        await hr.call('PUT', `${PATH}/${id.toUpperCase()}`, base('Azure AD', { x509_certificate: OTHER_CERT })),
        200,
      );
      assert.deepEqual(replaced, {
        ...created,
        x509_certificate: OTHER_CERT,
        activated: false,
        scope: null,
        enable_sp_session: false,
        next_logout_url: 'http://www.people-doc.com/',
        workflow_type: null,
      });
      const bad = await json<ErrorBody>(await hr.call('PUT', `${PATH}/abc-123`, base('Bad id')), 422);
      assert.equal(bad.code, 'validation_error');
      assert.deepEqual(
        bad.errors?.map((e) => [e.field, e.code]),
        [['id', 'invalid']],
      );
      assert.equal((await hr.call('DELETE', `${PATH}/${id}`)).status, 204);
    });

    it('409 when an active provider has the same scope or name; inactive ones never conflict', async () => {
      const employees = await create(base('Employees IdP', { activated: true, scope: 'employee' }));
      const before = await state(hr.creds.client_id);
      const conflict = (body: ErrorBody) => {
        assert.deepEqual(Object.keys(body).sort(), ['code', 'message']);
        assert.equal(body.code, 'conflict');
        assert.match(body.message, /^SAML IdP already exists/);
      };
      // Same scope, active: 409 (POST, PUT at a new id, PATCH activating another).
      const second = await json<ErrorBody>(
        await hr.call('POST', PATH, base('Second', { activated: true, scope: 'employee' })),
        409,
      );
      conflict(second);
      // The message names the active rival and what they share.
      assert.equal(
        second.message,
        `SAML IdP already exists: the active provider ${employees.id} has the scope employee.`,
      );
      conflict(
        await json(
          await hr.call('PUT', `${PATH}/${randomUUID()}`, base('Third', { activated: true, scope: 'employee' })),
          409,
        ),
      );
      // Same name, active, another scope: 409.
      conflict(
        await json(await hr.call('POST', PATH, base('Employees IdP', { activated: true, scope: 'manager' })), 409),
      );
      assert.deepEqual(await state(hr.creds.client_id), before, 'a refused write changes nothing');

      // Inactive ones of the same scope and name are fine.
      const inactive = await create(base('Employees IdP', { scope: 'employee' }));
      conflict(await json(await hr.call('PATCH', `${PATH}/${inactive.id}`, { activated: true }), 409));
      // Active of another scope and name: fine; and an unset scope is a scope of its own.
      const managers = await create(base('Managers IdP', { activated: true, scope: 'manager' }));
      const unscoped = await create(base('Everyone IdP', { activated: true }));
      conflict(await json(await hr.call('POST', PATH, base('Everyone 2', { activated: true })), 409));
      // Once the active one is deactivated, the inactive one may be activated.
      await json(await hr.call('PATCH', `${PATH}/${employees.id}`, { activated: false }), 200);
      await json(await hr.call('PATCH', `${PATH}/${inactive.id}`, { activated: true }), 200);
      // Concurrent writes cannot both win (the partial unique indexes): one 201, the others 409.
      const racing = await Promise.all(
        [1, 2, 3].map(async (i) => hr.call('POST', PATH, base(`Racer ${i}`, { activated: true, scope: 'manager' }))),
      );
      assert.deepEqual(racing.map((r) => r.status).sort(), [409, 409, 409], 'Managers IdP holds the scope');
      await json(await hr.call('PATCH', `${PATH}/${managers.id}`, { activated: false }), 200);
      const raced = await Promise.all(
        [1, 2, 3].map(async (i) => hr.call('POST', PATH, base(`Racer ${i}`, { activated: true, scope: 'manager' }))),
      );
      assert.deepEqual(raced.map((r) => r.status).sort(), [201, 409, 409]);
      const winner = await json<Body>(raced.find((r) => r.status === 201) as Response, 201);
      // Another client's active providers are no rivals.
      await json(await other.call('POST', PATH, base('Employees IdP', { activated: true, scope: 'employee' })), 201);
      for (const id of [employees.id, inactive.id, managers.id, unscoped.id, winner.id]) {
        assert.equal((await hr.call('DELETE', `${PATH}/${id}`)).status, 204);
      }
    });

    it('a malformed certificate is 422 naming x509_certificate, and nothing is written', async () => {
      const existing = await create(base('Cert checks'));
      const before = await state(hr.creds.client_id);
      const garbage = '-----BEGIN CERTIFICATE-----\nZ2FyYmFnZSBnYXJiYWdlIGdhcmJhZ2U=\n-----END CERTIFICATE-----\n';
      const body64 = CERT.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
      const cases: [string, string][] = [
        ['not PEM', 'hello, I am a certificate'],
        ['bare base64 without the PEM lines', body64],
        ['a PEM of garbage', garbage],
        ['a private key', KEY],
        ['a certificate with its private key', `${CERT}${KEY}`],
        ['two certificates', `${CERT}${OTHER_CERT}`],
        ['a truncated certificate', CERT.slice(0, CERT.length - 60) + CERT.slice(-26)],
      ];
      for (const [what, pem] of cases) {
        for (const [method, path, payload] of [
          ['POST', PATH, base('Bad cert', { x509_certificate: pem })],
          ['PUT', `${PATH}/${randomUUID()}`, base('Bad cert', { x509_certificate: pem })],
          ['PATCH', `${PATH}/${existing.id}`, { x509_certificate: pem }],
        ] as const) {
          const res = await hr.call(method, path, payload);
          const error = await json<ErrorBody>(res, 422).catch((e: Error) => {
            throw new Error(`${what}, ${method}: ${e.message}`);
          });
          assert.equal(error.code, 'validation_error', what);
          assert.equal(typeof error.message, 'string');
          assert.deepEqual(
            error.errors?.map((e) => [e.field, e.code]),
            [['x509_certificate', 'invalid_certificate']],
            `${what}, ${method}`,
          );
        }
      }
      const key = await json<ErrorBody>(await hr.call('POST', PATH, base('Key', { x509_certificate: KEY })), 422);
      assert.match(key.errors?.[0]?.message ?? '', /private key/);
      // URLs and enums too.
      const urls = await json<ErrorBody>(
        await hr.call('POST', PATH, base('URLs', { sso_endpoint: 'ftp://idp', next_logout_url: 'nowhere' })),
        422,
      );
      assert.deepEqual(
        urls.errors?.map((e) => [e.field, e.code]),
        [
          ['sso_endpoint', 'invalid_url'],
          ['next_logout_url', 'invalid_url'],
        ],
      );
      const scope = await json<ErrorBody>(await hr.call('POST', PATH, base('Scope', { scope: 'admin' })), 422);
      assert.equal(scope.errors?.[0]?.field, 'scope');
      const missing = await json<ErrorBody>(await hr.call('POST', PATH, { name: 'Nothing else' }), 422);
      assert.deepEqual(missing.errors?.map((e) => e.field).sort(), ['entity_id', 'sso_endpoint', 'x509_certificate']);
      assert.deepEqual(await state(hr.creds.client_id), before, 'refused writes change nothing');
      // Surrounding white space is allowed, and kept as sent.
      const padded = await create(base('Padded', { x509_certificate: `\n  ${CERT}\n` }));
      assert.equal(padded.x509_certificate, `\n  ${CERT}\n`);
      for (const id of [existing.id, padded.id]) assert.equal((await hr.call('DELETE', `${PATH}/${id}`)).status, 204);
    });

    it('search: activated, entity_id, scope (any case; unset scopes when none matches), in pages', async () => {
      const list = async (query: string, caller = hr) =>
        (await json<Body[]>(await caller.call('GET', `${PATH}${query}`), 200)).map((p) => p.name);
      const a = await create(base('A', { activated: true, scope: 'employee', entity_id: 'urn:a' }));
      const b = await create(base('B', { scope: 'employee', entity_id: 'urn:b' }));
      const c = await create(base('C', { scope: null, entity_id: 'urn:b' }));
      assert.deepEqual(await list(''), ['A', 'B', 'C']);
      assert.deepEqual(await list('?activated=true'), ['A']);
      assert.deepEqual(await list('?activated=false'), ['B', 'C']);
      assert.deepEqual(await list('?entity_id=urn:b'), ['B', 'C']);
      assert.deepEqual(await list('?entity_id=urn:nothing'), []);
      assert.deepEqual(await list('?scope=EMPLOYEE'), ['A', 'B']);
      // No manager provider: the fallback is the providers without a scope.
      assert.deepEqual(await list('?scope=Manager'), ['C']);
      // The scope is matched among the providers the other filters keep: B; none of them, and no fallback either.
      assert.deepEqual(await list('?scope=employee&entity_id=urn:b'), ['B']);
      assert.deepEqual(await list('?scope=employee&activated=false&entity_id=urn:nothing'), []);
      const badScope = await json<ErrorBody>(await hr.call('GET', `${PATH}?scope=admin`), 422);
      assert.deepEqual(
        badScope.errors?.map((e) => e.field),
        ['scope'],
      );
      // Pages: Next-Cursor leads to the rest.
      const first = await hr.call('GET', `${PATH}?per_page=2`);
      assert.deepEqual(
        (await json<Body[]>(first, 200)).map((p) => p.name),
        ['A', 'B'],
      );
      const cursor = first.headers.get('next-cursor');
      assert.ok(cursor, 'a next cursor');
      assert.deepEqual(await list(`?per_page=2&cursor=${cursor}`), ['C']);
      // Another client sees none of them.
      assert.deepEqual(await list('?entity_id=urn:b', other), []);
      for (const p of [a, b, c]) assert.equal((await hr.call('DELETE', `${PATH}/${p.id}`)).status, 204);
    });

    it("another client's provider is a 404 to every call, and stays as it was", async () => {
      const mine = await create(base('Mine', { activated: true, scope: 'manager' }));
      const item = `${PATH}/${mine.id}`;
      const before = await state(hr.creds.client_id);
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'Stolen' }],
        ['DELETE', undefined],
      ] as const) {
        const error = await json<ErrorBody>(await other.call(method, item, body), 404);
        assert.equal(error.code, 'not_found', method);
      }
      assert.equal((await other.call('HEAD', item)).status, 404);
      assert.deepEqual(await state(hr.creds.client_id), before);
      assert.equal((await hr.call('DELETE', item)).status, 204);
    });
  });
}
