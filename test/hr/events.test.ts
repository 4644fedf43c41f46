/**
 * The audit trail (`/events`, reference §4.4; docs/hr-api.md, "Audit events"): every successful write records
 * one event in its own transaction, with its author and the resource as a GET presents it; a rejected write
 * records none. The list filters and pages newest first; the export streams JSON or CSV; the actions are the
 * resources' own declarations; another client's events are not found.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface AuditEvent {
  id: string;
  type: string;
  name: string | null;
  created_at: string;
  actor: { type: string; name: string | null; data: Record<string, unknown> };
  data: Record<string, unknown>;
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

for (const dialect of dialects()) {
  describe(`audit events (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let userId: string;
    const rows = async () =>
      (
        await server.app.database.db.selectFrom('hr_events').select(['client_id', 'type', 'resource_id']).execute()
      ).filter((r) => r.client_id === hr.creds.client_id);
    const events = async (query = '') => json<AuditEvent[]>(await hr.call('GET', `/events?per_page=100&${query}`), 200);

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      const user = await json<{ id: string }>(
        await hr.call('POST', '/users', { firstname: 'Ada', lastname: 'Audit', email: 'ada.audit@example.com' }),
        201,
      );
      userId = user.id;
    });
    after(() => server.close());

    it('records a write with its application, its type and the resource as GET presents it', async () => {
      const res = await hr.call('PUT', '/organizations/ev-root', { name: 'Root', city: 'Lyon' });
      assert.equal(res.status, 201);
      const [event] = await events('resource_id=ev-root');
      assert.ok(event);
      assert.equal(event.type, 'organization.created');
      assert.equal(event.name, 'Root');
      assert.match(event.id, /^[0-9a-f-]{36}$/);
      assert.match(event.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
      assert.deepEqual(event.actor, {
        type: 'application',
        name: 'test app',
        data: { id: hr.creds.application_id, name: 'test app' },
      });
      const current = await json<Record<string, unknown>>(await hr.call('GET', '/organizations/ev-root'), 200);
      assert.deepEqual(event.data, current);
      assert.deepEqual(await json<AuditEvent>(await hr.call('GET', `/events/${event.id}`), 200), event);
      const stored = await rows();
      assert.ok(stored.some((r) => r.type === 'organization.created' && r.resource_id === 'ev-root'));
    });

    it('names the HR user of X-Atrium-User-Id as the actor, and records an update as it is after the write', async () => {
      await json(
        await hr.call('PATCH', '/organizations/ev-root', { city: 'Nantes' }, { 'x-atrium-user-id': userId }),
        200,
      );
      const [event] = await events('resource_id=ev-root&action=updated');
      assert.ok(event);
      assert.equal(event.type, 'organization.updated');
      assert.equal(event.actor.type, 'user');
      assert.equal(event.actor.name, 'Ada Audit');
      assert.deepEqual(event.actor.data, { id: userId, firstname: 'Ada', middlename: null, lastname: 'Audit' });
      assert.equal(event.data.city, 'Nantes');
    });

    it('records nothing for a rejected write', async () => {
      const before = (await rows()).length;
      const res = await hr.call('PATCH', '/organizations/ev-root', { parent_organization_id: 'ev-root' });
      assert.equal(res.status, 422);
      const unknown = await hr.call('PATCH', '/organizations/nowhere', { city: 'X' });
      assert.equal(unknown.status, 404);
      assert.equal((await rows()).length, before);
    });

    it('filters by type, action, resource, actor and date, newest first, and pages with cursors', async () => {
      for (const id of ['ev-a', 'ev-b', 'ev-c', 'ev-d']) {
        assert.equal((await hr.call('PUT', `/organizations/${id}`, { name: `Org ${id}` })).status, 201);
      }
      const all = await events('resource_type=organization');
      const created = all.filter((e) => e.type === 'organization.created').map((e) => e.data.id);
      assert.deepEqual(created, ['ev-d', 'ev-c', 'ev-b', 'ev-a', 'ev-root'], 'newest first');
      assert.deepEqual(
        (await events('actor_type=user')).map((e) => e.type),
        ['organization.updated'],
      );
      assert.deepEqual(
        (await events(`actor_id=${userId}`)).map((e) => e.type),
        ['organization.updated'],
      );
      assert.equal((await events('action=created&resource_type=organization')).length, 5);
      assert.equal((await events('resource_type=employee')).length, 0);
      assert.equal((await events('created_at_until=2000-01-01')).length, 0);
      assert.equal((await events('created_at_since=2000-01-01&resource_type=organization')).length, all.length);

      // Two at a time, following Next-Cursor to the end, gives the same events in the same order.
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: Response = await hr.call(
          'GET',
          `/events?resource_type=organization&per_page=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        assert.equal(res.status, 200);
        seen.push(...((await res.json()) as AuditEvent[]).map((e) => e.id));
        cursor = res.headers.get('next-cursor');
      } while (cursor);
      assert.deepEqual(
        seen,
        all.map((e) => e.id),
      );
      const bad = await hr.call('GET', '/events?created_at_since=yesterday');
      assert.equal(bad.status, 400);
    });

    it('exports the same filters as JSON, or as CSV with Accept: text/csv', async () => {
      const listed = await events('resource_type=organization');
      const exported = await json<Record<string, string>[]>(
        await hr.call('GET', '/events/export?resource_type=organization'),
        200,
      );
      assert.equal(exported.length, listed.length);
      assert.deepEqual(Object.keys(exported[0] ?? {}), [
        'Trigger Type',
        'Trigger',
        'Action',
        'Item Type',
        'Affected Item',
        'Date',
      ]);
      assert.equal(exported[0]?.['Affected Item'], 'Org ev-d');
      assert.match(exported[0]?.Date ?? '', /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
      const res = await hr.call('GET', '/events/export?resource_type=organization&action=updated', undefined, {
        accept: 'text/csv',
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      assert.deepEqual((await res.text()).trim().split('\n'), [
        'Trigger Type,Trigger,Action,Item Type,Affected Item,Date',
        `user,Ada Audit,updated,organization,Root,${exported.find((e) => e.Action === 'updated')?.Date}`,
      ]);
      assert.equal((await hr.call('GET', '/events/export?created_at_until=soon')).status, 400);
    });

    it('writes a cell a spreadsheet would run as a formula with a leading quote (CSV injection)', async () => {
      await json(await hr.call('PUT', '/organizations/formula', { name: '=HYPERLINK("http://x.test","y")' }), 201);
      await json(await hr.call('PUT', '/organizations/formula2', { name: '@SUM(A1)' }), 201);
      const res = await hr.call('GET', '/events/export?resource_type=organization&action=created', undefined, {
        accept: 'text/csv',
      });
      const text = await res.text();
      assert.ok(text.includes(`"'=HYPERLINK(""http://x.test"",""y"")"`), text);
      assert.ok(text.includes(",'@SUM(A1),"), text);
      assert.ok(!/,=|,@/.test(text), text);
      // JSON is not a spreadsheet: the names as they are.
      const exported = await json<Record<string, string>[]>(
        await hr.call('GET', '/events/export?resource_type=organization&action=created'),
        200,
      );
      assert.ok(exported.some((e) => e['Affected Item'] === '@SUM(A1)'));
    });

    it('lists the actions of every resource type, from the resources’ declarations', async () => {
      const [app] = await json<
        { application_name: string; resources: { resource_name: string; actions: string[] }[] }[]
      >(await hr.call('GET', '/events/filters/actions'), 200);
      assert.equal(app?.application_name, 'rh2');
      const org = app?.resources.find((r) => r.resource_name === 'organization');
      assert.deepEqual(org?.actions, ['created', 'updated']);
    });

    it('keeps each client’s events to itself', async () => {
      const [mine] = await events();
      assert.ok(mine);
      assert.equal((await other.call('GET', `/events/${mine.id}`)).status, 404);
      assert.deepEqual(await json(await other.call('GET', '/events'), 200), []);
      assert.deepEqual(await json(await other.call('GET', '/events/export'), 200), []);
    });
  });
}
