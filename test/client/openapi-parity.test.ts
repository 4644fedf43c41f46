/**
 * The SDK covers the API: every operation of the OpenAPI document has an SDK method, and every SDK method calls a
 * documented operation. The methods are found by walking the clients (no list kept by hand): each is called once
 * with placeholder arguments against a recording `fetch`, and the (method, path) it sent is matched to the
 * document's path templates. A new route without an SDK method, or a method whose path drifted, fails here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AcademyClient, AutoPager, type FetchLike, HrClient } from '@atrium/client';
import { dialects, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, operations } from '../support/openapi.js';

/** Operations the SDK deliberately has no method for, each with the reason. Keep it short. */
const NOT_IN_SDK: Record<string, string> = {
  // Second spellings the Academy serves because the official client calls them; the SDK uses the first one.
  'GET /v1/curriculum/{id}': 'alias of GET /v1/curriculums/{id} (curriculums.retrieve)',
  'GET /v1/events/ilt/{eventid}/addOffers': 'alias of GET …/offers (events.ilt.offers)',
  'GET /v1/events/vc/{eventid}/addOffers': 'alias of GET …/offers (events.vc.offers)',
  'GET /v1/events/ilt/{eventid}/usersAttendanceData': 'alias of GET …/users-attendance-data (events.ilt.attendance)',
  'GET /v1/events/vc/{eventid}/usersAttendanceData': 'alias of GET …/users-attendance-data (events.vc.attendance)',
};

/** Arguments that must be one of a few values: each value is called once. */
const CHOICES: Record<string, unknown[]> = {
  'roles.permissions.retrieve': ['core', 'efm', 'audit', 'webhook'],
  'roles.permissions.update': ['core', 'efm', 'audit', 'webhook'],
};

/**
 * A placeholder argument: `x` as a string or number (path segments), an empty object otherwise (bodies,
 * parameters, options), so that every method reaches its request.
 */
const placeholder: unknown = new Proxy(
  {},
  {
    get: (_target, key) => (key === Symbol.toPrimitive ? () => 'x' : undefined),
  },
);

interface Sent {
  method: string;
  path: string;
}

/** A `fetch` that records each request and answers what the SDK expects of each kind. */
function recorder(root: string, sent: Sent[]): FetchLike {
  return async (input, init) => {
    const url = new URL(String(input));
    const method = (init?.method ?? 'GET').toUpperCase();
    sent.push({ method, path: url.pathname.slice(root.length) });
    if (url.pathname.endsWith('/tokens')) {
      return Response.json({ access_token: 'token', token_type: 'bearer', expires_in: 3600 });
    }
    return new Response(method === 'HEAD' ? null : '[]', {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-total-count': '0' },
    });
  };
}

/**
 * Every function reachable from the client's prototype (its own calls, first: `getAccessToken` must be the call
 * that fetches the token) and from its own properties (the resources).
 */
function methodsOf(client: object): { name: string; call: (...args: unknown[]) => unknown }[] {
  const out: { name: string; call: (...args: unknown[]) => unknown }[] = [];
  const walk = (value: unknown, name: string, depth: number) => {
    if (typeof value === 'function') {
      out.push({ name, call: value as (...args: unknown[]) => unknown });
      return;
    }
    if (value === null || typeof value !== 'object' || depth > 4) return;
    for (const [key, child] of Object.entries(value)) walk(child, name ? `${name}.${key}` : key, depth + 1);
  };
  const prototype = Object.getPrototypeOf(client) as object;
  for (const key of Object.getOwnPropertyNames(prototype).sort()) {
    // The escape hatches call whatever path they are given.
    if (['constructor', 'request', 'rawRequest'].includes(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
    if (typeof descriptor?.value === 'function') {
      out.push({
        name: key,
        call: (...args) => (descriptor.value as (...a: unknown[]) => unknown).apply(client, args),
      });
    }
  }
  // The resources (the private core, also an own property, is not part of the surface).
  for (const [key, value] of Object.entries(client)) if (key !== 'core') walk(value, key, 0);
  return out;
}

/** Calls each method with placeholders; answers which requests each one sent. */
async function exercise(client: object, sent: Sent[]): Promise<Map<string, Sent[]>> {
  const byMethod = new Map<string, Sent[]>();
  for (const { name, call } of methodsOf(client)) {
    for (const choice of CHOICES[name] ?? [undefined]) {
      const args = Array.from({ length: 6 }, () => placeholder);
      // The choice replaces the argument after the ids (the module of a role's permissions).
      if (choice !== undefined) args[1] = choice;
      const before = sent.length;
      try {
        const result = call(...args);
        if (result instanceof AutoPager) for await (const _ of result) break;
        else await result;
      } catch {
        // The placeholder answers are not always what the method reads back; only the request matters here.
      }
      byMethod.set(name, [...(byMethod.get(name) ?? []), ...sent.slice(before)]);
    }
  }
  return byMethod;
}

/** The documented template a sent path matches, preferring the one with the most literal segments. */
function templateOf(templates: string[], sent: Sent, prefix: string): string | undefined {
  const segments = sent.path.split('/');
  let best: { template: string; literals: number } | undefined;
  for (const template of templates) {
    const [method, path] = template.split(' ') as [string, string];
    if (method !== sent.method) continue;
    const parts = path.slice(prefix.length).split('/');
    if (parts.length !== segments.length) continue;
    let literals = 0;
    const match = parts.every((part, i) => {
      if (/^\{[^}]+\}$/.test(part)) return segments[i] !== '';
      literals++;
      return part === segments[i];
    });
    if (match && (!best || literals > best.literals)) best = { template, literals };
  }
  return best?.template;
}

const dialect = dialects()[0] ?? 'sqlite';

describe('SDK ↔ OpenAPI parity', () => {
  let server: TestServer;
  let documented: { hr: string[]; academy: string[] };

  before(async () => {
    server = await startServer(dialect);
    const ops = operations(await fetchOpenApi(server.url));
    documented = {
      hr: ops.filter((o) => o.api === 'hr').map((o) => `${o.method} ${o.path}`),
      academy: ops.filter((o) => o.api === 'academy').map((o) => `${o.method} ${o.path}`),
    };
  });
  after(() => server.close());

  const check = async (api: 'hr' | 'academy', client: object, sent: Sent[], prefix: string) => {
    const byMethod = await exercise(client, sent);
    const templates = documented[api];
    assert.ok(templates.length > 10, 'the document lists the operations');
    const covered = new Set<string>();
    const strays: string[] = [];
    for (const [name, requests] of byMethod) {
      const own = requests.filter((r) => !(api === 'hr' && r.path === '/tokens' && name !== 'getAccessToken'));
      if (own.length === 0) strays.push(`${name}: sent nothing`);
      for (const request of own) {
        const template = templateOf(templates, request, prefix);
        if (template) covered.add(template);
        else strays.push(`${name}: ${request.method} ${request.path} is not a documented operation`);
      }
    }
    assert.deepEqual(strays, [], `SDK methods without a documented operation:\n${strays.join('\n')}`);
    const missing = templates.filter((t) => !covered.has(t) && !(t in NOT_IN_SDK)).sort();
    assert.deepEqual(missing, [], `documented operations without an SDK method:\n${missing.join('\n')}`);
  };

  it('every exception names a documented operation', () => {
    const all = new Set([...documented.hr, ...documented.academy]);
    const stale = Object.keys(NOT_IN_SDK).filter((t) => !all.has(t));
    assert.deepEqual(stale, [], 'exceptions for operations the document no longer has');
  });

  it('every HR operation has an HrClient method, and every method calls one', async () => {
    const sent: Sent[] = [];
    const root = '/api/v2/client';
    const hr = new HrClient({
      baseUrl: 'http://sdk.test',
      applicationId: 'app',
      applicationSecret: 'secret',
      clientId: 'client',
      fetch: recorder(root, sent),
      maxRetries: 0,
    });
    await check('hr', hr, sent, root);
  });

  it('every Academy operation has an AcademyClient method, and every method calls one', async () => {
    const sent: Sent[] = [];
    const academy = new AcademyClient({
      baseUrl: 'http://sdk.test',
      acadId: 1,
      apiKey: 'key',
      fetch: recorder('/v1', sent),
      maxRetries: 0,
    });
    await check('academy', academy, sent, '/v1');
  });
});
