/**
 * The Postman collection of the OpenAPI document (issue 17, item 10), built by `npm run build`
 * (scripts/build-openapi.ts) and served at /docs/postman.json: a v2.1 collection with one request per operation,
 * whose collection script gets the HR token itself. (The linter and openapi-typescript: `npm run lint:openapi`.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type PostmanCollection, requestsOf } from '../../scripts/postman.js';
import { createCredentials, dialects, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, type OpenApiDocument, operations } from '../support/openapi.js';

/** The shape of a Postman collection v2.1 (the parts of schema.getpostman.com's collection.json a tool relies on). */
const POSTMAN_V21 = {
  $defs: {
    keyValue: {
      type: 'object',
      required: ['key'],
      properties: { key: { type: 'string' }, value: { type: 'string' }, disabled: { type: 'boolean' } },
    },
    auth: {
      type: 'object',
      required: ['type'],
      properties: {
        type: {
          enum: [
            'noauth',
            'apikey',
            'awsv4',
            'basic',
            'bearer',
            'digest',
            'edgegrid',
            'hawk',
            'oauth1',
            'oauth2',
            'ntlm',
          ],
        },
      },
      additionalProperties: { type: 'array', items: { $ref: '#/$defs/keyValue' } },
    },
    event: {
      type: 'object',
      required: ['listen', 'script'],
      properties: {
        listen: { enum: ['prerequest', 'test'] },
        script: {
          type: 'object',
          required: ['exec'],
          properties: { type: { const: 'text/javascript' }, exec: { type: 'array', items: { type: 'string' } } },
        },
      },
    },
    request: {
      type: 'object',
      required: ['method', 'url'],
      properties: {
        method: { enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
        url: {
          type: 'object',
          required: ['host', 'path'],
          properties: {
            raw: { type: 'string' },
            host: { type: 'array', items: { type: 'string' } },
            path: { type: 'array', items: { type: 'string' } },
            query: { type: 'array', items: { $ref: '#/$defs/keyValue' } },
            variable: { type: 'array', items: { $ref: '#/$defs/keyValue' } },
          },
        },
        header: { type: 'array', items: { $ref: '#/$defs/keyValue' } },
        auth: { $ref: '#/$defs/auth' },
        body: {
          type: 'object',
          properties: { mode: { enum: ['raw', 'urlencoded', 'formdata', 'file', 'graphql'] } },
        },
      },
    },
    item: {
      type: 'object',
      required: ['name'],
      oneOf: [
        { required: ['item'], properties: { item: { type: 'array', items: { $ref: '#/$defs/item' } } } },
        {
          required: ['request'],
          properties: { request: { $ref: '#/$defs/request' }, response: { type: 'array' } },
        },
      ],
    },
  },
  type: 'object',
  required: ['info', 'item'],
  properties: {
    info: {
      type: 'object',
      required: ['name', 'schema'],
      properties: {
        name: { type: 'string' },
        schema: { const: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      },
    },
    item: { type: 'array', items: { $ref: '#/$defs/item' } },
    auth: { $ref: '#/$defs/auth' },
    event: { type: 'array', items: { $ref: '#/$defs/event' } },
    variable: { type: 'array', items: { $ref: '#/$defs/keyValue' } },
  },
};

describe('Postman collection', () => {
  let server: TestServer;
  let doc: OpenApiDocument;
  before(async () => {
    server = await startServer(dialects()[0] ?? 'sqlite');
    doc = await fetchOpenApi(server.url);
  });
  after(() => server.close());

  describe('the Postman collection at /docs/postman.json', () => {
    let collection: PostmanCollection;
    before(async () => {
      const res = await fetch(`${server.url}/docs/postman.json`);
      assert.equal(res.status, 200, 'built by npm run build (dist/openapi/postman.json)');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      collection = (await res.json()) as PostmanCollection;
    });

    it('is a v2.1 collection with one request per documented operation', () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      const validate = ajv.compile(POSTMAN_V21);
      assert.ok(validate(collection), ajv.errorsText(validate.errors));
      const requests = requestsOf(collection.item).map(
        (item) =>
          `${item.request?.method} /${(item.request?.url.path ?? []).map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')}`,
      );
      const documented = operations(doc, ['hr', 'academy', 'admin']).map((o) => `${o.method} ${o.path}`);
      assert.equal(requests.length, documented.length, 'as many requests as operations (npm run build after a change)');
      assert.deepEqual([...requests].sort(), [...documented].sort());
      const variables = Object.fromEntries((collection.variable ?? []).map((v) => [v.key, v.value]));
      assert.equal(variables.baseUrl, 'http://127.0.0.1:8080');
      for (const key of ['clientId', 'applicationId', 'applicationSecret', 'acadId', 'apiKey']) {
        assert.ok(key in variables, `variable ${key}`);
      }
      assert.deepEqual(collection.auth, {
        type: 'bearer',
        bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }],
      });
    });

    it('its pre-request script gets an HR token from POST /api/v2/client/tokens, which then works', async () => {
      const creds = await createCredentials(server);
      const variables = new Map<string, string>([
        ['baseUrl', server.url],
        ['clientId', creds.client_id],
        ['applicationId', creds.application_id],
        ['applicationSecret', creds.application_secret],
      ]);
      const replaceIn = (text: string) =>
        text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => variables.get(name) ?? '');
      const pending: Promise<void>[] = [];
      // The part of Postman's sandbox the script uses.
      const pm = {
        request: { url: { getPath: () => '/api/v2/client/organizations' } },
        variables: { replaceIn },
        collectionVariables: {
          get: (k: string) => variables.get(k),
          set: (k: string, v: string) => variables.set(k, v),
        },
        sendRequest: (
          request: {
            url: string;
            method: string;
            header: { key: string; value: string }[];
            body: { urlencoded: { key: string; value: string }[] };
          },
          callback: (error: unknown, response: { code: number; json(): unknown; text(): string }) => void,
        ) => {
          pending.push(
            (async () => {
              const res = await fetch(request.url, {
                method: request.method,
                headers: Object.fromEntries(request.header.map((h) => [h.key, h.value])),
                body: new URLSearchParams(request.body.urlencoded.map((f): [string, string] => [f.key, f.value])),
              });
              const text = await res.text();
              callback(null, { code: res.status, json: () => JSON.parse(text), text: () => text });
            })(),
          );
        },
      };
      const event = collection.event?.[0] as { script: { exec: string[] } } | undefined;
      const script = (event?.script.exec ?? []).join('\n');
      assert.match(script, /\/api\/v2\/client\/tokens/);
      new Function('pm', 'console', script)(pm, console);
      await Promise.all(pending);
      assert.equal(pending.length, 1, 'one token request');
      const token = variables.get('accessToken');
      assert.ok(token, 'the script stored the token');
      assert.ok(Number(variables.get('accessTokenExpiresAt')) > Date.now(), 'and when it expires');
      const res = await fetch(`${server.url}/api/v2/client/organizations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(res.status, 200);
      // A fresh token is not fetched again; the token endpoints never fetch one.
      new Function('pm', 'console', script)(pm, console);
      pm.request.url.getPath = () => '/api/v2/client/tokens';
      variables.delete('accessToken');
      new Function('pm', 'console', script)(pm, console);
      assert.equal(pending.length, 1, 'no further token request');
    });

    it('is in one folder per product area; every path variable is a {{…}} variable; every request tests its status', () => {
      assert.deepEqual(
        collection.item.map((f) => f.name),
        [
          'HR API: core',
          'HR API: Document manager',
          'HR API: People Assist',
          'HR API: Processes and tasks',
          'Academy API',
          'Admin API',
        ],
      );
      const variables = new Map((collection.variable ?? []).map((v) => [v.key, v.value]));
      const all = requestsOf(collection.item);
      for (const item of all) {
        const request = item.request as NonNullable<typeof item.request>;
        const name = `${request.method} /${request.url.path?.join('/')}`;
        for (const variable of request.url.variable ?? []) {
          const placeholder = /^\{\{(\w+)\}\}$/.exec(variable.value ?? '')?.[1];
          assert.ok(placeholder, `${name}: ${variable.key} is ${JSON.stringify(variable.value)}`);
          assert.ok(variables.get(placeholder), `${name}: {{${placeholder}}} has an initial value`);
        }
        const tests = (item.event as Array<{ listen: string; script: { exec: string[] } }> | undefined)
          ?.filter((e) => e.listen === 'test')
          .map((e) => e.script.exec.join('\n'))
          .join('\n');
        const expected = /pm\.expect\(pm\.response\.code\)\.to\.be\.oneOf\((\[[0-9, ]+\])\)/.exec(tests ?? '')?.[1];
        assert.ok(expected, `${name}: a status test`);
        const statuses = JSON.parse(expected) as number[];
        assert.ok(statuses.length > 0, `${name}: some status expected`);
      }
      // Lists and creations fill the ids that the requests after them use.
      const employees = all.find(
        (i) => i.request?.method === 'GET' && i.request.url.path?.join('/') === 'api/v2/client/employees',
      );
      assert.match(JSON.stringify(employees?.event), /pm\.collectionVariables\.set/);
      assert.match(JSON.stringify(employees?.event), /employees_id/);
    });

    it('the token request is filled in, and Academy calls carry acadId and the API key', () => {
      const all = requestsOf(collection.item);
      const find = (method: string, url: string) =>
        all.find((i) => i.request?.method === method && `/${i.request.url.path?.join('/')}` === url)?.request;
      const tokens = find('POST', '/api/v2/client/tokens');
      assert.deepEqual(Object.fromEntries((tokens?.body?.urlencoded ?? []).map((f) => [f.key, f.value])), {
        grant_type: 'client_credentials',
        scope: 'client',
        client_id: '{{clientId}}',
      });
      assert.deepEqual(tokens?.auth, {
        type: 'basic',
        basic: [
          { key: 'username', value: '{{applicationId}}', type: 'string' },
          { key: 'password', value: '{{applicationSecret}}', type: 'string' },
        ],
      });
      const events = find('GET', '/v1/events/vc');
      assert.equal(events?.url.query?.find((q) => q.key === 'acadId')?.value, '{{acadId}}');
      assert.match(JSON.stringify(events?.auth), /\{\{apiKey\}\}/);
      // HR calls inherit the collection's bearer token.
      assert.equal(find('GET', '/api/v2/client/organizations')?.auth, undefined);
    });
  });
});
