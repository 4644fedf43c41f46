import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller, type Detail, eventBody } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface ErrorBody {
  status: number;
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

interface UserEvent {
  eventId: number;
  kind: string;
  userId: number;
  approved: string;
  state: string;
  timeSpentInMinutes: number;
  certificate_date: string | null;
}

const KINDS = ['ilt', 'vc'] as const;

async function errorOf(res: Response, status: number): Promise<ErrorBody> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(text) as ErrorBody;
  assert.equal(body.status, status, 'the body repeats the status');
  assert.equal(typeof body.code, 'string', 'a code');
  assert.equal(typeof body.message, 'string', 'a message');
  return body;
}

for (const dialect of dialects()) {
  for (const kind of KINDS) {
    describe(`academy compatibility with real clients: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
      });
      after(() => server.close());

      it('k[]=v array syntax is read as k=v on any /v1 query string', async () => {
        const ids: number[] = [];
        for (const d of ['08/01/2033', '08/02/2033', '08/03/2033']) {
          ids.push((await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, [d]))).id);
        }
        const list = (q: string) =>
          a.json<{ all: number; events: { id: number }[] }>(
            'GET',
            `/events/${kind}?dateStart[]=2033-08-01&dateEnd=2033-08-31&${q}`,
          );
        assert.deepEqual(
          (await list('start[]=1&limit[]=1')).events.map((e) => e.id),
          [ids[1]],
        );
        assert.equal((await list('status[]=active&unknown[]=x&other[]=1&other[]=2')).all, 3);
        assert.equal((await list('status[]=canceled')).all, 0);
        // Two values of a scalar parameter are refused, bracketed or not.
        assert.equal((await a.call('GET', `/events/${kind}?limit[]=1&limit[]=2`)).status, 400);
        assert.equal((await a.call('GET', `/events/${kind}?limit=1&limit[]=2`)).status, 400);
        // The credentials too.
        const res = await fetch(`${server.url}/v1/events/${kind}?acadId[]=${a.acadId}&apikey[]=${a.apikey}`);
        assert.equal(res.status, 200);
      });

      it("GET /users/{eventid}/events?userIds[]=… (Spazz): each requested user's registration to the event", async () => {
        const ev = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['09/01/2033'], { autoApproved: true, attendees: 2, blockReservations: true }),
        );
        assert.equal(
          (await a.call('POST', `/events/${kind}/${ev.id}/users`, { userIds: [101, 102, 103] })).status,
          201,
        );
        assert.equal(
          (await a.call('PUT', `/events/${kind}/${ev.id}/users/102`, { status: 'cancelled' })).status,
          200,
          '103 takes the freed seat',
        );
        assert.equal((await a.call('POST', `/events/${kind}/${ev.id}/users`, { userIds: [104] })).status, 201);
        const ask = (q: string) => a.json<UserEvent[]>('GET', `/users/${ev.id}/events?${q}`);
        const found = await ask('userIds[]=104&userIds[]=102&userIds[]=101&userIds[]=103&userIds[]=105');
        assert.deepEqual(
          found.map((r) => [r.userId, r.state, r.approved]),
          [
            [104, 'waitlisted', 'No'],
            [101, 'registered', 'Yes'],
            [103, 'registered', 'Yes'],
          ],
          'in the order asked; the cancelled (102) and the unregistered (105) users are left out',
        );
        for (const r of found) {
          assert.equal(r.eventId, ev.id);
          assert.equal(r.kind, kind, 'either kind is served on the same path');
          assert.equal(r.timeSpentInMinutes, 0);
          assert.equal(r.certificate_date, null);
        }
        assert.deepEqual(
          (await ask('userIds[]=101')).map((r) => r.userId),
          [101],
          'a single bracketed id',
        );
        assert.deepEqual(
          (await ask('userIds=103&userIds=101&userIds=101')).map((r) => r.userId),
          [103, 101],
          'plain repeated keys work too; each user once',
        );
        assert.deepEqual(await ask('userIds[]=105&foo=bar'), [], 'nobody registered: an empty array');
        const eleven = Array.from({ length: 11 }, (_, i) => `userIds[]=${101 + i}`).join('&');
        const tooMany = await errorOf(await a.call('GET', `/users/${ev.id}/events?${eleven}`), 400);
        assert.deepEqual(
          tooMany.errors?.map((e) => e.field),
          ['userIds'],
        );
        await errorOf(await a.call('GET', `/users/${ev.id}/events`), 400);
        await errorOf(await a.call('GET', `/users/${ev.id}/events?userIds[]=x`), 400);
        await errorOf(await a.call('GET', '/users/99999/events?userIds[]=101'), 404);
        // The directory's GET /users/{id} is untouched.
        assert.equal((await a.json<{ id: number }>('GET', '/users/101')).id, 101);
      });

      it('+ in a search is a space: offers by title, attendance by user name', async () => {
        const main = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['10/01/2033'], { title: 'Alpha Beta workshop', autoApproved: true }),
        );
        await a.json('PUT', `/events/${kind}/${main.id}/convertToBundle`, {
          canMulti: 'yes',
          mustRetake: false,
          customOffers: [{ date: '10/08/2033' }],
        });
        const offers = (q: string) => a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers?${q}`);
        assert.equal((await offers('search=Alpha+Beta')).length, 2, '+ decoded as a space matches');
        assert.equal((await offers('search=alpha%20beta')).length, 2);
        assert.equal((await offers('search=Alpha%2BBeta')).length, 0, 'an encoded + is a literal plus');

        const at = Date.now();
        await server.app.database.db
          .insertInto('academy_users')
          .values({
            academy_id: a.acadId,
            id: 150,
            firstname: 'Mary Ann',
            middlename: null,
            lastname: 'Evans',
            preferred_name: null,
            email: 'mary.ann@example.test',
            role: 'employee',
            active: 1,
            external_id: null,
            hired_date: null,
            joined_date: null,
            image: null,
            units: '[]',
            created_at: at,
            updated_at: at,
          })
          .execute();
        assert.equal((await a.call('POST', `/events/${kind}/${main.id}/users`, { userIds: [101, 150] })).status, 201);
        for (const path of ['users-attendance-data', 'usersAttendanceData']) {
          const att = async (q: string) =>
            (
              await a.json<{ usersAttendanceData: { userId: number }[] }>(
                'GET',
                `/events/${kind}/${main.id}/${path}?${q}`,
              )
            ).usersAttendanceData.map((u) => u.userId);
          assert.deepEqual(await att('search=Mary+Ann'), [150], `${path}: + decoded as a space matches`);
          assert.deepEqual(await att('search=Mary%2BAnn'), [], `${path}: an encoded + is a literal plus`);
        }
      });

      // Passes once the platform refuses U+0000 in every validated string (PostgreSQL cannot store it: 22021).
      it('a NUL character in a body or a query string is a 400 with the academy error body, never a 500', async () => {
        const created = await errorOf(
          await a.call('POST', `/events/${kind}`, eventBody(kind, undefined, { title: 'Bad\u0000title' })),
          400,
        );
        assert.deepEqual(
          created.errors?.map((e) => e.field),
          ['title'],
        );
        const ev = await a.json<Detail>('POST', `/events/${kind}`, eventBody(kind, ['11/01/2033']));
        await errorOf(
          await a.call('PUT', `/events/${kind}/${ev.id}`, eventBody(kind, undefined, { description: 'x\u0000' })),
          400,
        );
        for (const path of ['offers', 'users-attendance-data', 'usersAttendanceData']) {
          await errorOf(await a.call('GET', `/events/${kind}/${ev.id}/${path}?search=%00`), 400);
          await errorOf(await a.call('GET', `/events/${kind}/${ev.id}/${path}?search=a%00b`), 400);
        }
        await errorOf(await a.call('GET', '/users?search=%00'), 400);
        assert.equal((await a.json<Detail>('GET', `/events/${kind}/${ev.id}`)).description, 'Hands-on training');
      });
    });
  }
}
