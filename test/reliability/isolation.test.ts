/**
 * Isolation matrix: for every operation of both APIs (read from the OpenAPI document), tenant B's credentials
 * on tenant A's objects. B cannot tell A's objects from objects that do not exist: every call with A's ids
 * answers exactly what the same call with made-up ids answers (item reads: 404), no list B reads carries one
 * of A's ids, and every object of A reads the same after the whole matrix as before it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { fromSchema, idPools, pct, type RawResponse, send } from '../support/fuzz.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { collectionOf, fetchOpenApi, type Operation, operations, pathParams } from '../support/openapi.js';
import { type AcademyTenant, fullAcademyTenant, fullHrTenant, type HrTenant } from '../support/tenants.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A made-up id of the same form as a real one (so format checks treat both alike). */
function missingLike(id: string): string {
  if (UUID.test(id)) return randomUUID();
  if (/^[0-9]+$/.test(id)) return String(900_000 + Math.floor(Math.random() * 99_999));
  return `${id.replace(/[^a-z0-9]/g, '')}-missing`;
}

/** Every value under an id-like key, anywhere in a JSON document. */
function idsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) idsIn(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (/^id$|_id$|Id$|_ids$|Ids$/.test(k) && (typeof v === 'string' || typeof v === 'number')) out.add(String(v));
      if (/_ids$|Ids$/.test(k) && Array.isArray(v)) for (const x of v) out.add(String(x));
      idsIn(v, out);
    }
  }
  return out;
}

function summary(res: RawResponse): string {
  let code = '';
  try {
    code = String((JSON.parse(res.body.toString('utf8')) as { code?: unknown }).code ?? '');
  } catch {
    // Not JSON (a file, an empty HEAD answer).
  }
  return `${res.status}${code ? ` ${code}` : ''}`;
}

for (const dialect of dialects()) {
  describe(`tenant isolation matrix over every operation (${dialect})`, () => {
    let server: TestServer;
    let ops: Operation[];
    let hrA: HrTenant;
    /** B has no HR objects of its own (beyond every client's default folders), so none shares an id with A's. */
    let hrB: HrCaller;
    let hrBFolders: Set<string>;
    let acA: AcademyTenant;
    let acB: AcademyTenant;

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_ACADEMY_RATE_LIMIT: '0',
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_AUTH_FAILURE_LIMIT: '0',
      });
      hrA = await fullHrTenant(server);
      hrB = await hrCaller(server);
      hrBFolders = new Set();
      for (const kind of ['employee', 'company']) {
        const res = await hrB.call('GET', `/${kind}_folders?per_page=100`);
        for (const f of (await res.json()) as { id: string }[]) hrBFolders.add(f.id);
      }
      acA = await fullAcademyTenant(server);
      acB = await fullAcademyTenant(server);
      ops = operations(await fetchOpenApi(server.url));
    });
    after(() => server.close());

    /** What A sees of each of its objects, by path. */
    async function readAllOfA(): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      for (const op of ops.filter((o) => o.method === 'GET' && pathParams(o.path).length === 1)) {
        const [param] = pathParams(op.path) as [string];
        const api = op.api === 'hr';
        const pool = (api ? hrA.ids : acA.ids)[collectionOf(op.path, param)] ?? [];
        for (const id of pool) {
          const path = op.path.replace(`{${param}}`, pct(String(id)));
          const res = api
            ? await hrA.caller.call('GET', path)
            : await fetch(`${server.url}${path}?acadId=${acA.caller.acadId}&apikey=${acA.caller.apikey}`);
          // Bodies compare as text. What moves by itself is the time of the answer: a calendar's DTSTAMP, a
          // receipt's issued_at; and the PDFs made on each call (a duplicate, a request's PDF), dated inside.
          const made = /\/(pdf|duplicate)$/.test(path) && res.headers.get('content-type') === 'application/pdf';
          const text = made
            ? `(a PDF made on each call: ${(await res.arrayBuffer()).byteLength > 0})`
            : (await res.text()).replace(/DTSTAMP:[0-9TZ]+/g, 'DTSTAMP').replace(/ issued_at="[^"]*"/, ' issued_at');
          out.set(path, `${res.status} ${text}`);
        }
      }
      return out;
    }

    it("B cannot tell A's objects from missing ones on any operation, sees none of them in lists, and changes none", async () => {
      const beforeA = await readAllOfA();
      assert.ok(beforeA.size >= 20, `A has objects behind ${beforeA.size} item paths`);
      const aUuids = new Set(
        Object.values(hrA.ids)
          .flat()
          .filter((id) => UUID.test(id)),
      );
      const aEvents = new Set(
        Object.entries(acA.ids).flatMap(([k, v]) => (k.startsWith('/events') ? v.map(String) : [])),
      );
      const pools = idPools(hrA.ids, acA.ids);
      const failures: string[] = [];
      let compared = 0;
      let listsChecked = 0;
      // PUT creates at the given id in the caller's own space: B's PUTs run last, so that no other call meets
      // an object B made with one of A's ids, and the deepest first, so that no PUT under a parent
      // (`/datasets/{id}/values/{value_id}`) meets the parent B's own PUT made at one of A's ids.
      const depth = (path: string) => (path.match(/\{/g) ?? []).length;
      const ordered = [
        ...ops.filter((o) => o.method !== 'PUT'),
        ...ops.filter((o) => o.method === 'PUT').sort((a, b) => depth(b.path) - depth(a.path)),
      ];
      for (const [index, op] of ordered.entries()) {
        const hr = op.api === 'hr';
        const auth = hr
          ? { headers: { authorization: `Bearer ${hrB.token}` }, query: '' }
          : { headers: {}, query: `acadId=${acB.caller.acadId}&apikey=${acB.caller.apikey}` };
        if (op.security.includes('basicAuth')) continue; // The token endpoints name no object (test/hr/tokens.test.ts).
        const params = pathParams(op.path);
        const jsonBody = op.body.find((b) => b.contentType === 'application/json');
        const body = jsonBody
          ? Buffer.from(JSON.stringify(fc.sample(fromSchema(jsonBody.schema, pools), { numRuns: 1, seed: index })[0]))
          : undefined;
        const headers: Record<string, string> = {
          ...(auth.headers as Record<string, string>),
          ...(body ? { 'content-type': 'application/json' } : {}),
        };
        const request = (path: string) =>
          send(server.url, {
            method: op.method,
            path: `${path}${auth.query ? `?${auth.query}` : ''}`,
            headers,
            ...(body ? { body } : {}),
            label: 'isolation',
          });
        if (params.length === 0) {
          if (op.method !== 'GET') continue;
          const res = await request(op.path);
          if (res.status !== 200) continue;
          listsChecked += 1;
          const seen = idsIn(JSON.parse(res.body.toString('utf8')));
          // Academy directories (users, courses…) and timezones share their ids between academies; events do not.
          if (!hr && !op.path.startsWith('/v1/events')) continue;
          const leaked = [...seen].filter((id) => (hr ? aUuids.has(id) : aEvents.has(id)));
          if (leaked.length) failures.push(`GET ${op.path}: B's list shows A's ${leaked.join(', ')}`);
          continue;
        }
        let withA = op.path;
        let withMissing = op.path;
        let shared = false;
        for (const param of params) {
          const collection = collectionOf(op.path, param);
          // An academy's directory ids are its own external ids (every academy may have a user 101): only events
          // have ids of their own.
          const pool = hr ? hrA.ids[collection] : param === 'eventid' ? acA.ids['/events/ilt'] : acA.ids[collection];
          if (!hr && !collection.startsWith('/events') && param !== 'eventid') shared = true;
          const real = String(pool?.[0] ?? (hr ? hrA.ids['/requests']?.[0] : acA.ids['/events/ilt']?.[0]));
          if (hr && /_folders$/.test(collection) && hrBFolders.has(real)) shared = true;
          withA = withA.replace(`{${param}}`, pct(real));
          withMissing = withMissing.replace(`{${param}}`, pct(missingLike(real)));
        }
        if (shared) continue; // Every client has its own folder of that id; every academy its own user 101.
        const missing = await request(withMissing);
        const onA = await request(withA);
        compared += 1;
        if (summary(onA) !== summary(missing)) {
          failures.push(
            `${op.method} ${withA}: ${summary(onA)} with A's ids but ${summary(missing)} with made-up ones\n  ${onA.body.toString('utf8').slice(0, 300)}`,
          );
        }
        if (op.method === 'GET' && op.path.endsWith(`{${params[params.length - 1]}}`) && onA.status !== 404) {
          failures.push(`GET ${withA}: ${onA.status}, not 404`);
        }
        if (onA.status < 300 && op.method !== 'PUT') {
          failures.push(`${op.method} ${withA}: ${onA.status} for B on A's object`);
        }
      }
      console.log(
        `isolation (${dialect}): ${compared} operations compared with A's ids and made-up ones, ${listsChecked} lists checked, ${beforeA.size} objects of A re-read`,
      );
      assert.deepEqual(failures, [], failures.join('\n'));
      assert.ok(compared > 100, `${compared} operations compared`);
      assert.ok(listsChecked > 20, `${listsChecked} lists checked`);
      const afterA = await readAllOfA();
      for (const [path, before] of beforeA) {
        assert.equal(afterA.get(path), before, `A's ${path} is unchanged`);
      }
    });
  });
}
