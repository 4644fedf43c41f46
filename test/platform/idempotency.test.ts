import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  sweepIdempotencyKeys,
} from '../../src/platform/http/idempotency.js';
import { academyCaller, eventBody } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

const person = (n: number, organization = 'paris') => ({
  firstname: `First${n}`,
  lastname: `Last${n}`,
  email: `p${n}@example.com`,
  registration_references: [{ organization_id: organization, employee_number: `N${n}` }],
});

/** A client with the organization its employees are registered in. */
async function client(server: TestServer): Promise<HrCaller> {
  const caller = await hrCaller(server);
  const res = await caller.call('PUT', '/organizations/paris', { name: 'Paris' });
  assert.equal(res.status, 201);
  return caller;
}

for (const dialect of dialects()) {
  describe(`Idempotency-Key on POSTs (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    const employees = async (caller: HrCaller) =>
      Number(
        (
          await server.app.database.db
            .selectFrom('hr_employees')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('client_id', '=', caller.creds.client_id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const post = (caller: HrCaller, key: string, body: unknown) =>
      caller.call('POST', '/employees', body, { 'idempotency-key': key });

    before(async () => {
      server = await startServer(dialect);
      hr = await client(server);
    });
    after(() => server.close());

    it('replays the first answer for the same key and body, and runs nothing again', async () => {
      const first = await post(hr, 'create-1', person(1));
      assert.equal(first.status, 201);
      const created = (await first.json()) as { id: string };
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const again = await post(hr, 'create-1', person(1));
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.match(again.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await again.json(), created);
      assert.equal(await employees(hr), 1, 'one employee, however many times the key was sent');
    });

    it('refuses the same key with another body (422 idempotency_key_reused), and writes nothing', async () => {
      const res = await post(hr, 'create-1', person(2));
      assert.equal(res.status, 422);
      assert.equal(((await res.json()) as { code: string }).code, 'idempotency_key_reused');
      assert.equal(await employees(hr), 1);
    });

    it('keeps keys per tenant: the same key in another client runs there', async () => {
      const other = await client(server);
      const res = await post(other, 'create-1', person(1));
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('idempotent-replayed'), null);
      assert.equal(await employees(other), 1);
    });

    it('lets exactly one of two concurrent POSTs with one key run', async () => {
      const answers = await Promise.all([post(hr, 'race', person(3)), post(hr, 'race', person(3))]);
      const statuses = answers.map((r) => r.status).sort();
      for (const r of answers) await r.body?.cancel();
      // The second waits for nothing: it is replayed (201) when the first has ended, or told to retry (409).
      assert.ok(statuses.includes(201), `statuses ${statuses}`);
      assert.ok(
        statuses.every((s) => s === 201 || s === 409),
        `statuses ${statuses}`,
      );
      assert.equal(await employees(hr), 2, 'the race created one employee');
    });

    it('answers 409 idempotency_key_in_use while the first request is running', async () => {
      // A key recorded as running (its first request has not ended), as another process would leave it.
      const now = server.app.services.clock.now();
      await server.app.database.db
        .insertInto('idempotency_keys')
        .values({
          tenant: `hr:${hr.creds.client_id}`,
          key: 'running',
          request_hash: 'x'.repeat(64),
          state: 'pending',
          created_at: now,
        })
        .execute();
      const res = await post(hr, 'running', person(4));
      assert.equal(res.status, 422, 'another body than the running one is refused');
      await res.body?.cancel();
      await server.app.database.db
        .updateTable('idempotency_keys')
        .set({ created_at: now - IDEMPOTENCY_LEASE_MS - 1 })
        .where('key', '=', 'running')
        .execute();
      const taken = await post(hr, 'running', person(4));
      assert.equal(taken.status, 201, 'a pending key past its lease is taken over');
      await taken.body?.cancel();
    });

    it('refuses a malformed key with 400, and ignores POSTs without one', async () => {
      const bad = await post(hr, 'has space', person(5));
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as { code: string }).code, 'invalid_request');
      const before = await employees(hr);
      const plain = [await hr.call('POST', '/employees', person(6)), await hr.call('POST', '/employees', person(7))];
      for (const r of plain) assert.equal(r.status, 201);
      assert.equal(await employees(hr), before + 2);
    });

    it('replays a refusal the request made (4xx); a body the schema refuses takes no key', async () => {
      const refused = await post(hr, 'refused', person(10, 'nowhere'));
      assert.equal(refused.status, 422);
      const replay = await post(hr, 'refused', person(10, 'nowhere'));
      assert.equal(replay.status, 422);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await replay.json(), await refused.json());
      const malformed = await post(hr, 'malformed', { firstname: 'Only' });
      assert.equal(malformed.status, 422);
      await malformed.body?.cancel();
      const corrected = await post(hr, 'malformed', person(11));
      assert.equal(corrected.status, 201, 'the schema refusal did not take the key');
      await corrected.body?.cancel();
    });

    it('replays after a restart and from another server on the same database', async () => {
      const first = await post(hr, 'durable', person(8));
      assert.equal(first.status, 201);
      const body = await first.json();
      const sibling = await server.sibling();
      const res = await fetch(`${sibling.url}/api/v2/client/employees`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${hr.token}`,
          'content-type': 'application/json',
          'idempotency-key': 'durable',
        },
        body: JSON.stringify(person(8)),
      });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await res.json(), body);
    });

    it('forgets a key after its retention (24 h of the clock)', async () => {
      const first = await post(hr, 'old', person(9));
      assert.equal(first.status, 201);
      await first.body?.cancel();
      const before = await employees(hr);
      const clock = server.app.services.clock;
      clock.set(clock.now() + IDEMPOTENCY_RETENTION_MS + 1000);
      try {
        const later = await post(hr, 'old', person(9));
        // The key is free again: the request runs (and meets its own email, already taken).
        assert.equal(later.headers.get('idempotent-replayed'), null);
        await later.body?.cancel();
      } finally {
        clock.reset();
      }
      assert.ok((await employees(hr)) >= before);
    });

    it('sweeps keys past their retention, and only those', async () => {
      const db = server.app.database.db;
      const now = server.app.services.clock.now();
      const count = async () =>
        Number(
          (
            await db
              .selectFrom('idempotency_keys')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      assert.ok(before > 0);
      await db
        .insertInto('idempotency_keys')
        .values({
          tenant: 'hr:gone',
          key: 'old',
          request_hash: 'x',
          state: 'done',
          created_at: now - IDEMPOTENCY_RETENTION_MS - 1,
        })
        .execute();
      assert.equal(await sweepIdempotencyKeys(db, now), 1);
      assert.equal(await count(), before, 'keys within their retention stay');
    });

    it('honours the header on the Academy API, per academy', async () => {
      const a = await academyCaller(server);
      const send = () =>
        a.call('POST', '/events/ilt', eventBody('ilt', ['04/19/2031']), { 'idempotency-key': 'academy-event' });
      const first = await send();
      assert.equal(first.status, 201);
      const created = (await first.json()) as { id: number };
      const again = await send();
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await again.json(), created);
      const events = await server.app.database.db
        .selectFrom('academy_events')
        .select('id')
        .where('academy_id', '=', a.acadId)
        .execute();
      assert.equal(events.length, 1);
    });
  });
}
