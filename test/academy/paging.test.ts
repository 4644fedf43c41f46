import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller, type Detail, eventBody } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

const KINDS = ['ilt', 'vc'] as const;

/** `n` consecutive dates from 1 March 2033, `MM/DD/YYYY`. */
function dates(n: number, from = 0): { date: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(2033, 2, 1 + from + i));
    return {
      date: `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`,
    };
  });
}

/** Adds users `first`, `first + 1`, … to the academy's directory, straight into the database. */
async function addUsers(server: TestServer, acadId: number, first: number, count: number): Promise<number[]> {
  const at = Date.now();
  const ids = Array.from({ length: count }, (_, i) => first + i);
  await server.app.database.db
    .insertInto('academy_users')
    .values(
      ids.map((id) => ({
        academy_id: acadId,
        id,
        firstname: `User${id}`,
        middlename: null,
        lastname: 'Paging',
        preferred_name: null,
        email: `user${id}@example.test`,
        role: 'employee',
        active: 1,
        external_id: null,
        hired_date: null,
        joined_date: null,
        image: null,
        units: '[]',
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  return ids;
}

for (const dialect of dialects()) {
  for (const kind of KINDS) {
    describe(`academy paging defaults and maximums: ${kind} (${dialect})`, () => {
      let server: TestServer;
      let a: AcademyCaller;
      let main: Detail;
      before(async () => {
        server = await startServer(dialect);
        a = await academyCaller(server);
        // 1 main event + 120 offers = 121 events, all in March–July 2033; 120 users registered to the main event.
        main = await a.json<Detail>(
          'POST',
          `/events/${kind}`,
          eventBody(kind, ['03/01/2033'], { attendees: 200, autoApproved: true }),
        );
        await a.json('PUT', `/events/${kind}/${main.id}/convertToBundle`, {
          canMulti: 'yes',
          mustRetake: false,
          customOffers: dates(60, 1),
        });
        await a.json('PUT', `/events/${kind}/${main.id}/addOffers`, { customOffers: dates(60, 61) });
        const users = await addUsers(server, a.acadId, 1000, 120);
        assert.equal((await a.call('POST', `/events/${kind}/${main.id}/users`, { userIds: users })).status, 201);
      });
      after(() => server.close());

      it('event lists: default limit 20, limit clamped to 100, start pages on', async () => {
        const list = (q: string) =>
          a.json<{ all: number; events: { id: number }[] }>(
            'GET',
            `/events/${kind}?dateStart=2033-03-01&dateEnd=2033-12-31${q}`,
          );
        const first = await list('');
        assert.equal(first.all, 121);
        assert.equal(first.events.length, 20, 'default limit 20');
        assert.equal(first.events[0]?.id, main.id, 'ordered by start date');
        assert.equal((await list('&limit=100')).events.length, 100);
        assert.equal((await list('&limit=101')).events.length, 100, 'clamped to 100, not refused');
        assert.equal((await list('&limit=100000')).events.length, 100);
        const rest = await list('&start=100&limit=1000');
        assert.equal(rest.events.length, 21);
        assert.equal(rest.all, 121);
      });

      it('offers: default limit 20, clamped to 20', async () => {
        const offers = (q: string) => a.json<Detail[]>('GET', `/events/${kind}/${main.id}/offers${q}`);
        assert.equal((await offers('')).length, 20, 'default 20');
        assert.equal((await offers('?limit=100')).length, 20, 'clamped to 20');
        assert.equal((await offers('?start=120&limit=100')).length, 1);
        assert.equal((await a.json<Detail[]>('GET', `/events/${kind}/${main.id}/addOffers`)).length, 20);
      });

      it('participants: default limit 20, clamped to 100', async () => {
        const users = (q: string) =>
          a.json<{ users_count: number; users: { id: number }[] }>('GET', `/events/${kind}/${main.id}/users${q}`);
        const page = await users('');
        assert.equal(page.users_count, 120);
        assert.equal(page.users.length, 20, 'default 20');
        assert.deepEqual(
          page.users.map((u) => u.id),
          Array.from({ length: 20 }, (_, i) => 1000 + i),
          'ordered by id',
        );
        assert.equal((await users('?limit=100')).users.length, 100);
        assert.equal((await users('?limit=500')).users.length, 100, 'clamped to 100');
        assert.equal((await users('?start=100&limit=500')).users.length, 20);
      });

      it('attendance: default limit 20, clamped to 20, on both paths', async () => {
        for (const path of ['users-attendance-data', 'usersAttendanceData']) {
          const att = (q: string) =>
            a.json<{ usersAttendanceData: { userId: number }[] }>('GET', `/events/${kind}/${main.id}/${path}${q}`);
          assert.equal((await att('')).usersAttendanceData.length, 20, `${path}: default 20`);
          assert.equal((await att('?limit=100')).usersAttendanceData.length, 20, `${path}: clamped to 20`);
          const last = await att('?start=110&limit=100');
          assert.deepEqual(
            last.usersAttendanceData.map((u) => u.userId),
            Array.from({ length: 10 }, (_, i) => 1110 + i),
          );
        }
      });

      it('a negative or non-numeric start or limit is a 400 on offers, attendance and users', async () => {
        const paths = ['offers', 'addOffers', 'users', 'users-attendance-data', 'usersAttendanceData'];
        for (const path of paths) {
          for (const q of ['start=-1', 'limit=-5', 'start=abc', 'limit=abc', 'start=1.5', 'limit=2.5', 'limit=']) {
            const res = await a.call('GET', `/events/${kind}/${main.id}/${path}?${q}`);
            const body = (await res.json()) as { status: number; code: string; errors?: { field: string }[] };
            assert.equal(res.status, 400, `${path}?${q}`);
            assert.equal(body.status, 400, `${path}?${q}`);
            assert.equal(body.code, 'validation_error', `${path}?${q}`);
            assert.deepEqual(
              body.errors?.map((e) => e.field),
              [q.split('=')[0]],
              `${path}?${q}`,
            );
          }
          assert.equal((await a.call('GET', `/events/${kind}/${main.id}/${path}?start=0&limit=0`)).status, 200);
        }
      });
    });
  }
}
