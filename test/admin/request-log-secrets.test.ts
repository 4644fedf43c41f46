/**
 * The request log holds no secret (docs/admin.md, "Request log"; docs/security.md, "Redaction"): it is fed every
 * secret of test/reliability/secrets.test.ts, each way a client sends it (Basic and Bearer, the access_token header
 * and query, a form's `token`, write-only `saml_token`s, Academy keys in the query, `apikey[]` and `X-API-Key`,
 * wrong ones too), plus credentials forwarded in `X-Forwarded-Authorization`, `X-Auth-Token` and
 * `X-Amz-Security-Token`, a secret nested deep in a JSON body, a webhook's `signature_key` (`POST /webhooks` and
 * `refresh_signature_key` answers) and a signer's link (in `GET /signers/{id}` and the outbox's invitation). None of
 * them is in the stored rows, the SSE tail, the console's "Copy as curl", or (SQLite) a backup. The rule is
 * platform/security/redact.ts, the one the pino logs use.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AdminClient } from '@atrium/client';
import { toCurl } from '../../console/src/curl.js';
import { Sqlite } from '../../src/platform/db/database.js';
import { type AcademyCaller, academyCaller } from '../support/academy.js';
import { expectJson as json } from '../support/admin.js';
import { atrium } from '../support/cli.js';
import {
  basic,
  dialects,
  getToken,
  type HrCaller,
  hrCaller,
  startServer,
  type TestServer,
} from '../support/harness.js';
import { startedSigner } from '../support/signing.js';

/** The forms a secret could take in a row: as sent, URL-encoded, base64. */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
}

const fresh = (what: string) => `${what}-${randomBytes(12).toString('hex')}`;

/** Fails naming each secret found in `text`. */
function assertNone(text: string, secrets: Record<string, string>, where: string): void {
  const found = Object.entries(secrets)
    .filter(([, secret]) => forms(secret).some((form) => text.includes(form)))
    .map(([name]) => name);
  assert.deepEqual(found, [], `secrets in ${where}`);
}

for (const dialect of dialects()) {
  describe(`request log: no secret in rows, tail, curl or backup (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let academy: AcademyCaller;
    let admin: AdminClient;
    let adminToken: string;
    const secrets: Record<string, string> = {};
    const url = (p: string) => `${server.url}/api/v2/client${p}`;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      academy = await academyCaller(server);
      const { token } = await server.app.services.adminTokens.create('secrets', 'cli');
      adminToken = token;
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
    });
    after(() => server.close());

    /** The calls of test/reliability/secrets.test.ts, on the HR and Academy APIs. */
    async function callWithEverySecret(): Promise<void> {
      secrets.application_secret = hr.creds.application_secret;
      secrets.access_token = hr.token;
      secrets.basic = basic(hr.creds).slice('Basic '.length);
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'client',
        client_id: hr.creds.client_id,
        client_secret: hr.creds.application_secret,
      });
      const tokens = await fetch(url('/tokens'), {
        method: 'POST',
        headers: { authorization: basic(hr.creds), 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      secrets.new_token = (
        (await json<{ access_token: string }>(tokens, 200)) as { access_token: string }
      ).access_token;
      await fetch(url('/organizations'), { headers: { access_token: hr.token } });
      await fetch(url(`/organizations?access_token=${hr.token}&per_page=5`));
      await fetch(url(`/organizations?ACCESS_TOKEN=${hr.token}`));
      const second = await getToken(server, hr.creds);
      secrets.revoked_token = second;
      const revoke = await fetch(url('/revoke_token'), {
        method: 'POST',
        headers: { authorization: basic(hr.creds), 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${second}`,
      });
      assert.equal(revoke.status, 200);
      secrets.wrong_secret = `${hr.creds.application_secret.slice(0, -4)}WRNG`;
      await fetch(url('/tokens'), {
        method: 'POST',
        headers: { authorization: basic({ ...hr.creds, application_secret: secrets.wrong_secret }) },
        body: 'grant_type=client_credentials',
      });
      secrets.saml_user = fresh('saml-user');
      secrets.saml_employee = fresh('saml-employee');
      await hr.call('PUT', '/organizations/hq', { name: 'HQ' });
      const user = await hr.call('POST', '/users', {
        firstname: 'Sam',
        lastname: 'L',
        email: `sam-${randomBytes(3).toString('hex')}@example.com`,
        saml_token: secrets.saml_user,
      });
      assert.equal(user.status, 201);
      const employee = await hr.call('POST', '/employees', {
        firstname: 'Emma',
        lastname: 'P',
        email: 'emma@example.com',
        saml_token: secrets.saml_employee,
        registration_references: [{ organization_id: 'hq', employee_number: 'E1' }],
      });
      assert.equal(employee.status, 201);
      // Forwarded credentials, and a secret nested in a body (a member the API ignores, logged as sent).
      secrets.forwarded_authorization = fresh('fwd');
      secrets.auth_token = fresh('xauth');
      secrets.amz_security_token = fresh('amz');
      secrets.nested = fresh('nested');
      const forwarded = await hr.call(
        'PUT',
        '/organizations/fwd',
        { name: 'Fwd', meta: [{ deep: { client_password: secrets.nested } }] },
        {
          'X-Forwarded-Authorization': `Bearer ${secrets.forwarded_authorization}`,
          'X-Auth-Token': secrets.auth_token,
          'X-Amz-Security-Token': secrets.amz_security_token,
        },
      );
      assert.equal(forwarded.status, 201);
      // Academy keys: in the query, as apikey[], APIKEY, the X-API-Key header, and a wrong one.
      const rotated = await server.app.services.academies.rotateKey(academy.acadId);
      secrets.apikey = academy.apikey;
      secrets.rotated_apikey = rotated.apikey;
      const v1 = (p: string, init?: RequestInit) => fetch(`${server.url}/v1${p}`, init);
      assert.equal((await v1(`/users?acadId=${academy.acadId}&apikey=${academy.apikey}`)).status, 200);
      assert.equal((await v1(`/users?acadId=${academy.acadId}&apikey[]=${rotated.apikey}`)).status, 200);
      const headed = await v1(`/users?acadId=${academy.acadId}&APIKEY=${rotated.apikey}`, {
        headers: { 'x-api-key': rotated.apikey },
      });
      assert.equal(headed.status, 200);
      secrets.wrong_apikey = `${academy.apikey.slice(0, -4)}WRNG`;
      await v1(`/events/ilt?acadId=${academy.acadId}`, { headers: { 'x-api-key': secrets.wrong_apikey } });
    }

    /** A webhook's key, as created and as refreshed. */
    async function webhookKeys(): Promise<void> {
      const made = await json<{ id: string; signature_key: string }>(
        await hr.call('POST', '/webhooks', {
          name: 'hook',
          callback_url: 'https://hooks.example.com/atrium',
          events: ['*'],
          is_active: false,
        }),
        201,
      );
      secrets.signature_key = made.signature_key;
      await hr.call('GET', `/webhooks/${made.id}`);
      const refreshed = await json<{ signature_key: string }>(
        await hr.call('POST', `/webhooks/${made.id}/refresh_signature_key`),
        200,
      );
      secrets.refreshed_signature_key = refreshed.signature_key;
      await hr.call('GET', '/webhooks');
    }

    /** A signer's link: in the signer's answer and in the outbox's invitation. */
    async function signerLink(): Promise<void> {
      const link = (await startedSigner(server, hr)).signingUrl;
      secrets.signing_link = link.slice(link.lastIndexOf('/') + 1);
      const mails = await json<{ kind: string; body: string }[]>(await hr.call('GET', '/outbox?per_page=100'), 200);
      assert.ok(
        mails.some((m) => m.kind === 'signature.invitation' && m.body.includes(secrets.signing_link as string)),
        'the outbox answer carries the link',
      );
    }

    /** The raw text of the SSE tail from the first call on, until the call `last` arrives. */
    async function tailText(tenant: string, last: number): Promise<string> {
      const [kind, id] = tenant.split(':') as [string, string];
      const controller = new AbortController();
      const res = await fetch(`${server.url}/admin/v1/tenants/${kind}/${id}/requests/tail?after=0`, {
        headers: { authorization: `Bearer ${adminToken}` },
        signal: controller.signal,
      });
      assert.equal(res.status, 200);
      const decoder = new TextDecoder();
      let text = '';
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if (text.includes(`id: ${last}\n`)) break;
      }
      controller.abort();
      return text;
    }

    it('none of them in the stored rows, the SSE tail, "Copy as curl" or a backup', async () => {
      await callWithEverySecret();
      await webhookKeys();
      await signerLink();
      const log = server.app.services.requestLog;
      await log.flush();
      assert.equal(Object.keys(secrets).length, 18);

      const db = server.app.services.requestLogJournal.db();
      const rows = await db.selectFrom('request_log').selectAll().orderBy('seq').execute();
      const stored = JSON.stringify(rows);
      assertNone(stored, secrets, 'the stored rows');
      // Logged, redacted: the forwarded headers, the key answers, the outbox answer.
      assert.match(stored, /x-forwarded-authorization\\":\\"Bearer \[REDACTED\]/);
      assert.match(stored, /x-amz-security-token\\":\\"\[REDACTED\]/);
      assert.match(stored, /signature_key\\":\\"\[REDACTED\]/);
      assert.match(stored, /signing\/\[REDACTED\]/);

      const hrTenant = `hr:${hr.creds.client_id}`;
      const academyTenant = `academy:${academy.acadId}`;
      for (const tenant of [hrTenant, academyTenant]) {
        const calls = await admin.requests.list(tenant, { limit: 200 }).toArray();
        assert.ok(calls.length >= 3, `${tenant}: ${calls.length} calls`);
        const newest = calls[0]?.seq as number;
        assertNone(await tailText(tenant, newest), secrets, `the tail of ${tenant}`);
        const curls = calls.map((c) => toCurl(c, server.url)).join('\n');
        assertNone(curls, secrets, `"Copy as curl" of ${tenant}`);
        assert.match(curls, tenant === hrTenant ? /Bearer <access_token>/ : /x-api-key: <x-api-key>/);
      }

      if (dialect === 'sqlite') {
        const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-log-backup-'));
        try {
          const out = path.join(work, 'backup');
          const backup = await atrium(server.env, 'backup', '--out', out, '--json');
          assert.equal(backup.code, 0, backup.stderr);
          // The log is its own file in the backup, as in the data directory.
          const copy = new Sqlite(path.join(out, 'request-log.sqlite'), { readonly: true });
          const logged = JSON.stringify(copy.prepare('select * from request_log order by seq').all());
          copy.close();
          assert.equal(logged, stored, 'the backup holds the log as it is');
          assertNone(fs.readFileSync(path.join(out, 'request-log.sqlite')).toString('latin1'), secrets, 'its file');
          // The database's whole file too, but the signer's link: the outbox keeps its mails as sent (tenant data).
          const bytes = fs.readFileSync(path.join(out, 'atrium.sqlite')).toString('latin1');
          const { signing_link: _, ...others } = secrets;
          assertNone(bytes, others, 'the backup');
        } finally {
          fs.rmSync(work, { recursive: true, force: true });
        }
      }
    });
  });
}
