import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller, type Detail, eventBody } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface Bundle {
  status: number;
  lastEvent: string;
  addedOffers: string[];
  message: string;
}

const KINDS = ['ilt', 'vc'] as const;

async function status(
  res: Response,
): Promise<{ status: number; body: { status: number; message: string; errors?: { field: string }[] } }> {
  return {
    status: res.status,
    body: (await res.json()) as { status: number; message: string; errors?: { field: string }[] },
  };
}

function dates(n: number, year = 2032): { date: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(year, 0, 1 + i));
    return {
      date: `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`,
    };
  });
}

for (const dialect of dialects()) {
  for (const kind of KINDS) {
    describe(`academy bundles and offers: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
      });
      after(() => server.close());

      it('converts to a bundle: offers copy the event onto each date with its session times', async () => {
        const main = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['05/04/2031', '05/05/2031'], { bundleTitle: 'Spring series' }),
        );
        const res = await a.json<Bundle>('PUT', `/events/${kind}/${main.id}/convertToBundle`, {
          canMulti: 'all',
          customOffers: [{ date: '06/10/2031' }, { date: '06/01/2031' }],
        });
        assert.deepEqual(res, {
          status: 200,
          lastEvent: '06/10/2031',
          addedOffers: ['06/10/2031', '06/01/2031'],
          message: res.message,
        });
        const offers = await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers`);
        assert.equal(offers.length, 3);
        assert.equal(offers[0]?.id, main.id, 'main first');
        const june10 = offers[1] as Detail;
        assert.deepEqual(
          (june10.sessions as { date: string; from: string; to: string }[]).map((s) => [s.date, s.from, s.to]),
          [
            ['06/10/2031', '09:00 AM', '05:00 PM'],
            ['06/11/2031', '09:00 AM', '05:00 PM'],
          ],
        );
        assert.equal(june10.bundleTitle, 'Spring series');
        assert.equal(june10.canMulti, 1);
        assert.equal(june10.canMultiReadable, 'Users must attend all offers of this bundle.');
        const detail = await a.json<Detail>('GET', `/events/${kind}/${main.id}`);
        assert.equal(detail.canMulti, 1);
        // GET addOffers (the official client's call) lists the same offers.
        assert.deepEqual(
          (await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/addOffers`)).map((o) => o.id),
          offers.map((o) => o.id),
        );
        // Offers appear in event lists like any other event.
        const list = await a.json<{ events: { id: number }[] }>(
          'GET',
          `/events/${kind}?dateStart=2031-06-01&dateEnd=2031-06-30`,
        );
        assert.deepEqual(
          list.events.map((e) => e.id).sort(),
          offers
            .slice(1)
            .map((o) => o.id)
            .sort(),
        );
        // search filters the offers by name; limit is at most 20.
        assert.equal(
          (await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers?search=nothing+like+it`)).length,
          0,
        );
        assert.equal((await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers?search=Workshop`)).length, 3);
        const added = await a.json<Bundle>('PUT', `/events/${kind}/${main.id}/addOffers`, { customOffers: dates(25) });
        assert.equal(added.addedOffers.length, 25);
        assert.equal(added.lastEvent, '01/25/2032');
        assert.equal((await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers?limit=100`)).length, 20);
        assert.equal((await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers?start=20&limit=100`)).length, 8);
      });

      it('canMulti, mustRetake and retakeEvery (alias attendEvery) rules', async () => {
        const make = async () => (await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind))).id;
        const put = async (id: number, body: unknown) =>
          status(await a.call('PUT', `/events/${kind}/${id}/convertToBundle`, body));
        const one = [{ date: '08/01/2031' }];
        let r = await put(await make(), { canMulti: 'yes', customOffers: one });
        assert.equal(r.status, 400);
        assert.deepEqual(
          r.body.errors?.map((e) => e.field),
          ['mustRetake'],
        );
        r = await put(await make(), { canMulti: 'yes', mustRetake: true, customOffers: one });
        assert.deepEqual(
          r.body.errors?.map((e) => e.field),
          ['retakeEvery'],
        );
        r = await put(await make(), { canMulti: 'maybe', customOffers: one });
        assert.deepEqual(
          r.body.errors?.map((e) => e.field),
          ['canMulti'],
        );
        r = await put(await make(), { canMulti: 'no', customOffers: [{ date: '13/01/2031' }] });
        assert.deepEqual(
          r.body.errors?.map((e) => e.field),
          ['customOffers.0.date'],
        );
        const alias = await make();
        assert.equal(
          (await put(alias, { canMulti: 'yes', mustRetake: true, attendEvery: 6, customOffers: one })).status,
          200,
        );
        const d = await a.json<Detail>('GET', `/events/${kind}/${alias}`);
        assert.equal(d.retakeEvery, 6);
        assert.equal(d.canMulti, 1);
        assert.equal(d.canMultiReadable, 'Users may attend several offers of this bundle.');
        const no = await make();
        assert.equal(
          (await put(no, { canMulti: 'no', mustRetake: true, customOffers: one })).status,
          200,
          'mustRetake ignored unless yes',
        );
        const noDetail = await a.json<Detail>('GET', `/events/${kind}/${no}`);
        assert.equal(noDetail.canMulti, 0);
        assert.equal(noDetail.canMultiReadable, 'Users may attend only one offer of this bundle.');
        assert.equal(noDetail.retakeEvery, 0);
        assert.equal((await put(no, { canMulti: 'no', customOffers: one })).status, 409, 'already a bundle');
      });

      it('only registration-based events can be converted or receive offers', async () => {
        const invite = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, undefined, { based: 1 }));
        assert.equal(invite.invitationBased, true);
        const conv = await status(
          await a.call('PUT', `/events/${kind}/${invite.id}/convertToBundle`, {
            canMulti: 'no',
            customOffers: [{ date: '08/01/2031' }],
          }),
        );
        assert.equal(conv.status, 400);
        assert.match(conv.body.message, /registration-based/);
        const add = await status(
          await a.call('PUT', `/events/${kind}/${invite.id}/addOffers`, { customOffers: [{ date: '08/01/2031' }] }),
        );
        assert.equal(add.status, 400);
        const single = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind));
        assert.equal(
          (await a.call('PUT', `/events/${kind}/${single.id}/addOffers`, { customOffers: [{ date: '08/01/2031' }] }))
            .status,
          409,
        );
        const offers = await a.json<Detail[]>('GET', `/events/${kind}/${single.id}/offers`);
        assert.deepEqual(
          offers.map((o) => o.id),
          [single.id],
          'only the event itself when not bundled',
        );
      });

      it('addOffers: at most 60 per request (400) and 6000 per event (409), atomically under parallel requests', async () => {
        const main = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind));
        await a.json<Bundle>('PUT', `/events/${kind}/${main.id}/convertToBundle`, {
          canMulti: 'yes',
          mustRetake: false,
          customOffers: dates(60),
        });
        const tooMany = await status(
          await a.call('PUT', `/events/${kind}/${main.id}/addOffers`, { customOffers: dates(61) }),
        );
        assert.equal(tooMany.status, 400);
        assert.match(tooMany.body.message, /60/);
        // Fill up to 5,910 offers directly, then race 6 requests of 60 for the last 90 places.
        const db = server.app.database.db;
        const row = await db
          .selectFrom('academy_events')
          .selectAll()
          .where('id', '=', main.id)
          .executeTakeFirstOrThrow();
        const { id: _id, ...copy } = row;
        for (let i = 0; i < 5850; i += 250) {
          await db
            .insertInto('academy_events')
            .values(Array.from({ length: Math.min(250, 5850 - i) }, () => ({ ...copy, bundle_id: main.id })))
            .execute();
        }
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            a.call('PUT', `/events/${kind}/${main.id}/addOffers`, { customOffers: dates(60, 2040 + i) }),
          ),
        );
        const codes = results.map((r) => r.status).sort();
        assert.deepEqual(codes, [200, 409, 409, 409, 409, 409]);
        const bodies = await Promise.all(results.map((r) => r.json() as Promise<{ message: string }>));
        assert.ok(bodies.some((b) => /6000/.test(b.message)));
        const count = await db
          .selectFrom('academy_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('bundle_id', '=', main.id)
          .where('id', '!=', main.id)
          .executeTakeFirstOrThrow();
        assert.equal(Number(count.n), 5970);
        const last = await status(
          await a.call('PUT', `/events/${kind}/${main.id}/addOffers`, { customOffers: dates(31, 2050) }),
        );
        assert.equal(last.status, 409);
        assert.equal(
          (await a.call('PUT', `/events/${kind}/${main.id}/addOffers`, { customOffers: dates(30, 2050) })).status,
          200,
        );
      });

      it('deleting a bundle deletes its offers', async () => {
        const main = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind));
        await a.json<Bundle>('PUT', `/events/${kind}/${main.id}/convertToBundle`, {
          canMulti: 'no',
          customOffers: dates(2, 2033),
        });
        const ids = (await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers`)).map((o) => o.id);
        await a.json('DELETE', `/events/${kind}/${main.id}`);
        for (const id of ids) assert.equal((await a.call('GET', `/events/${kind}/${id}`)).status, 404);
      });
    });

    describe(`academy registrations and attendance: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
      });
      after(() => server.close());

      const register = (id: number, userIds: number[]) => a.call('POST', `/events/${kind}/${id}/users`, { userIds });
      const update = (id: number, userId: number, body: unknown) =>
        a.call('PUT', `/events/${kind}/${id}/users/${userId}`, body);

      it('registers with or without approval, waitlists or refuses beyond the seats, and every counter follows', async () => {
        const auto = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['10/01/2031'], { autoApproved: true, attendees: 2, blockReservations: true }),
        );
        const res = await register(auto.id, [101, 102, 103]);
        assert.equal(res.status, 201);
        const regs = ((await res.json()) as { registrations: { userId: number; approved: string; state: string }[] })
          .registrations;
        assert.deepEqual(
          regs.map((r) => [r.userId, r.approved, r.state]),
          [
            [101, 'Yes', 'registered'],
            [102, 'Yes', 'registered'],
            [103, 'No', 'waitlisted'],
          ],
        );
        let d = await a.json<Detail>('GET', `/events/${kind}/${auto.id}`);
        assert.deepEqual(
          [d.registered, d.attendeesYes, d.attendeesPending, d.waitlisted, d.seatsAvailable, d.maxed],
          [2, 2, 0, 1, 0, true],
        );
        // Cancelling a seat hands it to the waiting list.
        assert.equal((await update(auto.id, 102, { status: 'cancelled' })).status, 200);
        d = await a.json<Detail>('GET', `/events/${kind}/${auto.id}`);
        assert.deepEqual([d.registered, d.cancelled, d.waitlisted, d.maxed], [2, 1, 0, true]);
        // Completed and absent.
        assert.equal((await update(auto.id, 101, { status: 'completed', timeSpentInMinutes: 470 })).status, 200);
        assert.equal((await update(auto.id, 103, { status: 'absent' })).status, 200);
        const list = await a.json<{ events: Record<string, number>[] }>(
          'GET',
          `/events/${kind}?dateStart=2031-10-01&dateEnd=2031-10-01`,
        );
        const item = list.events.find((e) => e.id === auto.id) as Record<string, number>;
        assert.deepEqual(
          [
            item.attendeesNr,
            item.attendees_yes,
            item.registered,
            item.completed,
            item.absent,
            item.cancelled,
            item.waitlisted,
            item.available_seats,
          ],
          [2, 2, 2, 1, 1, 1, 0, 0],
        );
        if (kind === 'vc') assert.equal(item.attendance_duration, 470);

        const manual = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['10/02/2031'], { attendees: 1 }),
        );
        const pending = (await (await register(manual.id, [104])).json()) as { registrations: { approved: string }[] };
        assert.equal(pending.registrations[0]?.approved, 'No');
        assert.equal((await a.json<Detail>('GET', `/events/${kind}/${manual.id}`)).attendeesPending, 1);
        const full = await status(await register(manual.id, [105]));
        assert.equal(full.status, 409, 'full, and the waiting list is off');
        assert.match(full.body.message, /full/);
        await update(manual.id, 104, { status: 'approved' });
        const m = await a.json<Detail>('GET', `/events/${kind}/${manual.id}`);
        assert.deepEqual([m.attendeesYes, m.attendeesPending], [1, 0]);
        const unknown = await status(await register(manual.id, [999]));
        assert.equal(unknown.status, 400);
        assert.deepEqual(
          unknown.body.errors?.map((e) => e.field),
          ['userIds.0'],
        );
      });

      it('closes registration registrationDeadline hours before the start', async () => {
        const ev = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['11/20/2031'], { registrationDeadline: 48 }),
        );
        const start = Date.UTC(2031, 10, 20, 7);
        const clock = server.app.services.clock;
        try {
          clock.set(start - 47 * 3_600_000);
          const late = await status(await register(ev.id, [101]));
          assert.equal(late.status, 409);
          assert.match(late.body.message, /closed/);
          clock.set(start - 49 * 3_600_000);
          assert.equal((await register(ev.id, [101])).status, 201);
        } finally {
          clock.reset();
        }
      });

      it('applies canMulti across offers: no allows one offer, all registers to every offer', async () => {
        const no = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['12/01/2031']));
        await a.json('PUT', `/events/${kind}/${no.id}/convertToBundle`, {
          canMulti: 'no',
          customOffers: [{ date: '12/08/2031' }],
        });
        const [, offer] = await a.json<Detail[]>('GET', `/events/${kind}/${no.id}/offers`);
        assert.equal((await register(no.id, [101])).status, 201);
        const second = await status(await register((offer as Detail).id, [101]));
        assert.equal(second.status, 409);
        assert.match(second.body.message, /canMulti/);

        const all = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['12/02/2031']));
        await a.json('PUT', `/events/${kind}/${all.id}/convertToBundle`, {
          canMulti: 'all',
          customOffers: [{ date: '12/09/2031' }, { date: '12/16/2031' }],
        });
        const offers = await a.json<Detail[]>('GET', `/events/${kind}/${all.id}/offers`);
        assert.equal((await register((offers[1] as Detail).id, [102])).status, 201);
        for (const o of await a.json<Detail[]>('GET', `/events/${kind}/${all.id}/offers`)) {
          assert.equal(o.registered, 1, `offer ${o.id}`);
        }
      });

      it('lists participants (onlyCompleted with certificate_date) and attendance on both paths', async () => {
        const athens = server.app.services.timezones.idOf('Europe/Athens') as number;
        const ev = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['07/07/2031'], {
            timezoneId: athens,
            autoApproved: true,
            schooxInstructors: [{ id: 105, isPrimary: true }],
          }),
        );
        await register(ev.id, [101, 102, 103]);
        const clock = server.app.services.clock;
        try {
          clock.set(Date.UTC(2031, 6, 7, 15));
          await update(ev.id, 101, { status: 'completed', timeSpentInMinutes: 400 });
        } finally {
          clock.reset();
        }
        await update(ev.id, 102, { timeSpentInMinutes: 90 });
        const p = await a.json<Record<string, unknown>>('GET', `/events/${kind}/${ev.id}/users`);
        assert.equal(p.title, ev.title);
        assert.equal(p.start_date, '2031-07-07T09:00:00+03:00');
        assert.equal(p.end_date, '2031-07-07T17:00:00+03:00');
        assert.equal(p.users_count, 3);
        assert.deepEqual(
          (p.instructors as { id: number }[]).map((i) => i.id),
          [105],
        );
        const users = p.users as Record<string, unknown>[];
        assert.deepEqual(
          users.map((u) => [u.id, u.approved]),
          [
            [101, 'Yes'],
            [102, 'Yes'],
            [103, 'Yes'],
          ],
        );
        assert.equal(users[0]?.preferred_name, 'Countess');
        assert.equal('certificate_date' in (users[0] as object), false);
        const done = await a.json<{ users_count: number; users: Record<string, unknown>[] }>(
          'GET',
          `/events/${kind}/${ev.id}/users?onlyCompleted=true`,
        );
        assert.equal(done.users_count, 1);
        assert.equal(done.users[0]?.certificate_date, '2031-07-07T18:00:00+03:00');
        const paged = await a.json<{ users: unknown[] }>('GET', `/events/${kind}/${ev.id}/users?start=1&limit=1`);
        assert.equal(paged.users.length, 1);
        for (const path of ['users-attendance-data', 'usersAttendanceData']) {
          const att = await a.json<{ usersAttendanceData: Record<string, unknown>[] }>(
            'GET',
            `/events/${kind}/${ev.id}/${path}`,
          );
          assert.deepEqual(
            att.usersAttendanceData.map((u) => [u.userId, u.timeSpentInMinutes]),
            [
              [101, 400],
              [102, 90],
              [103, 0],
            ],
          );
          const found = await a.json<{ usersAttendanceData: { userId: number }[] }>(
            'GET',
            `/events/${kind}/${ev.id}/${path}?search=turing`,
          );
          assert.deepEqual(
            found.usersAttendanceData.map((u) => u.userId),
            [102],
          );
          const spaced = await a.json<{ usersAttendanceData: { userId: number }[] }>(
            'GET',
            `/events/${kind}/${ev.id}/${path}?search=Count+ess`,
          );
          assert.deepEqual(spaced.usersAttendanceData, [], '+ is read as a space');
        }
        const limitBad = await a.call('GET', `/events/${kind}/${ev.id}/users?limit=-1`);
        assert.equal(limitBad.status, 400);
      });

      it('cancels an event (status=canceled, not active) and serves a calendar file with customCalMessage', async () => {
        const ev = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['03/03/2032'], { customCalMessage: 'Bring your badge; see you there' }),
        );
        const ics = await a.call('GET', `/events/${kind}/${ev.id}/calendar`);
        assert.equal(ics.status, 200);
        assert.match(ics.headers.get('content-type') ?? '', /text\/calendar/);
        const text = await ics.text();
        assert.match(text, /DESCRIPTION:Bring your badge\\; see you there/);
        assert.match(text, /DTSTART:20320303T070000Z/);
        const canceled = await a.json<Detail>('PUT', `/events/${kind}/${ev.id}/cancel`);
        assert.equal(canceled.canceled, true);
        assert.equal(canceled.status, 'Canceled');
        assert.equal(canceled.active, false);
        const ids = async (s: string) =>
          (
            await a.json<{ events: { id: number }[] }>(
              'GET',
              `/events/${kind}?status=${s}&dateStart=2032-03-03&dateEnd=2032-03-03`,
            )
          ).events.map((e) => e.id);
        assert.deepEqual(await ids('canceled'), [ev.id]);
        assert.deepEqual(await ids('active'), []);
        assert.equal((await register(ev.id, [101])).status, 409);
      });
    });
  }
}
