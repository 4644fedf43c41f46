import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpTransport } from '../../packages/client/src/http.js';

/** A fetch that answers the planned statuses in turn (then 201) and records the headers of every attempt. */
function fakeFetch(plan: number[]) {
  const seen: Record<string, string>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    seen.push(Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>)));
    return new Response('{}', { status: plan.shift() ?? 201, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

const post = { method: 'POST', url: 'http://atrium.test/api/v2/client/employees', headers: {}, body: '{}' };
const key = (headers: Record<string, string> | undefined) => headers?.['Idempotency-Key'];

describe('SDK: Idempotency-Key on POSTs', () => {
  it('sends a new key with each POST call, and the same key on each retry of one call', async () => {
    const { fetch, seen } = fakeFetch([503]);
    const http = new HttpTransport({ fetch, initialRetryDelayMs: 1, retryNonIdempotent: true });
    const first = await http.send(post);
    assert.equal(first.response.status, 201);
    assert.equal(seen.length, 2, 'retried once');
    assert.match(key(seen[0]) ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(key(seen[1]), key(seen[0]), 'the retry repeats the key');
    await http.send(post);
    assert.notEqual(key(seen[2]), key(seen[0]), 'another call, another key');
  });

  it('keeps POSTs unretried by default, and never retries a POST sent without a key', async () => {
    const byDefault = fakeFetch([503]);
    const plain = new HttpTransport({ fetch: byDefault.fetch, initialRetryDelayMs: 1 });
    assert.equal((await plain.send(post)).response.status, 503);
    assert.equal(byDefault.seen.length, 1);
    assert.ok(key(byDefault.seen[0]), 'the key is sent all the same');

    const noKey = fakeFetch([503]);
    const optedIn = new HttpTransport({ fetch: noKey.fetch, initialRetryDelayMs: 1, retryNonIdempotent: true });
    assert.equal((await optedIn.send(post, { idempotencyKey: false })).response.status, 503);
    assert.equal(noKey.seen.length, 1, 'not retried without a key');
    assert.equal(key(noKey.seen[0]), undefined);
  });

  it('sends the caller’s own key, and none on other methods', async () => {
    const { fetch, seen } = fakeFetch([]);
    const http = new HttpTransport({ fetch });
    await http.send(post, { idempotencyKey: 'order-42' });
    await http.send({ ...post, method: 'PUT' });
    assert.equal(key(seen[0]), 'order-42');
    assert.equal(key(seen[1]), undefined);
  });
});
