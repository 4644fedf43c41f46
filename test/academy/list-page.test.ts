/**
 * The events list and the event GET each read in one statement (issue 23): the events, their registrations'
 * counters, their category's name, their venue (and for a GET, the instructors) as subqueries of each row
 * (`listPage` and `findView`, src/academy/events/repository.ts). The offers of an event, and every write's answer,
 * still read these in separate queries (`viewsWith`). Here, on each database:
 * - every item of every list (each kind and status, at three instants of the services' clock) is compared with the
 *   item presented from the GET's view of the same event;
 * - every GET is compared with the event's entry in `GET …/offers`, which reads apart.
 * Another academy holds a category and a venue with the same ids under other names: they must not show.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventListItem } from '../../src/academy/events/present.js';
import { academyTenantId } from '../../src/platform/db/tenant.js';
import { type AcademyCaller, academyCaller, type Detail, eventBody } from '../support/academy.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

type Item = Record<string, unknown> & { id: number };
type Kind = 'ilt' | 'vc';
const STATUSES = ['active', 'archived', 'canceled'] as const;

for (const dialect of dialects()) {
  describe(`events: the one-statement reads equal the reads apart (${dialect})`, () => {
    let server: TestServer;
    let a: AcademyCaller;
    const created: Record<Kind, number[]> = { ilt: [], vc: [] };

    /** The list items of every status, as served. */
    const listed = async (kind: Kind): Promise<Map<string, Item[]>> => {
      const out = new Map<string, Item[]>();
      for (const status of STATUSES) {
        const page = await a.json<{ all: number; events: Item[] }>('GET', `/events/${kind}?status=${status}&limit=100`);
        assert.equal(page.all, page.events.length, `${kind} ${status}: one page holds the whole list`);
        out.set(status, page.events);
      }
      return out;
    };

    /** The item of one event as the GET's view presents it (the registrations, category and venue read apart). */
    const viewed = async (kind: Kind, id: number): Promise<Item> => {
      const view = await server.app.services.events.view(
        { academyId: academyTenantId(a.acadId), superAdminId: a.superAdminId },
        kind,
        id,
      );
      return JSON.parse(JSON.stringify(eventListItem(view))) as Item;
    };

    const compare = async (when: string) => {
      for (const kind of ['ilt', 'vc'] as const) {
        const lists = await listed(kind);
        const seen = [...lists.values()].flat().map((item) => item.id);
        assert.deepEqual(
          [...seen].sort((x, y) => x - y),
          [...created[kind]].sort((x, y) => x - y),
          `${when}, ${kind}: every event is in exactly one of the three lists`,
        );
        for (const [status, items] of lists) {
          for (const item of items) {
            assert.deepEqual(item, await viewed(kind, item.id), `${when}, ${kind} ${status}, event ${item.id}`);
            assert.equal(item.status === 'Canceled', status === 'canceled', `${when}: event ${item.id} in ${status}`);
          }
        }
      }
    };

    before(async () => {
      server = await startServer(dialect);
      a = await academyCaller(server);
      const b = await academyCaller(server);
      const db = server.app.database.db;
      // The other academy's category 10 and venue 700: the same ids as academy A's, other names.
      await db
        .updateTable('academy_categories')
        .set({ name: 'Not this academy' })
        .where('academy_id', '=', b.acadId) // tenant-by-hand: the test writes the other academy's row on purpose.
        .where('id', '=', 10)
        .execute();
      await db
        .updateTable('academy_venues')
        .set({ name: 'Not this hall', city: 'Nowhere' })
        .where('academy_id', '=', b.acadId) // tenant-by-hand: as above.
        .where('id', '=', 700)
        .execute();
      await b.json('POST', '/events/ilt', eventBody('ilt', ['04/19/2031'], { categoryId: 10 }));

      const athens = server.app.services.timezones.idOf('Europe/Athens') as number;
      for (const kind of ['ilt', 'vc'] as const) {
        const add = async (body: Record<string, unknown>) => {
          const event = await a.json<Detail>('POST', `/events/${kind}`, body);
          created[kind].push(event.id);
          return event.id;
        };
        const counted = await add(
          eventBody(kind, ['04/19/2031', '04/21/2031'], {
            categoryId: 10,
            schooxInstructors: [{ id: 103 }, { id: 101, isPrimary: true }, { id: 102 }],
          }),
        );
        const zoned = await add(
          eventBody(kind, ['03/29/2031', '03/31/2031'], {
            timezoneId: athens,
            title: 'Quote " backslash \\ Ünïcödé 🎉 </script>',
            description: 'Line one\nline two\ttab',
          }),
        );
        await add(eventBody(kind, ['05/02/2031'], { autoArchive: true, categoryId: 11 }));
        await add(eventBody(kind, ['05/02/2031'], { timeOffset: -3.5 }));
        const canceled = await add(eventBody(kind, ['06/01/2031'], { categoryId: 12 }));
        await a.json('PUT', `/events/${kind}/${canceled}/cancel`, undefined, 200);
        if (kind === 'ilt') {
          await add({
            ...eventBody(kind, ['06/02/2031']),
            venue: undefined,
            venueSeats: undefined,
            location: 'Somewhere "quoted"',
            marker: { coords: { latitude: 48.85, longitude: 2.35 } },
          });
        }
        const at = Date.now();
        const states = [
          ['registered', 'Yes', 0],
          ['registered', 'Pending', 0],
          ['completed', 'Yes', 95],
          ['absent', 'Yes', 10],
          ['waitlisted', 'Pending', 0],
        ] as const;
        await db
          .insertInto('academy_registrations')
          .values(
            states.map(([state, approval, minutes], i) => ({
              event_id: counted,
              user_id: 101 + i,
              approval,
              state,
              attendance_minutes: minutes,
              registered_at: at,
              completed_at: state === 'completed' ? at : null,
              updated_at: at,
            })),
          )
          .execute();
        await db
          .insertInto('academy_registrations')
          .values({
            event_id: zoned,
            user_id: 101,
            approval: 'Yes',
            state: 'cancelled',
            attendance_minutes: 0,
            registered_at: at,
            completed_at: null,
            updated_at: at,
          })
          .execute();
      }
    });

    after(async () => {
      server.app.services.clock.reset();
      await server.close();
    });

    it('answers what the GET reads, for every event, kind and status, now and as the clock moves', async () => {
      await compare('today');
      // 19 April 2031, 10:00 UTC: the counted event is in progress, the others upcoming.
      server.app.services.clock.set(Date.UTC(2031, 3, 19, 10));
      await compare('during the first event');
      // 2032: every event completed; those with autoArchive are archived.
      server.app.services.clock.set(Date.UTC(2032, 0, 1));
      await compare('after every event');
      server.app.services.clock.reset();
    });

    it("answers each event's GET as its offers read apart, now and as the clock moves", async () => {
      for (const at of [undefined, Date.UTC(2031, 3, 19, 10), Date.UTC(2032, 0, 1)]) {
        if (at === undefined) server.app.services.clock.reset();
        else server.app.services.clock.set(at);
        for (const kind of ['ilt', 'vc'] as const) {
          for (const id of created[kind]) {
            const detail = await a.json<Detail>('GET', `/events/${kind}/${id}`);
            const [apart] = await a.json<Detail[]>('GET', `/events/${kind}/${id}/offers`);
            assert.deepEqual(detail, apart, `${kind} ${id} at ${at ?? 'now'}`);
          }
        }
      }
      server.app.services.clock.reset();
      const counted = await a.json<Detail>('GET', `/events/ilt/${created.ilt[0]}`);
      assert.deepEqual(counted.schooxInstructors, ['101', '103', '102']);
      assert.equal(counted.category, 'Safety');
      assert.equal(counted.location, 'Main Hall');
      assert.deepEqual(JSON.parse(counted.coordinates as string), { latitude: '37.98', longitude: '23.72' });
      assert.deepEqual(
        [
          counted.registered,
          counted.attendeesYes,
          counted.attendeesPending,
          counted.waitlisted,
          counted.seatsAvailable,
        ],
        [4, 3, 1, 1, 16],
      );
    });

    it("shows the counters, this academy's category and venue, and nothing of another academy", async () => {
      const page = await a.json<{ events: Item[] }>('GET', '/events/ilt?limit=100');
      const counted = page.events.find((e) => e.id === created.ilt[0]) as Item;
      assert.equal(counted.category, 'Safety');
      assert.deepEqual(counted.categoryIds, [10]);
      assert.equal(counted.location, 'Main Hall');
      assert.equal(counted.city, 'Athens');
      assert.deepEqual(
        [
          counted.registered,
          counted.attendees_yes,
          counted.attendees_pending,
          counted.completed,
          counted.absent,
          counted.cancelled,
          counted.waitlisted,
          counted.available_seats,
        ],
        [4, 3, 1, 1, 1, 0, 1, 16],
      );
      const vc = await a.json<{ events: Item[] }>('GET', '/events/vc?limit=100');
      assert.equal((vc.events.find((e) => e.id === created.vc[0]) as Item).attendance_duration, 105);
      const text = JSON.stringify([...page.events, ...vc.events]);
      assert.equal(text.includes('Not this'), false);
      assert.equal(text.includes('Nowhere'), false);
    });
  });
}
