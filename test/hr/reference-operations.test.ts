/**
 * Every operation of the reference's path table is served (issue 48): each is called over HTTP, as a new user's
 * live probe would, with placeholder ids and an empty JSON body, and must not answer the router's 404 ("No
 * resource at …", no route for the path) nor 405 (a route for the path, not for the method). A 404 of a missing
 * object, a 4xx of a refused body and a 2xx all show that the operation exists. Each is also in the OpenAPI
 * document, under the same method and path.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi } from '../support/openapi.js';
import { REFERENCE_OPERATIONS } from './reference-operations.js';

const PLACEHOLDER: Record<string, string> = {
  number: '1',
  page: '1',
  slug: 'no-such-slug',
  external_id: 'no-such-external-id',
};

const NOT_AVAILABLE = '/document_generation_campaigns/csv';

/** The path with each `{name}` replaced by a value of its kind that names nothing. */
const concrete = (path: string) =>
  path.replace(/\{([a-z_]+)\}/g, (_, name: string) => PLACEHOLDER[name] ?? '00000000-0000-4000-8000-00000000dead');

for (const dialect of dialects()) {
  describe(`every operation of the reference's path table is served (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
    });
    after(() => server.close());

    it(`none of the ${REFERENCE_OPERATIONS.length} operations answers the router's 404 or 405`, async () => {
      assert.ok(REFERENCE_OPERATIONS.length >= 314, 'the whole table');
      const missing: string[] = [];
      for (const operation of REFERENCE_OPERATIONS) {
        const [method, path] = operation.split(' ') as [string, string];
        const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined;
        const res = await hr.call(method, concrete(path), body);
        let text = await res.text();
        // A HEAD answers no body: whether its path is routed is what a GET of it says.
        if (method === 'HEAD' && res.status === 404) text = await (await hr.call('GET', concrete(path))).text();
        // The router's own 404 names the path ("No resource at /x."); a path id it refuses says "this URI".
        const unrouted = res.status === 404 && text.includes('No resource at /');
        if (res.status === 405 || unrouted) missing.push(`${operation}: ${res.status} ${text.slice(0, 120)}`);
        // 501 is the answer of the one operation the reference marks "NOT AVAILABLE FOR NOW" (docs/hr-api.md).
        assert.ok(
          res.status < 500 || (res.status === 501 && path === NOT_AVAILABLE),
          `${operation}: ${res.status} ${text}`,
        );
      }
      assert.deepEqual(missing, [], `${missing.length} operations are not served:\n${missing.join('\n')}`);
    });

    it('each is in the OpenAPI document', async () => {
      const doc = (await fetchOpenApi(server.url)) as unknown as { paths: Record<string, Record<string, unknown>> };
      // A path parameter's name may differ (`{slug}` here, `{id}` there): the paths are compared without them.
      const bare = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
      const documented = new Set(
        Object.entries(doc.paths).flatMap(([path, item]) =>
          Object.keys(item).map((m) => `${m.toUpperCase()} ${bare(path)}`),
        ),
      );
      const absent = REFERENCE_OPERATIONS.filter((operation) => {
        const [method, path] = operation.split(' ') as [string, string];
        return !documented.has(`${method} ${bare(`/api/v2/client${path}`)}`);
      });
      assert.deepEqual(absent, []);
    });
  });
}
