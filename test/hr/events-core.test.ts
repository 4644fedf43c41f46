/**
 * The audit events of the core resources (issue 18): users, roles (and their permissions), custom fields,
 * employees, organization groups (and their members) and uploads. Every successful write records exactly one
 * event of its type, by the calling application, with the resource as its GET presents it right after the write;
 * a rejected write records none. The declarations show in `/events/filters/actions`.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { pdf } from '../support/pdf.js';

interface AuditEvent {
  id: string;
  type: string;
  name: string | null;
  created_at: string;
  actor: { type: string; name: string | null; data: Record<string, unknown> };
  data: Record<string, unknown>;
}

type Body = Record<string, unknown>;

async function json<T = Body>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

for (const dialect of dialects()) {
  describe(`audit events of the core resources (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;

    const events = async (query: string) =>
      json<AuditEvent[]>(await hr.call('GET', `/events?per_page=100&${query}`), 200);
    const rowCount = async () => (await server.app.database.db.selectFrom('hr_events').select('id').execute()).length;
    const get = async (path: string) => json(await hr.call('GET', path), 200);

    /**
     * Runs a write and answers its result with the one event it recorded among the events `query` selects (the
     * write must record exactly one).
     */
    async function recorded<T>(query: string, write: () => Promise<T>): Promise<{ result: T; event: AuditEvent }> {
      const seen = new Set((await events(query)).map((e) => e.id));
      const result = await write();
      const fresh = (await events(query)).filter((e) => !seen.has(e.id));
      assert.equal(fresh.length, 1, `one new event for ${query}: ${JSON.stringify(fresh.map((e) => e.type))}`);
      return { result, event: fresh[0] as AuditEvent };
    }

    /** The event of a write: its type, its name, the application as its author, and `data` equal to `current`. */
    function assertEvent(event: AuditEvent, type: string, name: string | null, current: Body): void {
      assert.equal(event.type, type);
      assert.equal(event.name, name);
      assert.equal(event.actor.type, 'application');
      assert.deepEqual(event.actor.data, { id: hr.creds.application_id, name: 'test app' });
      assert.deepEqual(event.data, current);
    }

    /** Writes that must all be refused with `statuses`, leaving `hr_events` as it was. */
    async function rejected(...writes: [Promise<Response>, number][]): Promise<void> {
      const before = await rowCount();
      for (const [call, status] of writes) {
        const res = await call;
        assert.equal(res.status, status, await res.text());
      }
      assert.equal(await rowCount(), before, 'a rejected write records no event');
    }

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      await json(await hr.call('PUT', '/organizations/lyon', { name: 'Lyon', parent_organization_id: 'hq' }), 201);
    });
    after(() => server.close());

    it('records user.created and user.updated (PUT, PATCH) with the user as GET /users/{id} presents it', async () => {
      const created = await recorded('resource_type=user', async () =>
        json(
          await hr.call('POST', '/users', {
            firstname: 'Grace',
            middlename: 'Brewster',
            lastname: 'Hopper',
            email: 'grace@example.com',
          }),
          201,
        ),
      );
      const id = created.result.id as string;
      assertEvent(created.event, 'user.created', 'Grace Brewster Hopper', await get(`/users/${id}`));
      assert.deepEqual(created.event.data, created.result);

      const put = await recorded(`resource_id=${id}`, async () =>
        json(
          await hr.call('PUT', `/users/${id}`, {
            firstname: 'Grace',
            lastname: 'Murray',
            email: 'grace@example.com',
            profiles: [],
          }),
          200,
        ),
      );
      assertEvent(put.event, 'user.updated', 'Grace Murray', await get(`/users/${id}`));

      const patch = await recorded(`resource_id=${id}`, async () =>
        json(await hr.call('PATCH', `/users/${id}`, { timezone: 'Europe/Paris' }), 200),
      );
      assertEvent(patch.event, 'user.updated', 'Grace Murray', await get(`/users/${id}`));
      assert.equal(patch.event.data.timezone, 'Europe/Paris');

      await rejected(
        [hr.call('POST', '/users', { firstname: 'Other', lastname: 'Grace', email: 'grace@example.com' }), 422],
        [hr.call('PATCH', `/users/${randomUUID()}`, { firstname: 'Nobody' }), 404],
        [hr.call('PATCH', `/users/${id}`, { timezone: 'Mars/Olympus' }), 422],
      );
    });

    it('records role.created and role.updated, a write of its permissions included', async () => {
      const created = await recorded('resource_id=ev-role', async () =>
        json(await hr.call('PUT', '/roles/ev-role', { id: 'ev-role', name: 'Auditor' }), 201),
      );
      assertEvent(created.event, 'role.created', 'Auditor', await get('/roles/ev-role'));

      const updated = await recorded('resource_id=ev-role', async () =>
        json(await hr.call('PUT', '/roles/ev-role', { id: 'ev-role', name: 'Chief auditor', description: 'x' }), 200),
      );
      assertEvent(updated.event, 'role.updated', 'Chief auditor', await get('/roles/ev-role'));

      const permissions = await recorded('resource_id=ev-role', async () =>
        json(await hr.call('PUT', '/roles/ev-role/permissions/webhook', { manage_webhooks: true }), 200),
      );
      assertEvent(permissions.event, 'role.updated', 'Chief auditor', await get('/roles/ev-role'));

      await rejected(
        [hr.call('PUT', '/roles/ev-role', { id: 'another', name: 'Mismatch' }), 422],
        [hr.call('PUT', '/roles/nowhere/permissions/webhook', { manage_webhooks: true }), 404],
      );
    });

    it('records custom_field.created and custom_field.updated (PUT, PATCH)', async () => {
      const body = {
        label: 'Team',
        type: 'list',
        authorized_values: [
          { value: 'red', label: 'Red' },
          { value: 'blue', label: 'Blue' },
        ],
      };
      const created = await recorded('resource_id=team', async () =>
        json(await hr.call('PUT', '/custom_fields/team', body), 201),
      );
      assertEvent(created.event, 'custom_field.created', 'Team', await get('/custom_fields/team'));

      const put = await recorded('resource_id=team', async () =>
        json(await hr.call('PUT', '/custom_fields/team', { ...body, label: 'Squad' }), 200),
      );
      assertEvent(put.event, 'custom_field.updated', 'Squad', await get('/custom_fields/team'));

      const patch = await recorded('resource_id=team', async () =>
        json(await hr.call('PATCH', '/custom_fields/team', { default_value: 'blue' }), 200),
      );
      assertEvent(patch.event, 'custom_field.updated', 'Squad', await get('/custom_fields/team'));

      await rejected(
        [hr.call('PATCH', '/custom_fields/team', { type: 'string' }), 422],
        [hr.call('PATCH', '/custom_fields/nowhere', { label: 'X' }), 404],
      );
    });

    it('records organization_group.created and organization_group.updated, a change of members included', async () => {
      const created = await recorded('resource_id=ev-group', async () =>
        json(await hr.call('PUT', '/organization_groups/ev-group', { name: 'Sites', organizations_ids: ['hq'] }), 201),
      );
      assertEvent(created.event, 'organization_group.created', 'Sites', await get('/organization_groups/ev-group'));

      const put = await recorded('resource_id=ev-group', async () =>
        json(await hr.call('PUT', '/organization_groups/ev-group', { name: 'All sites' }), 200),
      );
      assertEvent(put.event, 'organization_group.updated', 'All sites', await get('/organization_groups/ev-group'));

      const members = await recorded('resource_id=ev-group', async () =>
        json(await hr.call('PATCH', '/organization_groups/ev-group', { organizations_ids: ['hq', 'lyon'] }), 200),
      );
      assertEvent(members.event, 'organization_group.updated', 'All sites', await get('/organization_groups/ev-group'));
      assert.deepEqual(members.event.data.organizations_ids, ['hq', 'lyon']);

      await rejected(
        [hr.call('PUT', '/organization_groups/ev-group', { name: 'Bad', organizations_ids: ['nowhere'] }), 422],
        [hr.call('PATCH', '/organization_groups/nowhere', { name: 'X' }), 404],
      );
    });

    it('records employee.created and employee.updated for every write of an employee', async () => {
      const person = {
        firstname: 'Alan',
        lastname: 'Turing',
        email: 'alan@example.com',
        registration_references: [{ organization_id: 'hq', employee_number: 'E1' }],
        custom_fields: [{ code: 'team', value: 'red' }],
      };
      const posted = await recorded('resource_type=employee', async () =>
        json(await hr.call('POST', '/employees', person), 201),
      );
      const id = posted.result.id as string;
      assertEvent(posted.event, 'employee.created', 'Alan Turing', await get(`/employees/${id}`));
      assert.deepEqual(posted.event.data, posted.result);

      const put = await recorded(`resource_id=${id}`, async () =>
        json(await hr.call('PUT', `/employees/${id}`, { ...person, middlename: 'Mathison' }), 200),
      );
      assertEvent(put.event, 'employee.updated', 'Alan Mathison Turing', await get(`/employees/${id}`));

      const patch = await recorded(`resource_id=${id}`, async () =>
        json(
          await hr.call('PATCH', `/employees/${id}`, {
            registration_references: [
              { organization_id: 'hq', employee_number: 'E1', active: false, departure_date: '2026-01-31' },
              { organization_id: 'lyon', employee_number: 'L1' },
            ],
          }),
          200,
        ),
      );
      assertEvent(patch.event, 'employee.updated', 'Alan Mathison Turing', await get(`/employees/${id}`));
      assert.equal((patch.event.data.registration_references as unknown[]).length, 2);

      const chosen = randomUUID();
      const putCreated = await recorded(`resource_id=${chosen}`, async () =>
        json(
          await hr.call('PUT', `/employees/${chosen}`, {
            ...person,
            firstname: 'Joan',
            lastname: 'Clarke',
            email: 'joan@example.com',
            registration_references: [{ organization_id: 'hq', employee_number: 'E2' }],
          }),
          201,
        ),
      );
      assertEvent(putCreated.event, 'employee.created', 'Joan Clarke', await get(`/employees/${chosen}`));

      const synced = { ...person, firstname: 'Tommy', lastname: 'Flowers', email: 'tommy@example.com' };
      synced.registration_references = [{ organization_id: 'lyon', employee_number: 'L2' }];
      const upserted = await recorded('resource_type=employee', async () =>
        json(await hr.call('PUT', '/employees/by_external_id/TF-1', synced), 201),
      );
      const syncedId = upserted.result.id as string;
      assertEvent(upserted.event, 'employee.created', 'Tommy Flowers', await get(`/employees/${syncedId}`));
      const resynced = await recorded(`resource_id=${syncedId}`, async () =>
        json(await hr.call('PUT', '/employees/by_external_id/TF-1', { ...synced, city: 'London' }), 200),
      );
      assertEvent(resynced.event, 'employee.updated', 'Tommy Flowers', await get(`/employees/${syncedId}`));

      await rejected(
        [hr.call('POST', '/employees', { ...person, email: 'x@example.com', registration_references: undefined }), 422],
        [hr.call('PATCH', `/employees/${randomUUID()}`, { city: 'Nowhere' }), 404],
        [hr.call('PUT', '/employees/not-a-uuid', person), 404],
        [hr.call('PATCH', `/employees/${id}`, { custom_fields: [{ code: 'team', value: 'green' }] }), 422],
      );
    });

    it('records upload.created with the upload as POST /uploads answers it (a PDF with its page count)', async () => {
      const upload = async (data: Buffer, filename: string, path = '/uploads') => {
        const form = new FormData();
        form.append('file', new Blob([data]), filename);
        return fetch(`${server.url}/api/v2/client${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hr.token}` },
          body: form,
        });
      };
      const text = await recorded('resource_type=upload', async () =>
        json(await upload(Buffer.from('hello, audit trail\n'), 'notes.txt'), 201),
      );
      assertEvent(text.event, 'upload.created', 'notes.txt', text.result);
      assert.equal(text.event.data.page_count, null);

      const twoPages = await recorded('resource_type=upload', async () =>
        json(await upload(await pdf(2), 'contract.pdf'), 201),
      );
      assertEvent(twoPages.event, 'upload.created', 'contract.pdf', twoPages.result);
      assert.equal(twoPages.event.data.page_count, 2);

      const forDocument = await recorded('resource_type=upload', async () =>
        json<{ filename: string; file_id: string }>(await upload(Buffer.from('scan'), 'scan.bin', '/document'), 201),
      );
      assert.equal(forDocument.event.type, 'upload.created');
      assert.equal(forDocument.event.name, 'scan.bin');
      assert.equal(forDocument.event.data.id, forDocument.result.file_id);

      await rejected([upload(Buffer.alloc(0), 'empty.txt'), 400]);
    });

    it('lists the core resources’ actions in /events/filters/actions', async () => {
      const [app] = await json<{ resources: { resource_name: string; actions: string[] }[] }[]>(
        await hr.call('GET', '/events/filters/actions'),
        200,
      );
      const actions = Object.fromEntries((app?.resources ?? []).map((r) => [r.resource_name, r.actions]));
      for (const resource of ['user', 'role', 'custom_field', 'employee', 'organization_group', 'organization']) {
        assert.deepEqual(actions[resource], ['created', 'updated'], resource);
      }
      assert.deepEqual(actions.upload, ['created']);
    });
  });
}
