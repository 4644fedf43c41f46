/**
 * `atrium replay DIR --against URL` (docs/replay.md), end to end: a session of HR and Academy calls recorded against
 * one Atrium through the real `atrium proxy --record` (test/support/recorder.ts runs it in this process), replayed against
 * another whose tenants were seeded after other data, so that every generated id, the academy's id and the cursors
 * differ. After normalisation the diff is empty; a planted difference is named by its JSON pointer.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventBody } from '../support/academy.js';
import { atrium, json } from '../support/cli.js';
import { basic, dialects, startServer, type TestServer } from '../support/harness.js';
import { type Recorder, startRecording } from '../support/recorder.js';

interface Seeded {
  hr: { client_id: string; application_id: string; application_secret: string };
  academy: { acadId: number; apikey: string };
}

interface Report {
  different: number;
  operations: {
    seq: number;
    operation_id: string | null;
    path: string;
    sent_path: string | null;
    status: { recorded: number; replayed: number | null };
    differences: { pointer: string; recorded: unknown; replayed: unknown }[];
    error?: string;
  }[];
}

const SEED_COUNTS = ['--employees', '5', '--users', '0', '--documents', '0', '--requests', '0'];

async function seeded(server: TestServer): Promise<Seeded> {
  return json<Seeded>(
    await atrium(server.env, 'seed', ...SEED_COUNTS, '--articles', '0', '--processes', '0', '--json'),
  );
}

/** The integrator's session: a token, two pages of employees, one of them read, one made and changed; an event. */
async function session(rec: Recorder, seed: Seeded): Promise<void> {
  const hr = (s: string) => `/api/v2/client${s}`;
  const token = await rec.call('POST', hr('/tokens'), {
    headers: { authorization: basic(seed.hr) },
    form: { grant_type: 'client_credentials', scope: 'client', client_id: seed.hr.client_id },
  });
  assert.equal(token.status, 200);
  const bearer = { authorization: `Bearer ${(token.body as { access_token: string }).access_token}` };
  const first = await rec.call('GET', hr('/employees?per_page=2&sort=%2Bexternal_id'), { headers: bearer });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const next = first.headers.get('next-cursor');
  assert.ok(next, 'a next page');
  assert.equal(
    (await rec.call('GET', hr(`/employees?per_page=2&sort=%2Bexternal_id&cursor=${next}`), { headers: bearer })).status,
    200,
  );
  const [one] = first.body as { id: string }[];
  assert.equal((await rec.call('GET', hr(`/employees/${one?.id}`), { headers: bearer })).status, 200);
  const hook = {
    name: 'replay',
    callback_url: 'https://hooks.example.com/atrium',
    events: ['employee.created'],
    is_active: true,
  };
  const made = await rec.call('POST', hr('/webhooks'), { headers: bearer, body: hook });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = (made.body as { id: string }).id;
  const renamed = await rec.call('PUT', hr(`/webhooks/${id}`), { headers: bearer, body: { ...hook, name: 'renamed' } });
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  assert.equal((await rec.call('GET', hr(`/webhooks/${id}`), { headers: bearer })).status, 200);
  assert.equal((await rec.call('DELETE', hr(`/webhooks/${id}`), { headers: bearer })).status, 204);
  const academy = `acadId=${seed.academy.acadId}&apikey=${seed.academy.apikey}`;
  assert.equal((await rec.call('GET', `/v1/users?${academy}&role=instructor`)).status, 200);
  const event = await rec.call('POST', `/v1/events/ilt?${academy}`, {
    body: eventBody('ilt', ['04/19/2031'], { venue: 300 }),
  });
  assert.equal(event.status, 201, JSON.stringify(event.body));
  const eventId = (event.body as { id: number }).id;
  assert.equal((await rec.call('GET', `/v1/events/ilt/${eventId}?${academy}`)).status, 200);
  assert.equal((await rec.call('DELETE', `/v1/events/ilt/${eventId}?${academy}`)).status, 200);
  assert.equal((await rec.call('GET', `/v1/events/ilt/${eventId + 1000}?${academy}`)).status, 404);
}

function credentials(seed: Seeded): string[] {
  return [
    '--client-id',
    seed.hr.client_id,
    '--application-id',
    seed.hr.application_id,
    '--acad-id',
    String(seed.academy.acadId),
  ];
}

for (const dialect of dialects()) {
  describe(`atrium replay (${dialect})`, () => {
    let recorded: TestServer;
    let target: TestServer;
    let dir: string;
    let seedB: Seeded;
    let env: Record<string, string>;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-replay-'));
      recorded = await startServer(dialect);
      const seedA = await seeded(recorded);
      const rec = await startRecording(recorded.url, dir);
      try {
        await session(rec, seedA);
      } finally {
        await rec.close();
      }
      // The second Atrium holds other data first: another academy (the demo academy's id differs) with an event
      // (so do event ids), and the seed's HR ids are derived from a client id of its own.
      target = await startServer(dialect);
      const other = await target.app.services.academies.create('Another academy');
      const res = await fetch(`${target.url}/v1/events/vc?acadId=${other.acadId}&apikey=${other.apikey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(eventBody('vc')),
      });
      assert.equal(res.status, 201);
      seedB = await seeded(target);
      assert.notEqual(seedB.academy.acadId, seedA.academy.acadId);
      assert.notEqual(seedB.hr.client_id, seedA.hr.client_id);
      env = {
        ...target.env,
        ATRIUM_REPLAY_APPLICATION_SECRET: seedB.hr.application_secret,
        ATRIUM_REPLAY_APIKEY: seedB.academy.apikey,
      };
    });
    after(async () => {
      await recorded?.close();
      await target?.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(`${dir}-proxy.sqlite`, { force: true });
    });

    it('replays every call against the other Atrium: no difference once ids, dates and cursors are normalised', async () => {
      const run = await atrium(env, 'replay', dir, '--against', target.url, ...credentials(seedB), '--json');
      const report = JSON.parse(run.stdout) as Report;
      assert.deepEqual(
        report.operations.filter((o) => o.error || o.differences.length),
        [],
        'no operation differs',
      );
      assert.equal(report.different, 0);
      assert.equal(report.operations.length, 13);
      assert.deepEqual(
        report.operations.map((o) => o.status.replayed),
        [200, 200, 200, 200, 201, 200, 200, 204, 200, 201, 200, 200, 404],
      );
      const ops = report.operations;
      assert.equal(ops[0]?.operation_id, 'hr_getAccessToken');
      // The employee read by id is the target's own (its id learned from the list), as is the one made.
      assert.notEqual(ops[3]?.sent_path, ops[3]?.path);
      assert.notEqual(ops[6]?.sent_path, ops[6]?.path);
      assert.match(ops[8]?.sent_path ?? '', new RegExp(`acadId=${seedB.academy.acadId}&apikey=…`));
      const text = await atrium(env, 'replay', dir, '--against', target.url, ...credentials(seedB));
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^#1 POST \/api\/v2\/client\/tokens \(hr_getAccessToken\): same$/m);
      assert.match(text.stdout, /13 operations replayed against .*: no difference\n$/);
    });

    it('names the field of a planted difference, with both values, and exits 1', async () => {
      const token = await fetch(`${target.url}/api/v2/client/tokens`, {
        method: 'POST',
        headers: { authorization: basic(seedB.hr), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'client', client_id: seedB.hr.client_id }),
      });
      const bearer = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
      const list = await fetch(`${target.url}/api/v2/client/employees?per_page=1&sort=%2Bexternal_id`, {
        headers: bearer,
      });
      const [first] = (await list.json()) as { id: string; lastname: string }[];
      assert.ok(first, 'a first employee');
      const patched = await fetch(`${target.url}/api/v2/client/employees/${first.id}`, {
        method: 'PATCH',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ lastname: 'Planted' }),
      });
      assert.equal(patched.status, 200);

      const run = await atrium(env, 'replay', dir, '--against', target.url, ...credentials(seedB), '--json');
      assert.equal(run.code, 1, run.stderr);
      const report = JSON.parse(run.stdout) as Report;
      assert.equal(report.different, 2);
      const planted = { recorded: first.lastname, replayed: 'Planted' };
      assert.deepEqual(report.operations[1]?.differences, [{ pointer: '/body/0/lastname', ...planted }]);
      assert.deepEqual(report.operations[3]?.differences, [{ pointer: '/body/lastname', ...planted }]);
      assert.deepEqual(
        report.operations.filter((o) => o.differences.length).map((o) => o.seq),
        [2, 4],
      );

      const text = await atrium(env, 'replay', dir, '--against', target.url, ...credentials(seedB));
      assert.equal(text.code, 1);
      assert.match(text.stdout, /^#4 GET \/api\/v2\/client\/employees\/\S+ \(hr_employees_retrieve\): 1 difference$/m);
      assert.ok(
        text.stdout.includes(`  /body/lastname: recorded ${JSON.stringify(first.lastname)}, replayed "Planted"\n`),
        text.stdout,
      );
      assert.match(text.stdout, /2 of 13 operations differ/);

      // --ignore leaves the field out.
      const ignoring = await atrium(
        env,
        'replay',
        dir,
        '--against',
        target.url,
        ...credentials(seedB),
        '--ignore',
        '/body/lastname',
        '--ignore',
        '/body/*/lastname',
      );
      assert.equal(ignoring.code, 0, ignoring.stdout);
    });
  });
}

describe('atrium replay: recordings it refuses', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-replay-bad-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const replayIt = () => atrium({}, 'replay', dir, '--against', 'http://127.0.0.1:9');

  it('names what is wrong, before any call: no recording, another version, a line that is no exchange', async () => {
    let run = await replayIt();
    assert.equal(run.code, 1);
    assert.match(run.stderr, /is not a recording: it has no recording\.json/);
    fs.writeFileSync(path.join(dir, 'recording.json'), '{"format": "atrium-recording", "version": 2}');
    run = await replayIt();
    assert.match(run.stderr, /version 2; this atrium reads version 1/);
    fs.writeFileSync(path.join(dir, 'recording.json'), '{"format": "atrium-recording", "version": 1, "target": ""}');
    fs.writeFileSync(path.join(dir, 'exchanges.ndjson'), '{"seq": 1, "request": {"method": "GET"}}\n');
    run = await replayIt();
    assert.equal(run.code, 1);
    assert.match(run.stderr, /exchanges\.ndjson:1: not an exchange/);
    assert.equal(run.stdout, '');
  });

  it('reports a call it cannot send without the credentials it needs, and exits 1', async () => {
    const exchange = {
      seq: 1,
      api: 'academy',
      operation_id: 'academy_users_list',
      request: { method: 'GET', path: '/v1/users?acadId=1&apikey=[redacted]', headers: {}, body: null },
      response: { status: 200, headers: {}, body: [] },
    };
    fs.writeFileSync(path.join(dir, 'exchanges.ndjson'), `${JSON.stringify(exchange)}\n`);
    const run = await replayIt();
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /^#1 GET \/v1\/users\?acadId=1&apikey=\[redacted\] \(academy_users_list\): not replayed: the recording needs --acad-id of the target tenant/m,
    );
    assert.match(run.stdout, /1 of 1 operations differ/);
  });
});
