/**
 * Nothing secret appears in logs, and secrets are stored only as hashes. A server logging at debug level is
 * used with every kind of secret, in every way a client may send it (application secret, access tokens in the
 * header, the access_token header and query, revocation bodies; Academy keys in the query, `apikey[]` and the
 * X-API-Key header; write-only saml_token fields; wrong secrets too); then the captured log and every row of
 * every table are searched for each of them.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { basic, dialects, getToken, hrCaller, startServer, type TestServer } from '../support/harness.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** The forms a secret could take in a log line or a row. */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
}

async function everyRow(server: TestServer): Promise<string> {
  const database = server.app.database;
  const names =
    database.dialect === 'postgres'
      ? (
          await sql<{
            name: string;
          }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(database.db)
        ).rows
      : (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(database.db)
        ).rows;
  const parts: string[] = [];
  for (const { name } of names) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(database.db);
    parts.push(`${name}: ${JSON.stringify(rows, (_k, v) => (Buffer.isBuffer(v) ? v.toString('latin1') : v))}`);
  }
  return parts.join('\n');
}

for (const dialect of dialects()) {
  describe(`secrets stay secret (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { LOG_LEVEL: 'debug' });
    });
    after(() => server.close());

    it('no secret in the logs of a debug-level server, and only hashes at rest', async () => {
      const hr = await hrCaller(server);
      const secrets: Record<string, string> = {
        application_secret: hr.creds.application_secret,
        access_token: hr.token,
      };
      const url = (p: string) => `${server.url}/api/v2/client${p}`;
      // The access token every way a client may send it.
      await fetch(url('/organizations'), { headers: { authorization: `Bearer ${hr.token}` } });
      await fetch(url('/organizations'), { headers: { access_token: hr.token } });
      await fetch(url(`/organizations?access_token=${hr.token}&per_page=5`));
      await fetch(url(`/organizations?ACCESS_TOKEN=${hr.token}`));
      // A second token, revoked through the form body.
      const second = await getToken(server, hr.creds);
      secrets.revoked_token = second;
      const revoke = await fetch(url('/revoke_token'), {
        method: 'POST',
        headers: { authorization: basic(hr.creds), 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${second}`,
      });
      assert.equal(revoke.status, 200);
      await fetch(url('/organizations'), { headers: { authorization: `Bearer ${second}` } });
      // Wrong secrets are secrets too (a mistyped real one).
      const wrong = `${hr.creds.application_secret.slice(0, -4)}WRNG`;
      secrets.wrong_secret = wrong;
      await fetch(url('/tokens'), {
        method: 'POST',
        headers: { authorization: basic({ ...hr.creds, application_secret: wrong }) },
        body: 'grant_type=client_credentials',
      });
      // Write-only SSO tokens.
      const samlUser = `saml-user-${randomBytes(12).toString('hex')}`;
      const samlEmployee = `saml-employee-${randomBytes(12).toString('hex')}`;
      secrets.saml_user = samlUser;
      secrets.saml_employee = samlEmployee;
      await hr.call('PUT', '/organizations/hq', { name: 'HQ' });
      const user = await hr.call('POST', '/users', {
        firstname: 'Sam',
        lastname: 'L',
        email: `sam-${randomBytes(3).toString('hex')}@example.com`,
        saml_token: samlUser,
      });
      assert.equal(user.status, 201);
      const userBody = await user.text();
      assert.ok(!userBody.includes(samlUser), 'saml_token is never returned');
      const employee = await hr.call('POST', '/employees', {
        firstname: 'Emma',
        lastname: 'P',
        email: 'emma@example.com',
        saml_token: samlEmployee,
        registration_references: [{ organization_id: 'hq', employee_number: 'E1' }],
      });
      assert.equal(employee.status, 201);
      assert.ok(!(await employee.text()).includes(samlEmployee), 'saml_token is never returned');

      // Academy keys: created, rotated, in the query, as apikey[], in the header, and a wrong one.
      const academies = server.app.services.academies;
      const created = await academies.create('Secret academy');
      const rotated = await academies.rotateKey(created.acadId);
      secrets.apikey = created.apikey;
      secrets.rotated_apikey = rotated.apikey;
      const v1 = (p: string, init?: RequestInit) => fetch(`${server.url}/v1${p}`, init);
      assert.equal((await v1(`/users?acadId=${created.acadId}&apikey=${created.apikey}`)).status, 200);
      assert.equal((await v1(`/users?acadId=${created.acadId}&apikey[]=${rotated.apikey}`)).status, 200);
      assert.equal(
        (
          await v1(`/users?acadId=${created.acadId}&APIKEY=${rotated.apikey}`, {
            headers: { 'x-api-key': rotated.apikey },
          })
        ).status,
        200,
      );
      const wrongKey = `${created.apikey.slice(0, -4)}WRNG`;
      secrets.wrong_apikey = wrongKey;
      assert.equal((await v1(`/users?acadId=${created.acadId}&apikey=${wrongKey}`)).status, 401);
      assert.equal(
        (await v1(`/events/ilt?acadId=${created.acadId}`, { headers: { 'x-api-key': wrongKey } })).status,
        401,
      );

      // The server's own secrets: signing keys and the cursor MAC secret.
      // They are stored sealed by the master key: the secrets are what the rows open to.
      const box = server.app.services.secretBox;
      const keys = await server.app.database.db.selectFrom('signing_keys').select(['kid', 'secret']).execute();
      keys.forEach((k, i) => {
        secrets[`signing_key_${i}`] = box.open(`signing_key:${k.kid}`, k.secret);
      });
      const cursor = await server.app.database.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'cursor_secret')
        .executeTakeFirstOrThrow();
      secrets.cursor_secret = box.open('setting:cursor_secret', cursor.value);

      // Everything above was logged (one line per request at least) and nothing of it is secret.
      const log = server.logs.join('');
      assert.ok(server.logs.length >= 12, `${server.logs.length} log lines captured`);
      assert.match(
        log,
        /"url":"\/api\/v2\/client\/organizations\?per_page=5"/,
        'the token is stripped from a logged URL',
      );
      for (const [name, secret] of Object.entries(secrets)) {
        for (const form of forms(secret)) assert.ok(!log.includes(form), `${name} appears in the log`);
      }
      const basicHeader = basic(hr.creds).slice('Basic '.length);
      assert.ok(!log.includes(basicHeader), 'the Basic credentials appear in the log');

      // At rest: hashes only, and the reversible secrets (signing keys, cursor secret) sealed (docs/security.md).
      const rows = await everyRow(server);
      for (const name of [
        ...keys.map((_, i) => `signing_key_${i}`),
        'cursor_secret',
        'application_secret',
        'apikey',
        'rotated_apikey',
        'saml_user',
        'saml_employee',
        'access_token',
      ]) {
        const secret = secrets[name] as string;
        for (const form of forms(secret)) assert.ok(!rows.includes(form), `${name} is stored in clear`);
      }
      for (const name of ['application_secret', 'apikey', 'rotated_apikey', 'saml_user', 'saml_employee']) {
        assert.ok(rows.includes(sha256(secrets[name] as string)), `${name} is stored as its SHA-256`);
      }
    });
  });
}
