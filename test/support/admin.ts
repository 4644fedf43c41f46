import assert from 'node:assert/strict';
import type { TestServer } from './harness.js';

/**
 * A caller of the admin API (`/admin/v1`) on a test server: `bearer` is the operator token read at each call (the
 * suite's, made in its `before`), or null for none. A string body is sent as it is (malformed JSON); any other is
 * sent as JSON.
 */
export function adminCaller(server: () => TestServer, token: () => string) {
  return (method: string, path: string, body?: unknown, bearer: string | null = token()) =>
    fetch(`${server().url}/admin/v1${path}`, {
      method,
      headers: {
        ...(bearer !== null ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
}

/** The answer's JSON body, once its status is asserted (the body is the assertion's message); undefined if empty. */
export async function expectJson<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}
