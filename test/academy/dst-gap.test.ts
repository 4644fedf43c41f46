/**
 * A session entered at a local time its zone skips (the spring-forward gap) reads the same everywhere: the instant
 * an hour later, in the detail's `from`, the list's local dates and the timestamps (issue 16, item 15).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller, type Detail, eventBody, t } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface SessionOut {
  from: string;
  to: string;
  fromTimestamp: number;
  toTimestamp: number;
  segments?: { from: string; fromTimestamp: number }[];
}

for (const dialect of dialects()) {
  for (const kind of ['ilt', 'vc'] as const) {
    describe(`a session in the spring-forward gap: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
      });
      after(() => server.close());

      it('03:30 on 30 March 2031 in Athens (clocks jump 03:00 → 04:00) is 04:30 EEST in the detail and the list', async () => {
        const athens = server.app.services.timezones.idOf('Europe/Athens') as number;
        const day = { topic: 'Gap', date: '03/30/2031', from: t('3:30 AM'), to: t('6:00 AM') };
        const body = eventBody(kind, ['03/30/2031'], { timezoneId: athens });
        if (kind === 'ilt') body.days = [day];
        else body.sessions = [day];
        const detail = await a.json<Detail>('POST', `/events/${kind}`, body, 201);
        const [session] = detail.sessions as SessionOut[];
        // 03:30 does not exist; read with the offset before the gap (+02:00) it is 01:30 UTC, which is 04:30 EEST.
        assert.equal(session?.fromTimestamp, Date.UTC(2031, 2, 30, 1, 30) / 1000);
        assert.equal(session?.from, '04:30 AM', 'the detail shows the time the instant has');
        assert.equal(session?.to, '06:00 AM');
        assert.equal(detail.eventStartDate, '2031-03-30 01:30:00 UTC');
        assert.equal(detail.durationMinutes, 90, 'from 04:30 to 06:00');

        const list = await a.json<{ events: Record<string, unknown>[] }>(
          'GET',
          `/events/${kind}?dateStart=2031-03-30&dateEnd=2031-03-30`,
        );
        const item = list.events.find((e) => e.id === detail.id) as Record<string, unknown>;
        assert.equal(item.local_start_date, '2031-03-30 04:30:00 EEST', 'the list agrees with the detail');

        const again = await a.json<Detail>('GET', `/events/${kind}/${detail.id}`);
        assert.equal((again.sessions as SessionOut[])[0]?.from, '04:30 AM', 'and so does a later read');
      });
    });
  }
}
