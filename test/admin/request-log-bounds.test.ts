/**
 * The request log is bounded as it is written (docs/admin.md, "Request log"): one tenant makes 3× the row cap of
 * small calls, then 3× the byte cap of large ones; after each batch its journal holds no more than either cap, the
 * calls kept are its newest, its usage row matches its rows, and another tenant's journal is as it was. The hourly
 * sweep never runs here (it is counted). Also: bodies cut at the cap end with a marker, and
 * `ATRIUM_REQUEST_LOG_BODIES` keeps bodies per route on, off, or on errors only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

const MAX_ROWS = 20;
const MAX_BYTES = 65_536;
const BODY_BYTES = 4_096;

interface Stored {
  seq: number;
  bytes: number;
}

for (const dialect of dialects()) {
  describe(`request log bounded at the write (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let sweeps = 0;

    before(async () => {
      server = await startServer(dialect, {
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_REQUEST_LOG_MAX_ROWS: String(MAX_ROWS),
        ATRIUM_REQUEST_LOG_MAX_BYTES: String(MAX_BYTES),
        ATRIUM_REQUEST_LOG_BODY_BYTES: String(BODY_BYTES),
        ATRIUM_REQUEST_LOG_BODIES:
          'GET /api/v2/client/organizations/quiet-*=off, PUT /api/v2/client/organizations/err-*=errors',
      });
      const log = server.app.services.requestLog;
      const sweep = log.sweep.bind(log);
      log.sweep = () => {
        sweeps += 1;
        return sweep();
      };
      hr = await hrCaller(server);
      other = await hrCaller(server);
    });
    after(() => server.close());

    const rowsOf = async (caller: HrCaller): Promise<Stored[]> => {
      await server.app.services.requestLog.flush();
      const rows = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log')
        .select(['seq', 'bytes'])
        .where('tenant', '=', `hr:${caller.creds.client_id}`)
        .orderBy('seq')
        .execute();
      return rows.map((r) => ({ seq: Number(r.seq), bytes: Number(r.bytes) }));
    };
    const usageOf = async (caller: HrCaller) => {
      const u = await server.app.services.requestLogJournal
        .db()
        .selectFrom('request_log_usage')
        .select(['calls', 'bytes'])
        .where('tenant', '=', `hr:${caller.creds.client_id}`)
        .executeTakeFirstOrThrow();
      return { calls: Number(u.calls), bytes: Number(u.bytes) };
    };

    it('holds no more than the row cap and the byte cap after each batch, the oldest going first; another tenant untouched', async () => {
      for (let i = 0; i < 5; i++) await (await other.call('GET', `/organizations/other-${i}`)).arrayBuffer();
      const othersBefore = await rowsOf(other);
      assert.ok(othersBefore.length >= 5, 'its token call and five reads');
      const otherUsage = await usageOf(other);

      const seen: Stored[] = [];
      let madeBytes = 0;
      const checkAfterBatch = async (what: string) => {
        const rows = await rowsOf(hr);
        const last = seen.at(-1)?.seq ?? 0;
        // Every call of the batch was written (each batch is smaller than both caps), then the oldest went.
        const fresh = rows.filter((r) => r.seq > last);
        seen.push(...fresh);
        madeBytes += fresh.reduce((sum, r) => sum + r.bytes, 0);
        const bytes = rows.reduce((sum, r) => sum + r.bytes, 0);
        assert.ok(rows.length <= MAX_ROWS, `${what}: ${rows.length} calls`);
        assert.ok(bytes <= MAX_BYTES, `${what}: ${bytes} bytes`);
        assert.deepEqual(rows, seen.slice(seen.length - rows.length), `${what}: the newest calls are kept`);
        assert.deepEqual(await usageOf(hr), { calls: rows.length, bytes }, `${what}: the usage row matches`);
        return rows;
      };

      // 3× the row cap of small calls, 10 at a time: the row cap binds.
      for (let batch = 0; batch < (3 * MAX_ROWS) / 10; batch++) {
        for (let i = 0; i < 10; i++) {
          await (await hr.call('GET', `/organizations/small-${batch}-${i}`)).arrayBuffer();
        }
        await checkAfterBatch(`small batch ${batch}`);
      }
      assert.ok(seen.length >= 3 * MAX_ROWS);
      assert.equal((await rowsOf(hr)).length, MAX_ROWS, 'full to the row cap');

      // Then large calls (a member the API ignores, logged as sent, the body cut at 4 KiB), 4 at a time, until 3×
      // the byte cap was logged: the byte cap binds.
      const large = 'x'.repeat(6_000);
      const fromLarge = madeBytes;
      for (let batch = 0; madeBytes - fromLarge < 3 * MAX_BYTES; batch++) {
        for (let i = 0; i < 4; i++) {
          const res = await hr.call('PUT', `/organizations/large-${batch}-${i}`, { name: 'Large', notes: large });
          assert.equal(res.status, 201);
          await res.arrayBuffer();
        }
        await checkAfterBatch(`large batch ${batch}`);
      }
      const kept = await rowsOf(hr);
      assert.ok(kept.length < MAX_ROWS, `the byte cap binds: ${kept.length} calls kept`);
      assert.ok(kept.reduce((sum, r) => sum + r.bytes, 0) > MAX_BYTES / 2);

      assert.deepEqual(await rowsOf(other), othersBefore, "another tenant's journal is as it was");
      assert.deepEqual(await usageOf(other), otherUsage);
      assert.equal(sweeps, 0, 'no sweep ran');
    });

    it('cuts a body at ATRIUM_REQUEST_LOG_BODY_BYTES with a marker; keeps bodies per route on, off, or on errors', async () => {
      const calls = async () => {
        await server.app.services.requestLog.flush();
        const rows = await server.app.services.requestLogJournal
          .db()
          .selectFrom('request_log')
          .select(['path', 'status', 'request_body', 'response_body', 'flags'])
          .where('tenant', '=', `hr:${other.creds.client_id}`)
          .orderBy('seq', 'desc')
          .execute();
        return rows;
      };
      const large = 'y'.repeat(BODY_BYTES * 2);
      assert.equal((await other.call('PUT', '/organizations/cut', { name: 'Cut', notes: large })).status, 201);
      const [cut] = await calls();
      const sent = Buffer.byteLength(JSON.stringify({ name: 'Cut', notes: large }));
      const marker = `…[cut: ${sent} bytes in all]`;
      assert.ok(cut?.request_body?.endsWith(marker), cut?.request_body?.slice(-60));
      assert.equal(Buffer.byteLength(cut?.request_body ?? '') - Buffer.byteLength(marker), BODY_BYTES);
      assert.equal((JSON.parse(cut?.flags ?? '{}') as { requestTruncated: boolean }).requestTruncated, true);

      assert.equal((await other.call('PUT', '/organizations/quiet-1', { name: 'Quiet' })).status, 201);
      assert.equal((await other.call('GET', '/organizations/quiet-1')).status, 200);
      const [quietGet, quietPut] = await calls();
      assert.equal(quietGet?.path, '/api/v2/client/organizations/quiet-1');
      assert.match(quietGet?.response_body ?? '', /^\[\d+ bytes of application\/json; charset=utf-8, not kept\]$/);
      assert.match(quietPut?.response_body ?? '', /"name":"Quiet"/, 'GET only: the PUT keeps its bodies');

      assert.equal((await other.call('PUT', '/organizations/err-1', { name: 'Fine' })).status, 201);
      assert.equal((await other.call('PUT', '/organizations/err-2', { name: 7 })).status, 422);
      const [failed, fine] = await calls();
      assert.equal(fine?.status, 201);
      assert.match(fine?.request_body ?? '', /^\[\d+ bytes of application\/json, not kept\]$/);
      assert.match(fine?.response_body ?? '', /not kept\]$/);
      assert.equal(failed?.status, 422);
      assert.equal(failed?.request_body, '{"name":7}', 'an error keeps its bodies');
      assert.match(failed?.response_body ?? '', /"code"/);
    });
  });
}
