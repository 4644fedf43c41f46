import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCredentials, dialects, getToken, hrCaller, startServer, type TestServer } from '../support/harness.js';

for (const dialect of dialects()) {
  describe(`operational endpoints (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('GET /healthz and /readyz', async () => {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ok', database: dialect });
    });

    it('GET /openapi.json is OpenAPI 3.1 and documents every route, explicit HEADs included', async () => {
      const res = await fetch(`${server.url}/openapi.json`);
      assert.equal(res.status, 200);
      const doc = (await res.json()) as {
        openapi: string;
        paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>>;
        components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
      };
      assert.equal(doc.openapi, '3.1.0');
      const all = Object.entries(doc.paths).flatMap(([p, v]) => Object.keys(v).map((m) => `${m.toUpperCase()} ${p}`));
      const ops = all.filter((o) => o.includes('/api/v2/client'));
      for (const kind of ['ilt', 'vc']) {
        for (const op of [
          `GET /v1/events/${kind}`,
          `POST /v1/events/${kind}`,
          `GET /v1/events/${kind}/{eventid}`,
          `PUT /v1/events/${kind}/{eventid}`,
          `DELETE /v1/events/${kind}/{eventid}`,
          `GET /v1/events/${kind}/{eventid}/offers`,
          `GET /v1/events/${kind}/{eventid}/users`,
          `GET /v1/events/${kind}/{eventid}/users-attendance-data`,
          `GET /v1/events/${kind}/{eventid}/usersAttendanceData`,
          `PUT /v1/events/${kind}/{eventid}/convertToBundle`,
          `PUT /v1/events/${kind}/{eventid}/addOffers`,
          `GET /v1/events/${kind}/{eventid}/addOffers`,
        ]) {
          assert.ok(all.includes(op), op);
        }
      }
      const create = doc.paths['/v1/events/ilt']?.post as unknown as {
        requestBody: {
          content: { 'application/json': { schema: { properties: Record<string, { description?: string }> } } };
        };
      };
      const props = create.requestBody.content['application/json'].schema.properties;
      assert.match(props.registrationDeadline?.description ?? '', /Hours before the event/);
      assert.match(props.venueSeats?.description ?? '', /required with venue/);
      const extensions = Object.values(doc.paths)
        .flatMap((v) => Object.values(v) as unknown as { tags?: string[] }[])
        .filter((o) => o.tags?.includes('Atrium extensions'));
      assert.equal(extensions.length, 8, 'register, update registration, cancel and calendar, for both kinds');
      assert.ok(doc.components.schemas.AcademyEventDetail);
      assert.deepEqual(ops.sort(), [
        'GET /api/v2/client/custom_fields',
        'GET /api/v2/client/custom_fields/{id}',
        'GET /api/v2/client/employees',
        'GET /api/v2/client/employees/{id}',
        'GET /api/v2/client/organization_groups',
        'GET /api/v2/client/organization_groups/{id}',
        'GET /api/v2/client/organizations',
        'GET /api/v2/client/organizations/{id}',
        'GET /api/v2/client/roles',
        'GET /api/v2/client/roles/{id}',
        'GET /api/v2/client/roles/{role_id}/permissions/audit',
        'GET /api/v2/client/roles/{role_id}/permissions/core',
        'GET /api/v2/client/roles/{role_id}/permissions/efm',
        'GET /api/v2/client/roles/{role_id}/permissions/webhook',
        'GET /api/v2/client/users',
        'GET /api/v2/client/users/{id}',
        'HEAD /api/v2/client/organizations',
        'HEAD /api/v2/client/users',
        'PATCH /api/v2/client/custom_fields/{id}',
        'PATCH /api/v2/client/employees/{id}',
        'PATCH /api/v2/client/organization_groups/{id}',
        'PATCH /api/v2/client/organizations/{id}',
        'PATCH /api/v2/client/users/{id}',
        'POST /api/v2/client/document',
        'POST /api/v2/client/employees',
        'POST /api/v2/client/employees/search',
        'POST /api/v2/client/revoke_token',
        'POST /api/v2/client/tokens',
        'POST /api/v2/client/uploads',
        'POST /api/v2/client/users',
        'PUT /api/v2/client/custom_fields/{id}',
        'PUT /api/v2/client/employees/by_external_id/{external_id}',
        'PUT /api/v2/client/employees/{id}',
        'PUT /api/v2/client/organization_groups/{id}',
        'PUT /api/v2/client/organizations/{id}',
        'PUT /api/v2/client/roles/{id}',
        'PUT /api/v2/client/roles/{role_id}/permissions/audit',
        'PUT /api/v2/client/roles/{role_id}/permissions/core',
        'PUT /api/v2/client/roles/{role_id}/permissions/efm',
        'PUT /api/v2/client/roles/{role_id}/permissions/webhook',
        'PUT /api/v2/client/users/{id}',
      ]);
      const list = doc.paths['/api/v2/client/organizations']?.get;
      assert.deepEqual(list?.parameters?.map((p) => p.name).sort(), [
        'child_organization_id',
        'cursor',
        'organization_group_id',
        'parent_organization_id',
        'per_page',
        'q',
        'recursive',
      ]);
      assert.ok(doc.components.schemas.OrganizationFull);
      assert.ok(doc.components.schemas.HrError);
      assert.ok(doc.components.securitySchemes.bearerAuth);
      assert.ok(doc.paths['/api/v2/client/organizations/{id}']?.put?.responses['201']);
      assert.ok(doc.paths['/api/v2/client/organizations/{id}']?.put?.responses['422']);
    });

    it('GET /docs serves the reference page and its assets from the installed packages', async () => {
      const page = await fetch(`${server.url}/docs`);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /swagger-ui/);
      assert.doesNotMatch(html, /(src|href)="https?:/, 'no asset comes from another host');
      for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-initializer.js']) {
        const res = await fetch(`${server.url}/docs/static/${asset}`);
        assert.equal(res.status, 200, asset);
        assert.ok((await res.arrayBuffer()).byteLength > 100);
      }
    });

    it('the Academy API has no CORS by default and answers unknown paths with a JSON 404', async () => {
      const res = await fetch(`${server.url}/v1/nothing`, { headers: { origin: 'https://app.example' } });
      assert.equal(res.status, 404);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      const body = (await res.json()) as { status: number; message: string };
      assert.equal(body.status, 404);
    });

    it('logs one JSON line per request with credentials redacted or stripped', async () => {
      const creds = await createCredentials(server);
      const token = await getToken(server, creds);
      const secretKey = 'academy-key-that-must-not-leak';
      await fetch(`${server.url}/api/v2/client/organizations?access_token=${token}&per_page=3`);
      await fetch(`${server.url}/v1/events/ilt?apikey=${secretKey}&acadId=7`, { headers: { 'x-api-key': secretKey } });
      await fetch(`${server.url}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${token}` } });
      await fetch(`${server.url}/api/v2/client/organizations`, { headers: { access_token: token } });
      const text = server.logs.join('');
      for (const secret of [token, creds.application_secret, secretKey, token.split('.')[2] as string]) {
        assert.ok(!text.includes(secret), 'a secret reached the logs');
      }
      const lines = server.logs.map(
        (l) => JSON.parse(l) as { msg: string; req?: { url: string; headers?: Record<string, string> } },
      );
      const urls = lines.filter((l) => l.msg === 'request completed').map((l) => l.req?.url);
      assert.ok(urls.includes('/api/v2/client/organizations?per_page=3'));
      assert.ok(urls.includes('/v1/events/ilt?acadId=7'));
      const withAuth = lines.find((l) => l.req?.headers?.authorization);
      assert.equal(withAuth?.req?.headers?.authorization, '[redacted]');
    });
  });
}

describe('CORS on /v1 when configured', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', { ATRIUM_CORS_ORIGINS: 'https://app.example' });
  });
  after(() => server.close());

  it('allows the configured origin on /v1 and still none on /api/v2/client', async () => {
    const v1 = await fetch(`${server.url}/v1/anything`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(v1.headers.get('access-control-allow-origin'), 'https://app.example');
    const hr = await hrCaller(server);
    const res = await hr.call('GET', '/organizations', undefined, { origin: 'https://app.example' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});
