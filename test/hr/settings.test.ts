/**
 * `GET /client`, `GET /settings/…` and `POST /platform_updates` (reference §5.1), and the admin API's hand on them
 * (`/admin/v1/tenants/hr/{id}/settings`, `…/config_updates`): defaults, an operator's change, a staged update the
 * client applies once, the checks that refuse a change whole, and another client's update being "not found".
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AdminApiError, AdminClient, HrClient } from '@atrium/client';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { pdf } from '../support/pdf.js';
import { upload } from '../support/people-assist.js';

type Obj = Record<string, unknown>;

async function body(res: Response, status: number): Promise<Obj> {
  const text = await res.text();
  assert.equal(res.status, status, `${res.url}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Obj;
}

for (const dialect of dialects()) {
  describe(`client, settings and platform updates (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let admin: AdminClient;
    let tenant: string;
    let sdk: HrClient;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      const { token } = await server.app.services.adminTokens.create('settings', 'cli');
      admin = new AdminClient({ baseUrl: server.url, token, maxRetries: 0 });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      tenant = `hr:${hr.creds.client_id}`;
      sdk = new HrClient({
        baseUrl: server.url,
        clientId: hr.creds.client_id,
        applicationId: hr.creds.application_id,
        applicationSecret: hr.creds.application_secret,
        maxRetries: 0,
      });
    });
    after(() => server.close());

    it('GET /client answers the client platform with its defaults', async () => {
      const res = await hr.call('GET', '/client');
      const client = await body(res, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(client.id, hr.creds.client_id);
      assert.equal(client.tenant_id, hr.creds.client_id);
      assert.equal(typeof client.name, 'string');
      assert.ok((client.name as string).length <= 50);
      assert.equal(client.title, 'HR Service Portal');
      assert.deepEqual(client.available_languages, ['en-us', 'fr-fr']);
      assert.equal(client.default_language, 'en-us');
      assert.deepEqual(client.employee_available_languages, ['en-us', 'fr-fr']);
      assert.equal(client.timezone, 'UTC');
      assert.deepEqual(client.installed_modules, ['core', 'employee_file_management', 'electronic_signature']);
      assert.match(client.created_at as string, /^\d{4}-\d{2}-\d{2}T/);
      assert.equal(client.updated_at, client.created_at, 'never changed: updated when created');
      assert.deepEqual(await sdk.platform.client(), client);
    });

    it('each settings section answers every field of its reference schema, with the module urls', async () => {
      const core = await body(await hr.call('GET', '/settings/core'), 200);
      assert.deepEqual(core, {
        enable_us_formats: false,
        available_languages: ['en-us', 'fr-fr'],
        default_language: 'en-us',
        allow_external_id_update: true,
        authorize_access_outside_sso: false,
        allow_password_reset: true,
        password_options: { number_passwords_remembered: 5, max_changes_per_day: 3 },
        store_authn_id: null,
      });
      const base = `${server.url}/api/v2/client`;
      assert.deepEqual(await body(await hr.call('GET', '/settings/process_automation'), 200), {
        enabled: true,
        new_hire_experience: true,
        url: `${base}/processes`,
      });
      const kb = await body(await hr.call('GET', '/settings/knowledge_base'), 200);
      assert.equal(kb.url, `${base}/kb_articles`);
      assert.equal(kb.display_employee_search_by_scope, false);
      const cm = await body(await hr.call('GET', '/settings/case_management'), 200);
      assert.equal(cm.enabled, true);
      assert.equal(cm.url, `${base}/requests`);
      assert.equal(cm.allow_teams, false);
      assert.deepEqual(await sdk.platform.settings.caseManagement(), cm);
    });

    it('an operator switches case management off: the client sees it, and the audit trail has it', async () => {
      const all = await admin.settings.update(tenant, { case_management: { enabled: false, allow_teams: true } });
      assert.equal(all.case_management.enabled, false);
      assert.equal(all.case_management.allow_teams, true);
      assert.equal(all.case_management.employee_can_reopen_request, true, 'a field not sent keeps its value');
      const cm = await body(await hr.call('GET', '/settings/case_management'), 200);
      assert.equal(cm.enabled, false);
      assert.equal(cm.allow_teams, true);
      // Another client keeps its own settings.
      assert.equal((await body(await other.call('GET', '/settings/case_management'), 200)).enabled, true);
      // A second change keeps the first.
      await admin.settings.update(tenant, { client: { timezone: 'Europe/Paris' } });
      assert.equal((await body(await hr.call('GET', '/settings/case_management'), 200)).enabled, false);
      const client = await body(await hr.call('GET', '/client'), 200);
      assert.equal(client.timezone, 'Europe/Paris');
      assert.notEqual(client.updated_at, undefined);
      const events = (await body(await hr.call('GET', '/events?type=settings.updated'), 200)) as unknown as Obj[];
      assert.ok(Array.isArray(events), JSON.stringify(events));
      assert.equal(events.length, 2, JSON.stringify(events));
    });

    it('a change that breaks a rule is a 422 naming the field, and changes nothing', async () => {
      const before = await admin.settings.retrieve(tenant);
      for (const [changes, field] of [
        [{ client: { timezone: 'Mars/Olympus' } }, 'client.timezone'],
        [{ core: { default_language: 'de-de' } }, 'core.default_language'],
        [{ core: { available_languages: ['de-de'] } }, 'core.default_language'],
        [{ client: { installed_modules: ['electronic_signature'] } }, 'client.installed_modules'],
      ] as const) {
        await assert.rejects(admin.settings.update(tenant, changes as never), (e: unknown) => {
          assert.ok(e instanceof AdminApiError);
          assert.equal(e.status, 422);
          assert.ok(JSON.stringify(e.errors).includes(field), `${field} in ${JSON.stringify(e.errors)}`);
          return true;
        });
      }
      for (const changes of [{ nope: {} }, { core: { enable_us_formats: 'yes' } }, { core: { unknown: 1 } }]) {
        await assert.rejects(admin.settings.update(tenant, changes as never), (e: unknown) => {
          assert.ok(e instanceof AdminApiError);
          assert.equal(e.status, 422, JSON.stringify(changes));
          assert.equal(e.code, 'validation_error');
          return true;
        });
      }
      assert.deepEqual(await admin.settings.retrieve(tenant), before);
    });

    it('a staged configuration update is applied once by POST /platform_updates (204), then 409', async () => {
      const staged = await admin.settings.stageUpdate(tenant, { knowledge_base: { enabled: false } });
      assert.equal(staged.applied_at, null);
      assert.equal((await body(await hr.call('GET', '/settings/knowledge_base'), 200)).enabled, true, 'not yet');
      // Another client cannot apply it: not found.
      const foreign = await body(await other.call('POST', '/platform_updates', { config_update_id: staged.id }), 404);
      assert.equal(foreign.code, 'not_found');
      assert.equal((await body(await hr.call('GET', '/settings/knowledge_base'), 200)).enabled, true);

      const res = await hr.call('POST', '/platform_updates', { config_update_id: staged.id });
      assert.equal(res.status, 204);
      assert.equal(await res.text(), '');
      assert.equal((await body(await hr.call('GET', '/settings/knowledge_base'), 200)).enabled, false);
      const applied = await admin.settings.retrieveUpdate(tenant, staged.id);
      assert.match(applied.applied_at ?? '', /^\d{4}-\d{2}-\d{2}T/);

      const again = await body(await hr.call('POST', '/platform_updates', { config_update_id: staged.id }), 409);
      assert.equal(again.code, 'conflict');
      const unknown = await body(await hr.call('POST', '/platform_updates', { config_update_id: 'nope' }), 404);
      assert.equal(unknown.code, 'not_found');
      const bad = await body(await hr.call('POST', '/platform_updates', {}), 422);
      assert.ok(JSON.stringify(bad).includes('config_update_id'), JSON.stringify(bad));
      // Through the SDK as well.
      const second = await admin.settings.stageUpdate(tenant, { knowledge_base: { enabled: true } });
      await sdk.platform.applyUpdate({ config_update_id: second.id });
      assert.equal((await sdk.platform.settings.knowledgeBase()).enabled, true);
    });

    it('an update that no longer fits when applied is a 422 and stays pending', async () => {
      const staged = await admin.settings.stageUpdate(tenant, { core: { default_language: 'fr-fr' } });
      await admin.settings.update(tenant, { core: { available_languages: ['en-us'], default_language: 'en-us' } });
      const refused = await body(await hr.call('POST', '/platform_updates', { config_update_id: staged.id }), 422);
      assert.ok(JSON.stringify(refused).includes('core.default_language'), JSON.stringify(refused));
      assert.equal((await admin.settings.retrieveUpdate(tenant, staged.id)).applied_at, null);
      assert.equal((await body(await hr.call('GET', '/settings/core'), 200)).default_language, 'en-us');
    });

    it('the admin routes refuse an academy and an unknown client', async () => {
      await assert.rejects(admin.settings.retrieve('hr:00000000-0000-4000-8000-000000000000'), (e: unknown) => {
        assert.ok(e instanceof AdminApiError);
        assert.equal(e.status, 404);
        return true;
      });
      await assert.rejects(admin.settings.retrieveUpdate(tenant, 'nope'), (e: unknown) => {
        assert.ok(e instanceof AdminApiError);
        assert.equal(e.status, 404);
        return true;
      });
    });
  });
}

describe('ATRIUM_PUBLIC_URL: the only base of the absolute URLs Atrium writes', () => {
  let server: TestServer;
  let hr: HrCaller;

  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite', { ATRIUM_PUBLIC_URL: 'https://hr.example.test/atrium/' });
    hr = await hrCaller(server);
  });
  after(() => server.close());

  it('makes the settings urls and redirection_urls from it, whatever Host the request names', async () => {
    const spoofed = { host: 'evil.example' };
    const cm = await body(await hr.call('GET', '/settings/case_management', undefined, spoofed), 200);
    assert.equal(cm.url, 'https://hr.example.test/atrium/api/v2/client/requests');
    const urls = await body(await hr.call('GET', '/redirection_urls', undefined, spoofed), 200);
    assert.ok(JSON.stringify(urls).includes('https://hr.example.test/atrium/api/v2/client'), JSON.stringify(urls));
    assert.ok(!JSON.stringify(urls).includes('evil.example'), JSON.stringify(urls));
  });

  it('makes a signer’s signing_url and the invitation mail’s link from it, whatever Host the request names', async () => {
    const spoofed = { host: 'evil.example' };
    const signing = await body(
      await hr.call(
        'POST',
        '/signature_processes',
        {
          signature_type_id: 'docusign',
          title: 'Contract',
          reason: 'Hiring',
          upload_id: await upload(server, hr, await pdf(1), 'contract.pdf'),
        },
        spoofed,
      ),
      201,
    );
    const signer = await body(
      await hr.call(
        'POST',
        '/signers',
        {
          signature_process_id: signing.id,
          first_name: 'Ada',
          last_name: 'Lovelace',
          email_address: 'ada@example.com',
        },
        spoofed,
      ),
      201,
    );
    await body(await hr.call('PATCH', `/signature_processes/${signing.id}`, { state: 'signing' }, spoofed), 200);
    const url = (await body(await hr.call('GET', `/signers/${signer.id}`, undefined, spoofed), 200)).signing_url;
    assert.match(String(url), /^https:\/\/hr\.example\.test\/atrium\/api\/v2\/client\/signing\/[^/]+$/);
    const mails = await body(await hr.call('GET', `/outbox?related_id=${signer.id}`, undefined, spoofed), 200);
    const text = JSON.stringify(mails);
    assert.ok(text.includes('https://hr.example.test/atrium/api/v2/client/signing/'), text);
    assert.ok(!text.includes('evil.example'), text);
  });

  it('refuses a value that is not an absolute http(s) URL', async () => {
    const { ConfigError, loadConfig } = await import('../../src/platform/config.js');
    for (const value of [
      'hr.example.test',
      'ftp://x.test',
      'https://x.test/?a=1',
      'https://u:p@x.test',
      'https://x.test/#f',
    ]) {
      assert.throws(() => loadConfig({ ATRIUM_PUBLIC_URL: value }), ConfigError, value);
    }
    assert.equal(loadConfig({ ATRIUM_PUBLIC_URL: 'http://a.test:8080/' }).publicUrl, 'http://a.test:8080');
    assert.equal(loadConfig({}).publicUrl, undefined);
  });
});
