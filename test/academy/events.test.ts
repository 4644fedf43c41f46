import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller, type Detail, eventBody, t } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface ErrorBody {
  status: number;
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

const KINDS = ['ilt', 'vc'] as const;

async function fieldsOf(res: Response, status = 400): Promise<string[]> {
  const body = (await res.json()) as ErrorBody;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.status, status);
  assert.equal(typeof body.message, 'string');
  return (body.errors ?? []).map((e) => e.field);
}

for (const dialect of dialects()) {
  for (const kind of KINDS) {
    describe(`academy events: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
      });
      after(() => server.close());

      it('creates (201), reads (200) and lists an event with the spec shapes', async () => {
        const created = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['04/19/2031'], { categoryId: 10, visible: true }),
        );
        assert.equal(created.title, `Workshop ${kind}`);
        assert.equal(created.status, 'Upcoming');
        assert.deepEqual(created.categoryIds, [10]);
        assert.equal(created.categoryId, 10);
        assert.equal(created.category, 'Safety');
        assert.equal(created.eventStartDate, '2031-04-19 07:00:00 UTC');
        assert.equal(created.eventEndDate, '2031-04-19 15:00:00 UTC');
        assert.equal(created.durationMinutes, 480);
        assert.equal(created.timeOffset, 2);
        assert.equal(created.timezoneId, 0);
        assert.equal(created.timezone, '(GMT+02:00)');
        assert.equal(created.deleted, false);
        assert.equal(created.maxAttendees, 20);
        assert.equal(created.seatsAvailable, 20);
        assert.equal(created.maxed, false);
        assert.deepEqual(
          created.schooxInstructors,
          [String(a.superAdminId)],
          'the super administrator is primary by default',
        );
        const session = (created.sessions as Record<string, unknown>[])[0] as Record<string, unknown>;
        assert.equal(session.date, '04/19/2031');
        assert.equal(session.dateUTC, '2031-04-19T00:00:00Z');
        assert.equal(session.from, '09:00 AM');
        assert.equal(session.to, '05:00 PM');
        assert.equal(session.fromTimestamp, Date.UTC(2031, 3, 19, 7) / 1000);
        assert.equal(session.upcoming, 1);
        assert.equal('segments' in session, kind === 'ilt');
        if (kind === 'ilt') {
          assert.equal(created.venueId, 700);
          assert.equal(created.city, 'Athens');
          assert.deepEqual(JSON.parse(created.coordinates as string), { latitude: '37.98', longitude: '23.72' });
          assert.equal(created.passingScore, 0);
          assert.equal('completionPercentage' in created, false);
        } else {
          assert.equal(created.completionPercentage, 80);
          assert.equal(created.clientActivation, false);
          assert.equal('venueId' in created, false);
        }
        const read = await a.json<Detail>('GET', `/events/${kind}/${created.id}`);
        assert.deepEqual(read, created);
        const list = await a.json<{ all: number; events: Record<string, unknown>[] }>('GET', `/events/${kind}`);
        const item = list.events.find((e) => e.id === created.id) as Record<string, unknown>;
        assert.ok(list.all >= 1);
        assert.equal(item.local_start_date, '2031-04-19 09:00:00 GMT+2');
        assert.equal(item.event_start_date, '2031-04-19 07:00:00 UTC');
        assert.equal(item.duration, 480);
        assert.equal(item.timeOffset, 2);
        assert.equal('timezoneId' in item, false, 'optional fields are omitted when empty');
        assert.deepEqual(item.categoryIds, [10]);
        assert.equal(item.available_seats, 20);
        assert.equal('location' in item, kind === 'ilt');
        assert.equal('attendance_duration' in item, kind === 'vc');
      });

      it('omits categoryIds and category from list items without a category, and shows -1 in the detail', async () => {
        const created = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['06/01/2031']));
        assert.deepEqual(created.categoryIds, [-1]);
        assert.equal(created.categoryId, -1);
        assert.equal(created.category, 'Without Category');
        const list = await a.json<{ events: Record<string, unknown>[] }>(
          'GET',
          `/events/${kind}?dateStart=2031-06-01&dateEnd=2031-06-01`,
        );
        assert.deepEqual(
          list.events.map((e) => e.id),
          [created.id],
        );
        assert.equal('categoryIds' in (list.events[0] as object), false);
        assert.equal('category' in (list.events[0] as object), false);
      });

      it('timezoneId wins over timeOffset and follows daylight saving; an offset-only event does not', async () => {
        const athens = server.app.services.timezones.idOf('Europe/Athens') as number;
        // Europe/Athens leaves EET (+2) for EEST (+3) on 30 March 2031.
        const dst = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['03/29/2031', '03/31/2031'], { timezoneId: athens, timeOffset: 9 }),
        );
        assert.equal(dst.timezoneId, athens);
        assert.match(dst.timezone as string, /^\(GMT\+0[23]:00\) Athens$/);
        const [d1, d2] = dst.sessions as { fromTimestamp: number; dateUTC: string }[];
        assert.equal(d1?.fromTimestamp, Date.UTC(2031, 2, 29, 7) / 1000, '09:00 EET is 07:00 UTC');
        assert.equal(d2?.fromTimestamp, Date.UTC(2031, 2, 31, 6) / 1000, '09:00 EEST is 06:00 UTC');
        assert.equal(dst.eventStartDate, '2031-03-29 07:00:00 UTC');
        assert.equal(dst.eventEndDate, '2031-03-31 14:00:00 UTC');
        assert.equal(dst.durationMinutes, 960);
        assert.equal(dst.timeOffset, 2, 'the offset at the start');
        const list = await a.json<{ events: Record<string, unknown>[] }>(
          'GET',
          `/events/${kind}?dateStart=2031-03-29&dateEnd=2031-03-29`,
        );
        const item = list.events.find((e) => e.id === dst.id) as Record<string, unknown>;
        assert.equal(item.local_start_date, '2031-03-29 09:00:00 EET');
        assert.equal(item.local_end_date, '2031-03-31 17:00:00 EEST');
        assert.equal(item.timezoneId, athens);
        assert.equal('timeOffset' in item, false);

        const fixed = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['03/29/2031', '03/31/2031'], { timeOffset: 5.5 }),
        );
        const [f1, f2] = fixed.sessions as { fromTimestamp: number }[];
        assert.equal(f1?.fromTimestamp, Date.UTC(2031, 2, 29, 3, 30) / 1000);
        assert.equal(f2?.fromTimestamp, Date.UTC(2031, 2, 31, 3, 30) / 1000);
        assert.equal(fixed.timezone, '(GMT+05:30)');
        // The spec types the detail's timeOffset "integer or string": a fraction is answered as its string form.
        assert.equal(fixed.timeOffset, '+05:30');
        const west = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['03/29/2031'], { timeOffset: -3.5 }),
        );
        assert.equal(west.timeOffset, '-03:30');
        assert.equal(west.timezone, '(GMT-03:30)');
        const listed = await a.json<{ events: { id: number; timeOffset?: unknown }[] }>(
          'GET',
          `/events/${kind}?limit=100`,
        );
        assert.equal(listed.events.find((e) => e.id === fixed.id)?.timeOffset, 5.5, 'the list item keeps a number');
      });

      it('answers each broken create rule with a 400 naming the field path', async () => {
        const post = (body: Record<string, unknown>) => a.call('POST', `/events/${kind}`, body);
        const base = eventBody(kind);
        const list = kind === 'ilt' ? 'days' : 'sessions';
        const { timeOffset: _omit, ...noZone } = base;
        assert.deepEqual(await fieldsOf(await post(noZone)), ['timeOffset']);
        assert.deepEqual(await fieldsOf(await post({ ...base, timezoneId: 999_999 })), ['timezoneId']);
        const badHour = structuredClone(base) as Record<string, { from: { hours: number } }[]>;
        const firstDay = badHour[list]?.[0];
        assert.ok(firstDay);
        firstDay.from.hours = 13;
        assert.deepEqual(await fieldsOf(await post(badHour)), [`${list}.0.from.hours`]);
        const badDate = structuredClone(base) as Record<string, { date: string }[]>;
        (badDate[list]?.[0] as { date: string }).date = '02/30/2031';
        assert.deepEqual(await fieldsOf(await post(badDate)), [`${list}.0.date`]);
        const backwards = structuredClone(base) as Record<string, { to: unknown }[]>;
        (backwards[list]?.[0] as { to: unknown }).to = t('8:00 AM');
        assert.deepEqual(await fieldsOf(await post(backwards)), [`${list}.0.to`]);
        const { [list]: _l, ...noSessions } = base;
        assert.deepEqual(await fieldsOf(await post(noSessions)), [list]);
        assert.deepEqual(await fieldsOf(await post({ ...base, based: 3 })), ['based']);
        assert.deepEqual(await fieldsOf(await post({ ...base, based: 1, courseId: 500 })), ['based']);
        assert.deepEqual(await fieldsOf(await post({ ...base, courseId: 9999 })), ['courseId']);
        assert.deepEqual(await fieldsOf(await post({ ...base, categoryId: 9999 })), ['categoryId']);
        assert.deepEqual(await fieldsOf(await post({ ...base, courseId: 500, categoryId: 12 })), ['categoryId']);
        assert.deepEqual(await fieldsOf(await post({ ...base, curriculumId: 600, categoryId: 10 })), ['categoryId']);
        assert.deepEqual(
          await fieldsOf(
            await post({
              ...base,
              schooxInstructors: [
                { id: 101, isPrimary: true },
                { id: 102, isPrimary: true },
              ],
            }),
          ),
          ['schooxInstructors'],
        );
        assert.deepEqual(await fieldsOf(await post({ ...base, schooxInstructors: [{ id: 101 }, { id: 999 }] })), [
          'schooxInstructors.1.id',
        ]);
        assert.deepEqual(await fieldsOf(await post({ ...base, title: 7 })), ['title']);
        // Out-of-range ids are refused before they reach the database (never a 500).
        assert.deepEqual(await fieldsOf(await post({ ...base, courseId: 99_999_999_999 })), ['courseId']);
        assert.deepEqual(await fieldsOf(await post({ ...base, timezoneId: -3 })), ['timezoneId']);
        if (kind === 'ilt') {
          const { venue: _v, venueSeats: _s, ...noPlace } = base;
          assert.deepEqual(await fieldsOf(await post(noPlace)), ['venue']);
          assert.deepEqual(await fieldsOf(await post({ ...noPlace, venue: 700 })), ['venueSeats']);
          assert.deepEqual(await fieldsOf(await post({ ...noPlace, venue: 7001, venueSeats: 3 })), ['venue']);
          assert.deepEqual(await fieldsOf(await post({ ...noPlace, location: 'Athens' })), ['marker']);
          const ok = await a.json<Detail>('POST', '/events/ilt', {
            ...noPlace,
            location: 'Athens',
            marker: { coords: { latitude: 1.5, longitude: 2 } },
          });
          assert.equal(ok.venueId, 0);
          assert.equal(ok.location, 'Athens');
          const withSegments = structuredClone(base) as Record<string, Record<string, unknown>[]>;
          (withSegments.days?.[0] as Record<string, unknown>).segments = [
            { title: 'Bad', from: t('10:00 AM'), to: t('9:00 AM') },
          ];
          assert.deepEqual(await fieldsOf(await post(withSegments)), ['days.0.segments.0.to']);
        } else {
          for (const extra of [
            { venue: 700, venueSeats: 3 },
            { location: 'x', marker: { coords: { latitude: 1, longitude: 1 } } },
          ]) {
            const fields = await fieldsOf(await post({ ...base, ...extra }));
            assert.deepEqual(fields.sort(), Object.keys(extra).sort());
          }
          assert.deepEqual(await fieldsOf(await post({ ...base, days: base.sessions })), ['days']);
        }
        const { count } = (await server.app.database.db
          .selectFrom('academy_events')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('academy_id', '=', a.acadId)
          .where('title', '=', 'never')
          .executeTakeFirstOrThrow()) as { count: number };
        assert.equal(Number(count), 0);
      });

      it('connects to a course (which wins over a learning path) or a learning path, with their categories', async () => {
        const course = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, undefined, { courseId: 500, curriculumId: 600 }),
        );
        assert.equal(course.courseConnected, 500);
        assert.equal(course.curriculumConnected, 0);
        assert.equal(course.categoryId, 11, "the course's first category");
        const course2 = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, undefined, { courseId: 500, categoryId: 10 }),
        );
        assert.equal(course2.categoryId, 10);
        const lp = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, undefined, { curriculumId: 600, partOfCurriculum: true }),
        );
        assert.equal(lp.curriculumConnected, 600);
        assert.equal(lp.categoryId, 12);
        assert.equal(lp.partOfCurriculum, true);
      });

      it('edit: clears omitted external instructors, resets omitted instructors, keeps based/course/curriculum fixed', async () => {
        const body = eventBody(kind, undefined, {
          courseId: 500,
          externalInstructors: [{ name: 'Guest Speaker' }],
          schooxInstructors: [{ id: 102 }, { id: 101, isPrimary: true }],
        });
        const created = await a.json<Detail>('POST', `/events/${kind}`, body);
        assert.deepEqual(created.externalInstructors, ['Guest Speaker']);
        assert.deepEqual(created.schooxInstructors, ['101', '102'], 'primary first');
        const { externalInstructors: _e, schooxInstructors: _s, courseId: _c, ...rest } = body;
        assert.deepEqual(await fieldsOf(await a.call('PUT', `/events/${kind}/${created.id}`, rest)), ['partOfCourse']);
        const edited = await a.json<Detail>('PUT', `/events/${kind}/${created.id}`, {
          ...rest,
          partOfCourse: true,
          title: 'Renamed',
        });
        assert.equal(edited.title, 'Renamed');
        assert.deepEqual(edited.externalInstructors, []);
        assert.deepEqual(edited.schooxInstructors, [String(a.superAdminId)]);
        assert.equal(edited.partOfCourse, true);
        assert.deepEqual(
          await fieldsOf(
            await a.call('PUT', `/events/${kind}/${created.id}`, { ...rest, partOfCourse: true, based: 1 }),
          ),
          ['based'],
        );
        assert.deepEqual(
          await fieldsOf(
            await a.call('PUT', `/events/${kind}/${created.id}`, { ...rest, partOfCourse: true, courseId: 501 }),
          ),
          ['courseId'],
        );
        assert.deepEqual(
          await fieldsOf(
            await a.call('PUT', `/events/${kind}/${created.id}`, { ...rest, partOfCourse: true, curriculumId: 600 }),
          ),
          ['curriculumId'],
        );
        const same = await a.call('PUT', `/events/${kind}/${created.id}`, {
          ...rest,
          partOfCourse: false,
          based: 2,
          courseId: 500,
        });
        assert.equal(same.status, 200);
        assert.equal(((await same.json()) as Detail).title, `Workshop ${kind}`);
      });

      it('a visible event cannot be made invisible', async () => {
        const created = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, undefined, { visible: true }));
        assert.deepEqual(
          await fieldsOf(
            await a.call('PUT', `/events/${kind}/${created.id}`, eventBody(kind, undefined, { visible: false })),
          ),
          ['visible'],
        );
        const kept = await a.json<Detail>('PUT', `/events/${kind}/${created.id}`, eventBody(kind));
        assert.equal(kept.visible, true);
        const hidden = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind));
        assert.equal(hidden.visible, false);
        assert.equal(
          (await a.json<Detail>('PUT', `/events/${kind}/${hidden.id}`, eventBody(kind, undefined, { visible: true })))
            .visible,
          true,
        );
      });

      it('derives status from the clock; autoArchive moves a completed event to status=archived', async () => {
        const clock = server.app.services.clock;
        const archived = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['09/10/2031'], { autoArchive: true }),
        );
        const kept = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['09/10/2031']));
        const ids = async (status: string) =>
          (
            await a.json<{ events: { id: number }[] }>(
              'GET',
              `/events/${kind}?status=${status}&dateStart=2031-09-10&dateEnd=2031-09-10`,
            )
          ).events.map((e) => e.id);
        try {
          clock.set(Date.UTC(2031, 8, 10, 8));
          const during = await a.json<Detail>('GET', `/events/${kind}/${kept.id}`);
          assert.equal(during.status, 'In Progress');
          assert.equal(during.inProgress, true);
          assert.equal((during.sessions as { inProgress: number }[])[0]?.inProgress, 1);
          assert.deepEqual(await ids('archived'), []);
          clock.set(Date.UTC(2031, 8, 11));
          const done = await a.json<Detail>('GET', `/events/${kind}/${archived.id}`);
          assert.equal(done.status, 'Completed');
          assert.equal(done.completed, true);
          assert.equal(done.archived, true);
          assert.equal(done.active, false);
          assert.deepEqual(await ids('archived'), [archived.id]);
          assert.deepEqual(await ids('active'), [kept.id]);
        } finally {
          clock.reset();
        }
      });

      it('deletes: then 404, and an id of the other kind is 404 too', async () => {
        const created = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind));
        const other = kind === 'ilt' ? 'vc' : 'ilt';
        assert.equal((await a.call('GET', `/events/${other}/${created.id}`)).status, 404);
        assert.equal((await a.call('DELETE', `/events/${other}/${created.id}`)).status, 404);
        const del = await a.json<{ status: number; message: string }>('DELETE', `/events/${kind}/${created.id}`);
        assert.equal(del.status, 200);
        assert.equal(typeof del.message, 'string');
        const gone = await a.call('GET', `/events/${kind}/${created.id}`);
        assert.equal(gone.status, 404);
        assert.equal(((await gone.json()) as ErrorBody).status, 404);
        assert.equal((await a.call('DELETE', `/events/${kind}/${created.id}`)).status, 404);
      });

      it('lists in start order, pages with start/limit, clamps limit, refuses bad numbers and ignores unknown parameters', async () => {
        const b = await academyCaller(server);
        const dates = ['07/05/2031', '07/01/2031', '07/03/2031', '07/01/2031'];
        const ids: number[] = [];
        for (const d of dates) ids.push((await b.json<Detail>('POST', `/events/${kind}`, eventBody(kind, [d]))).id);
        const expected = [ids[1], ids[3], ids[2], ids[0]];
        const page = async (q: string) =>
          b.json<{ all: number; events: { id: number }[] }>('GET', `/events/${kind}?${q}`);
        assert.deepEqual(
          (await page('')).events.map((e) => e.id),
          expected,
        );
        assert.deepEqual(
          (await page('start=1&limit=2')).events.map((e) => e.id),
          expected.slice(1, 3),
        );
        assert.equal((await page('start=1&limit=2')).all, 4);
        assert.equal((await page('limit=100000')).events.length, 4);
        assert.equal((await page('eventId=3&search=x&onlyCompleted=true')).all, 4);
        for (const q of ['start=-1', 'limit=-5', 'limit=abc', 'start=1.5', 'dateStart=2031-02-30', 'status=gone']) {
          const res = await b.call('GET', `/events/${kind}?${q}`);
          assert.equal(res.status, 400, q);
        }
        assert.deepEqual(
          (await page('dateStart=2031-07-02&dateEnd=2031-07-04')).events.map((e) => e.id),
          [ids[2]],
        );
      });

      it("keeps academies apart: another academy's event is 404 and absent from its list", async () => {
        const created = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind));
        const b = await academyCaller(server);
        assert.equal((await b.call('GET', `/events/${kind}/${created.id}`)).status, 404);
        assert.equal((await b.call('PUT', `/events/${kind}/${created.id}`, eventBody(kind))).status, 404);
        assert.equal((await b.call('DELETE', `/events/${kind}/${created.id}`)).status, 404);
        assert.equal((await b.call('GET', `/events/${kind}/${created.id}/users`)).status, 404);
        assert.equal((await b.json<{ all: number }>('GET', `/events/${kind}`)).all, 0);
        assert.equal((await a.call('GET', `/events/${kind}/${created.id}`)).status, 200);
      });
    });
  }

  describe(`academy auth (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('401 without credentials, with a wrong key, or a key of another academy; X-API-Key header works', async () => {
      const a = await academyCaller(server);
      const b = await academyCaller(server);
      const get = (q: string, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/v1/events/ilt${q}`, { headers });
      for (const q of [
        '',
        `?acadId=${a.acadId}`,
        `?apikey=${a.apikey}`,
        `?acadId=${a.acadId}&apikey=wrong`,
        `?acadId=${b.acadId}&apikey=${a.apikey}`,
        `?acadId=x&apikey=${a.apikey}`,
      ]) {
        const res = await get(q);
        assert.equal(res.status, 401, q);
        const body = (await res.json()) as ErrorBody;
        assert.equal(body.status, 401);
        assert.equal(body.code, 'unauthorized');
      }
      assert.equal((await get(`?acadId=${a.acadId}&apikey=${a.apikey}`)).status, 200);
      assert.equal((await get(`?acadId=${a.acadId}`, { 'X-Api-Key': a.apikey })).status, 200);
      assert.equal((await get(`?acadId=${b.acadId}`, { 'x-api-key': a.apikey })).status, 401);
      const logs = server.logs.join('');
      assert.ok(!logs.includes(a.apikey), 'keys never reach the logs');
    });
  });
}
