/**
 * docs/hr-api.md has one row per audit event type in its table, and no other: the table is checked against what
 * the server declares (`GET /events/filters/actions`, derived from the resources' declarations).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { ROOT } from '../support/root.js';

const DOC = path.join(ROOT, 'docs/hr-api.md');

describe('audit event types in docs/hr-api.md', () => {
  let server: TestServer;
  let hr: HrCaller;
  before(async () => {
    server = await startServer('sqlite');
    hr = await hrCaller(server);
  });
  after(() => server.close());

  it('the table lists exactly the declared types, once each', async () => {
    const text = fs.readFileSync(DOC, 'utf8');
    const table = /<!-- event-types:start -->([\s\S]*?)<!-- event-types:end -->/.exec(text)?.[1] ?? '';
    const documented = [...table.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1] as string);
    const res = await hr.call('GET', '/events/filters/actions');
    assert.equal(res.status, 200);
    const [app] = (await res.json()) as { resources: { resource_name: string; actions: string[] }[] }[];
    const declared = (app?.resources ?? []).flatMap((r) => r.actions.map((a) => `${r.resource_name}.${a}`));
    assert.ok(declared.length > 0);
    assert.deepEqual([...documented].sort(), [...declared].sort());
    assert.equal(new Set(documented).size, documented.length, 'no type twice');
  });
});
