import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TOTAL_REUSE_MIN, TOTAL_REUSE_MS } from '../../src/academy/events/totals.js';
import { type AcademyCaller, academyCaller, type Detail, eventBody } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

/** Copies of an event written straight into the database, as another process would. */
async function copies(server: TestServer, eventId: number, count: number): Promise<void> {
  const db = server.app.database.db;
  const { id: _id, ...row } = await db
    .selectFrom('academy_events')
    .selectAll()
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  for (let done = 0; done < count; done += 200) {
    const n = Math.min(200, count - done);
    await db
      .insertInto('academy_events')
      .values(Array.from({ length: n }, (_, i) => ({ ...row, title: `Copy ${done + i}` })))
      .execute();
  }
}

for (const dialect of dialects()) {
  describe(`academy event list totals (${dialect})`, () => {
    let server: TestServer;
    let a: AcademyCaller;
    before(async () => {
      server = await startServer(dialect);
      a = await academyCaller(server);
    });
    after(async () => server.close());

    it('counts small lists exactly; reuses a large total for a second, except after its own writes', async () => {
      const total = async () => (await a.json<{ all: number }>('GET', '/events/ilt?limit=1')).all;
      const first = await a.json<Detail>('POST', '/events/ilt', eventBody('ilt'), 201);
      await copies(server, first.id, 10);
      assert.equal(await total(), 11, 'a small total is counted on every call');

      await copies(server, first.id, TOTAL_REUSE_MIN);
      const large = TOTAL_REUSE_MIN + 11;
      assert.equal(await total(), large, 'counted once more');
      await copies(server, first.id, 1);
      assert.equal(await total(), large, 'a write by another process is not seen within the second');

      const created = await a.json<Detail>('POST', '/events/ilt', eventBody('ilt'), 201);
      assert.equal(await total(), large + 2, 'this process’s own write is seen at once');

      await copies(server, first.id, 1);
      server.app.services.clock.set(Date.now() + TOTAL_REUSE_MS);
      try {
        assert.equal(await total(), large + 3, 'counted again once the second has passed');
      } finally {
        server.app.services.clock.reset();
      }

      await a.json('DELETE', `/events/ilt/${created.id}`);
      assert.equal(await total(), large + 2, 'a delete is seen at once');
      assert.equal(
        (await a.json<{ all: number }>('GET', '/events/ilt?limit=1&status=canceled')).all,
        0,
        'each filter has its own total',
      );
    });
  });
}
