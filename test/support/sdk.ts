/**
 * The SDK's methods and the requests each one sends, found by walking the clients (no list kept by hand): each
 * method is called once with placeholder arguments against a recording `fetch`, and the (method, path) it sent is
 * matched to the OpenAPI document's path templates. The parity test (test/client/openapi-parity.test.ts) and the
 * operationId test (test/platform/openapi-document.test.ts) read the SDK through this.
 */
import { AcademyClient, AdminClient, AutoPager, type FetchLike, HrClient } from '@atrium/client';

/** Operations the SDK deliberately has no method for, each with the reason. Keep it short. */
export const NOT_IN_SDK: Record<string, { aliasOf: string }> = {
  // Second spellings the Academy serves because the official client calls them; the SDK uses the first one (its
  // operationId is the first one's with `_alias`).
  'GET /v1/curriculum/{id}': { aliasOf: 'GET /v1/curriculums/{id}' },
  'GET /v1/events/ilt/{eventid}/addOffers': { aliasOf: 'GET /v1/events/ilt/{eventid}/offers' },
  'GET /v1/events/vc/{eventid}/addOffers': { aliasOf: 'GET /v1/events/vc/{eventid}/offers' },
  'GET /v1/events/ilt/{eventid}/usersAttendanceData': { aliasOf: 'GET /v1/events/ilt/{eventid}/users-attendance-data' },
  'GET /v1/events/vc/{eventid}/usersAttendanceData': { aliasOf: 'GET /v1/events/vc/{eventid}/users-attendance-data' },
};

/**
 * Operations for browsers only, with no SDK method: a session is a cookie that a browser keeps (the console); the SDK
 * authenticates each call with the operator token instead.
 */
export const BROWSER_ONLY: Record<string, string> = {
  'POST /admin/v1/session': 'sign in (a cookie)',
  'GET /admin/v1/session': 'the session of the cookie',
  'DELETE /admin/v1/session': 'sign out (clears the cookie)',
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

export interface Sent {
  method: string;
  path: string;
}

/** A `fetch` that records each request and answers what the SDK expects of each kind. */
export function recorder(root: string, sent: Sent[]): FetchLike {
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

/**
 * Calls each method with placeholders; answers which requests each one sent, by method name (with the choice
 * appended for a method called once per choice: `roles.permissions.retrieve.core`).
 */
export async function exercise(
  client: object,
  sent: Sent[],
  /** The first argument of every method, or of each method by name. */
  firstArg: unknown | ((method: string) => unknown) = placeholder,
): Promise<Map<string, Sent[]>> {
  const byMethod = new Map<string, Sent[]>();
  for (const { name, call } of methodsOf(client)) {
    for (const choice of CHOICES[name] ?? [undefined]) {
      const first = typeof firstArg === 'function' ? (firstArg as (method: string) => unknown)(name) : firstArg;
      const args = Array.from({ length: 6 }, (_, i) => (i === 0 ? first : placeholder));
      // The choice replaces the argument after the ids (the module of a role's permissions).
      if (choice !== undefined) args[1] = choice;
      const before = sent.length;
      try {
        const result = call(...args);
        if (result instanceof AutoPager) for await (const _ of result) break;
        else if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
          for await (const _ of result as AsyncIterable<unknown>) break;
        } else await result;
      } catch {
        // The placeholder answers are not always what the method reads back; only the request matters here.
      }
      const key = choice === undefined ? name : `${name}.${String(choice)}`;
      byMethod.set(key, [...(byMethod.get(key) ?? []), ...sent.slice(before)]);
    }
  }
  return byMethod;
}

/** The documented template a sent path matches, preferring the one with the most literal segments. */
export function templateOf(templates: string[], sent: Sent, prefix: string): string | undefined {
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

/** Each SDK method, by the document's operations ("GET /api/v2/client/organizations") it sends, of one client. */
export async function sdkOperations(
  api: 'hr' | 'academy' | 'admin',
  templates: string[],
): Promise<{ byMethod: Map<string, Sent[]>; byOperation: Map<string, Set<string>>; strays: string[] }> {
  const sent: Sent[] = [];
  const prefix = api === 'hr' ? '/api/v2/client' : api === 'admin' ? '/admin/v1' : '/v1';
  const transport = { fetch: recorder(prefix, sent), maxRetries: 0 };
  let byMethod: Map<string, Sent[]>;
  if (api === 'hr') {
    const client = new HrClient({
      baseUrl: 'http://sdk.test',
      applicationId: 'app',
      applicationSecret: 'secret',
      clientId: 'client',
      ...transport,
    });
    byMethod = await exercise(client, sent);
  } else if (api === 'academy') {
    byMethod = await exercise(
      new AcademyClient({ baseUrl: 'http://sdk.test', acadId: 1, apiKey: 'key', ...transport }),
      sent,
    );
  } else {
    // Each admin method takes a tenant first: `hr:<client_id>`, or an academy for the academies' own operations.
    byMethod = await exercise(
      new AdminClient({ baseUrl: 'http://sdk.test', token: 'token', ...transport }),
      sent,
      (method: string) => (/Academy/.test(method) && method !== 'tenants.createAcademy' ? 'academy:1' : 'hr:x'),
    );
  }
  const byOperation = new Map<string, Set<string>>();
  const strays: string[] = [];
  for (const [name, requests] of byMethod) {
    // Every HR method fetches its token first: that request is getAccessToken's own.
    const own = requests.filter((r) => !(api === 'hr' && r.path === '/tokens' && name !== 'getAccessToken'));
    if (own.length === 0) strays.push(`${name}: sent nothing`);
    for (const request of own) {
      const template = templateOf(templates, request, prefix);
      if (!template) {
        strays.push(`${name}: ${request.method} ${request.path} is not a documented operation`);
        continue;
      }
      const names = byOperation.get(template) ?? new Set<string>();
      names.add(name);
      byOperation.set(template, names);
    }
  }
  return { byMethod, byOperation, strays };
}
