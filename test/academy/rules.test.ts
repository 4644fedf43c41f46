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

interface SegmentOut {
  title: string;
  from: string;
  to: string;
  fromTimestamp: number;
  toTimestamp: number;
  upcoming: number;
  inProgress: number;
  completed: number;
}

interface SessionOut {
  topic: string;
  date: string;
  fromTimestamp: number;
  segments?: SegmentOut[];
}

const KINDS = ['ilt', 'vc'] as const;

async function fieldsOf(res: Response, status = 400): Promise<string[]> {
  const body = (await res.json()) as ErrorBody;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.status, status, 'the body repeats the status');
  return (body.errors ?? []).map((e) => e.field);
}

const unix = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m - 1, d, h, min) / 1000;

for (const dialect of dialects()) {
  for (const kind of KINDS) {
    describe(`academy create and edit rules: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
      });
      after(() => server.close());

      it('edit: repeating the create body with both courseId and curriculumId (the course won) is accepted', async () => {
        const body = eventBody(kind, undefined, { courseId: 500, curriculumId: 600, partOfCourse: true });
        const created = await a.json<Detail>('POST', `/events/${kind}`, body);
        assert.equal(created.courseConnected, 500);
        assert.equal(created.curriculumConnected, 0);
        const again = await a.call('PUT', `/events/${kind}/${created.id}`, { ...body, title: 'Same connection' });
        const edited = (await again.json()) as Detail;
        assert.equal(again.status, 200, JSON.stringify(edited));
        assert.equal(edited.title, 'Same connection');
        assert.equal(edited.courseConnected, 500);
        assert.equal(edited.curriculumConnected, 0);
        // Only real changes are refused.
        assert.deepEqual(
          await fieldsOf(await a.call('PUT', `/events/${kind}/${created.id}`, { ...body, courseId: 0 })),
          ['courseId', 'curriculumId'],
          'no course: both the course and the learning path would change',
        );
        const { courseId: _c, ...withoutCourse } = body;
        assert.deepEqual(
          await fieldsOf(await a.call('PUT', `/events/${kind}/${created.id}`, withoutCourse)),
          ['curriculumId'],
          'without the course, curriculumId 600 would be a new connection',
        );
        // A learning-path-connected event: a course in the body is a change, the same curriculumId is not.
        const lpBody = eventBody(kind, undefined, { curriculumId: 600, partOfCurriculum: true });
        const lp = await a.json<Detail>('POST', `/events/${kind}`, lpBody);
        assert.equal((await a.call('PUT', `/events/${kind}/${lp.id}`, lpBody)).status, 200);
        assert.deepEqual(
          await fieldsOf(await a.call('PUT', `/events/${kind}/${lp.id}`, { ...lpBody, courseId: 500 })),
          ['courseId'],
        );
      });

      it('partOfCurriculum is required when editing a learning-path-connected event', async () => {
        const body = eventBody(kind, undefined, { curriculumId: 600 });
        const lp = await a.json<Detail>('POST', `/events/${kind}`, body);
        assert.equal(lp.curriculumConnected, 600);
        assert.equal(lp.partOfCurriculum, false, 'default false');
        const { curriculumId: _c, ...rest } = body;
        assert.deepEqual(await fieldsOf(await a.call('PUT', `/events/${kind}/${lp.id}`, rest)), ['partOfCurriculum']);
        const ok = await a.json<Detail>('PUT', `/events/${kind}/${lp.id}`, { ...rest, partOfCurriculum: true });
        assert.equal(ok.partOfCurriculum, true);
        assert.equal(ok.curriculumConnected, 600);
        assert.equal(ok.categoryId, 12, "the learning path's category");
      });

      it('an unknown curriculumId, and an unknown categoryId on a learning-path-connected event, are 400', async () => {
        assert.deepEqual(
          await fieldsOf(await a.call('POST', `/events/${kind}`, eventBody(kind, undefined, { curriculumId: 6001 }))),
          ['curriculumId'],
        );
        assert.deepEqual(
          await fieldsOf(
            await a.call(
              'POST',
              `/events/${kind}`,
              eventBody(kind, undefined, { curriculumId: 600, categoryId: 9999 }),
            ),
          ),
          ['categoryId'],
        );
        const lp = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, undefined, { curriculumId: 600 }));
        assert.deepEqual(
          await fieldsOf(
            await a.call(
              'PUT',
              `/events/${kind}/${lp.id}`,
              eventBody(kind, undefined, { partOfCurriculum: true, categoryId: 9999 }),
            ),
          ),
          ['categoryId'],
        );
        // An unknown curriculum together with a known course: the course wins, so the event is created.
        const course = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, undefined, { courseId: 500, curriculumId: 6001 }),
        );
        assert.equal(course.courseConnected, 500);
      });

      it('in-class sessions carry segments (title, times, timestamps, state flags), copied onto offers', async () => {
        const segments = [
          { title: 'Introduction', from: t('9:00 AM'), to: t('10:30 AM') },
          { title: 'Lab', from: t('1:00 PM'), to: t('5:00 PM') },
        ];
        const base = eventBody(kind, ['05/10/2033']);
        const list = kind === 'ilt' ? 'days' : 'sessions';
        const day = (base[list] as Record<string, unknown>[])[0] as Record<string, unknown>;
        const withSegments = { ...base, [list]: [{ ...day, segments }] };
        if (kind === 'vc') {
          assert.deepEqual(await fieldsOf(await a.call('POST', '/events/vc', withSegments)), ['sessions.0.segments']);
          const ev = await a.json<Detail>('POST', '/events/vc', base);
          const session = (ev.sessions as SessionOut[])[0] as SessionOut;
          assert.equal(session.topic, 'Day 1');
          assert.equal('segments' in session, false, 'virtual classroom sessions have no segments');
          return;
        }
        const ev = await a.json<Detail>('POST', '/events/ilt', withSegments);
        const session = (ev.sessions as SessionOut[])[0] as SessionOut;
        assert.equal(session.topic, 'Day 1');
        // timeOffset 2: 09:00 local is 07:00 UTC.
        assert.deepEqual(session.segments, [
          {
            title: 'Introduction',
            from: '09:00 AM',
            to: '10:30 AM',
            fromTimestamp: unix(2033, 5, 10, 7),
            toTimestamp: unix(2033, 5, 10, 8, 30),
            upcoming: 1,
            inProgress: 0,
            completed: 0,
          },
          {
            title: 'Lab',
            from: '01:00 PM',
            to: '05:00 PM',
            fromTimestamp: unix(2033, 5, 10, 11),
            toTimestamp: unix(2033, 5, 10, 15),
            upcoming: 1,
            inProgress: 0,
            completed: 0,
          },
        ]);
        const clock = server.app.services.clock;
        try {
          clock.set(Date.UTC(2033, 4, 10, 8));
          const during = await a.json<Detail>('GET', `/events/ilt/${ev.id}`);
          const segs = ((during.sessions as SessionOut[])[0] as SessionOut).segments ?? [];
          assert.deepEqual(
            segs.map((s) => [s.upcoming, s.inProgress, s.completed]),
            [
              [0, 1, 0],
              [1, 0, 0],
            ],
          );
          clock.set(Date.UTC(2033, 4, 10, 12));
          const later = await a.json<Detail>('GET', `/events/ilt/${ev.id}`);
          assert.deepEqual(
            (((later.sessions as SessionOut[])[0] as SessionOut).segments ?? []).map((s) => [
              s.upcoming,
              s.inProgress,
              s.completed,
            ]),
            [
              [0, 0, 1],
              [0, 1, 0],
            ],
          );
        } finally {
          clock.reset();
        }
        await a.json('PUT', `/events/ilt/${ev.id}/convertToBundle`, {
          canMulti: 'no',
          customOffers: [{ date: '05/17/2033' }],
        });
        const [, offer] = await a.json<Detail[]>('GET', `/events/ilt/${ev.id}/offers`);
        const offerSession = ((offer as Detail).sessions as SessionOut[])[0] as SessionOut;
        assert.equal(offerSession.date, '05/17/2033');
        assert.deepEqual(
          offerSession.segments?.map((s) => [s.title, s.from, s.to, s.fromTimestamp, s.toTimestamp]),
          [
            ['Introduction', '09:00 AM', '10:30 AM', unix(2033, 5, 17, 7), unix(2033, 5, 17, 8, 30)],
            ['Lab', '01:00 PM', '05:00 PM', unix(2033, 5, 17, 11), unix(2033, 5, 17, 15)],
          ],
        );
      });
    });

    describe(`academy canMulti across a bundle's offers: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
      });
      after(() => server.close());

      const bundle = async (canMulti: string, extra: Record<string, unknown> = {}) => {
        const main = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['06/01/2033']));
        await a.json('PUT', `/events/${kind}/${main.id}/convertToBundle`, {
          canMulti,
          ...extra,
          customOffers: [{ date: '06/08/2033' }, { date: '06/15/2033' }],
        });
        return (await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers`)).map((o) => o.id);
      };
      const register = (id: number, userIds: number[]) => a.call('POST', `/events/${kind}/${id}/users`, { userIds });
      const registered = async (id: number) => (await a.json<Detail>('GET', `/events/${kind}/${id}`)).registered;

      it('yes: a user may register to several offers, one at a time', async () => {
        const [main, second, third] = (await bundle('yes', { mustRetake: false })) as [number, number, number];
        assert.equal((await register(second, [101])).status, 201);
        assert.equal((await register(third, [101])).status, 201, 'a second offer is allowed');
        assert.equal((await register(main, [101, 102])).status, 201);
        assert.deepEqual(
          [await registered(main), await registered(second), await registered(third)],
          [2, 1, 1],
          'each registration holds a seat on its own offer only',
        );
      });

      it('no: the second offer is refused (409); all: one registration registers to every offer', async () => {
        const [main, second] = (await bundle('no')) as [number, number];
        assert.equal((await register(second, [103])).status, 201);
        const refused = await register(main, [103]);
        const body = (await refused.json()) as ErrorBody;
        assert.equal(refused.status, 409);
        assert.equal(body.code, 'conflict');
        assert.equal(await registered(main), 0, 'the refused registration left nothing behind');

        const all = (await bundle('all')) as number[];
        assert.equal((await register(all[2] as number, [104])).status, 201);
        for (const id of all) assert.equal(await registered(id), 1, `offer ${id}`);
      });
    });

    describe(`academy isolation across academies: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      let b: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
        b = await academyCaller(server);
      });
      after(() => server.close());

      it("another academy's event is 404 on offers, bundles, attendance, registrations, cancel and calendar", async () => {
        const single = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['07/01/2033']));
        const main = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['07/02/2033']));
        await a.json('PUT', `/events/${kind}/${main.id}/convertToBundle`, {
          canMulti: 'no',
          customOffers: [{ date: '07/09/2033' }],
        });
        assert.equal((await a.call('POST', `/events/${kind}/${single.id}/users`, { userIds: [101] })).status, 201);
        const calls: [string, string, unknown?][] = [
          ['GET', `/events/${kind}/${main.id}/offers`],
          ['GET', `/events/${kind}/${main.id}/addOffers`],
          [
            'PUT',
            `/events/${kind}/${single.id}/convertToBundle`,
            { canMulti: 'no', customOffers: [{ date: '08/01/2033' }] },
          ],
          ['PUT', `/events/${kind}/${main.id}/addOffers`, { customOffers: [{ date: '08/01/2033' }] }],
          ['GET', `/events/${kind}/${single.id}/users-attendance-data`],
          ['GET', `/events/${kind}/${single.id}/usersAttendanceData`],
          ['POST', `/events/${kind}/${single.id}/users`, { userIds: [101] }],
          ['PUT', `/events/${kind}/${single.id}/users/101`, { status: 'approved' }],
          ['PUT', `/events/${kind}/${single.id}/cancel`],
          ['GET', `/events/${kind}/${single.id}/calendar`],
          ['GET', `/users/${single.id}/events?userIds[]=101`],
        ];
        for (const [method, path, body] of calls) {
          const res = await b.call(method, path, body);
          const err = (await res.json()) as ErrorBody;
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.equal(err.code, 'not_found', `${method} ${path}`);
        }
        // Nothing changed for the owner.
        const detail = await a.json<Detail>('GET', `/events/${kind}/${single.id}`);
        assert.equal(detail.canceled, false);
        assert.equal(detail.canMulti, 0);
        assert.equal(detail.registered, 1);
        assert.equal(detail.attendeesYes, 0, 'still pending: the other academy could not approve it');
        assert.equal((await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers`)).length, 2);
        for (const [method, path] of calls.filter(([m]) => m === 'GET')) {
          assert.equal((await a.call(method, path)).status, 200, `owner: ${method} ${path}`);
        }
      });
    });
  }
}
