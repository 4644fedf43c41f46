import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller, type Detail, eventBody } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: { default?: unknown; anyOf?: { enum?: string[]; const?: string }[] };
}

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  responses: Record<string, unknown>;
}

interface Prop {
  description?: string;
  items?: { properties?: Record<string, Prop> };
  properties?: Record<string, Prop>;
}

interface OpenApi {
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, Record<string, string>>;
    schemas: Record<string, { properties: Record<string, Prop> }>;
  };
}

const ACADEMY_SECURITY = [{ academyApiKey: [] }, { academyApiKeyHeader: [] }];

// The document does not depend on the database: one dialect is enough.
const dialect = dialects()[0] ?? 'sqlite';

describe(`academy OpenAPI document (${dialect})`, () => {
  let server: TestServer;
  let a: AcademyCaller;
  let doc: OpenApi;
  before(async () => {
    server = await startServer(dialect);
    a = await academyCaller(server);
    const res = await fetch(`${server.url}/openapi.json`);
    assert.equal(res.status, 200);
    doc = (await res.json()) as OpenApi;
  });
  after(() => server.close());

  const operations = (prefix: string): [string, Operation][] =>
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith(prefix))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]): [string, Operation] => [`${method} ${path}`, op]),
      );

  it('every /v1 operation uses the academy API-key schemes, not the HR bearer token, and requires acadId', () => {
    assert.deepEqual(doc.components.securitySchemes.academyApiKey, {
      type: 'apiKey',
      in: 'query',
      name: 'apikey',
      description: doc.components.securitySchemes.academyApiKey?.description,
    });
    assert.equal(doc.components.securitySchemes.academyApiKeyHeader?.type, 'apiKey');
    assert.equal(doc.components.securitySchemes.academyApiKeyHeader?.in, 'header');
    assert.equal(doc.components.securitySchemes.academyApiKeyHeader?.name, 'X-API-Key');
    const v1 = operations('/v1/');
    assert.ok(v1.length >= 30, `all /v1 operations are listed (${v1.length})`);
    for (const [name, op] of v1) {
      assert.deepEqual(op.security, ACADEMY_SECURITY, name);
      const acadId = op.parameters?.find((p) => p.name === 'acadId');
      assert.ok(acadId, `${name} documents acadId`);
      assert.equal(acadId.in, 'query', name);
      assert.equal(acadId.required, true, name);
      assert.ok(op.responses['429'], `${name} documents the 429 of the rate limit`);
    }
    const list = doc.paths['/v1/events/ilt']?.get;
    assert.deepEqual(list?.security, ACADEMY_SECURITY);
    // The HR API keeps its bearer token: the document's default, not overridden on its operations.
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    const hr = operations('/api/v2/client/').filter(([name]) => !name.includes('/tokens'));
    assert.ok(hr.length > 0, 'HR operations are listed');
    for (const [name, op] of hr) {
      assert.equal(JSON.stringify(op.security ?? []).includes('academyApiKey'), false, name);
    }
  });

  it('validation still takes the real parameters and ignores unknown ones', async () => {
    const ev = await a.json<Detail>('POST', '/events/vc', eventBody('vc'));
    assert.equal((await a.call('GET', `/events/vc/${ev.id}?foo=1&eventId=2`)).status, 200);
    assert.equal((await a.call('GET', '/content/timezones?foo=1')).status, 200);
    const header = await fetch(`${server.url}/v1/events/vc/${ev.id}?acadId=${a.acadId}`, {
      headers: { 'X-API-Key': a.apikey },
    });
    assert.equal(header.status, 200);
  });

  it("carries the spec's field notes: state flags, counters, in-class sessions, the list status values", () => {
    const detail = doc.components.schemas.AcademyEventDetail?.properties ?? {};
    for (const flag of [
      'visible',
      'active',
      'archived',
      'deleted',
      'canceled',
      'upcoming',
      'inProgress',
      'completed',
    ]) {
      assert.match(detail[flag]?.description ?? '', /^State flag/, `detail ${flag}`);
    }
    for (const counter of ['attendeesYes', 'attendeesPending', 'registered', 'cancelled', 'waitlisted']) {
      assert.match(detail[counter]?.description ?? '', /^Counter/, `detail ${counter}`);
    }
    const item = doc.components.schemas.AcademyEventListItem?.properties ?? {};
    for (const counter of [
      'attendees_yes',
      'attendees_pending',
      'registered',
      'completed',
      'absent',
      'cancelled',
      'waitlisted',
    ]) {
      assert.match(item[counter]?.description ?? '', /^Counter/, `list item ${counter}`);
    }
    const session = detail.sessions?.items?.properties ?? {};
    assert.match(session.topic?.description ?? '', /In-class sessions/);
    assert.match(session.segments?.description ?? '', /In-class sessions only/);
    const status = doc.paths['/v1/events/vc']?.get?.parameters?.find((p) => p.name === 'status');
    assert.ok(status, 'the list documents status');
    assert.match(status.description ?? '', /`active`.*default.*`archived`.*`canceled`/);
    assert.equal(status.schema.default, 'active');
  });

  it("lists Spazz's GET /users/{eventid}/events as an Atrium extension", () => {
    const op = doc.paths['/v1/users/{eventid}/events']?.get;
    assert.ok(op, 'documented');
    assert.deepEqual(op.tags, ['Atrium extensions']);
    const userIds = op.parameters?.find((p) => p.name === 'userIds');
    assert.ok(userIds, 'userIds documented');
    assert.equal(userIds.required, true);
    assert.match(userIds.description ?? '', /userIds\[\]/);
  });
});
