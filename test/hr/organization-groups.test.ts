import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Group {
  id: string;
  name: string;
  organizations_ids: string[];
  created_at: string;
  updated_at: string;
}

async function json<T>(res: Response, status: number): Promise<T> {
  const body = (await res.json()) as T;
  assert.equal(res.status, status, JSON.stringify(body));
  return body;
}

for (const dialect of dialects()) {
  describe(`organization groups (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      for (const id of ['a', 'b', 'c'])
        await json(await hr.call('PUT', `/organizations/${id}`, { name: `Org ${id}` }), 201);
    });
    after(() => server.close());

    it('PUT creates (201) and replaces name and members (200), keeping member order', async () => {
      const created = await json<Group>(
        await hr.call('PUT', '/organization_groups/g1', { name: 'Group 1', organizations_ids: ['b', 'a'] }),
        201,
      );
      assert.deepEqual(created.organizations_ids, ['b', 'a']);
      const replaced = await json<Group>(await hr.call('PUT', '/organization_groups/g1', { name: 'Group one' }), 200);
      assert.deepEqual(replaced.organizations_ids, []);
      assert.equal(replaced.name, 'Group one');
      const patched = await json<Group>(
        await hr.call('PATCH', '/organization_groups/g1', { organizations_ids: ['c'] }),
        200,
      );
      assert.deepEqual(patched.organizations_ids, ['c']);
      assert.equal(patched.name, 'Group one');
      assert.deepEqual(await json<Group>(await hr.call('GET', '/organization_groups/g1'), 200), patched);
    });

    it('422 with the index of each unknown or repeated member; nothing is written', async () => {
      const err = await json<{ code: string; errors: { field: string; code: string }[] }>(
        await hr.call('PUT', '/organization_groups/g2', { name: 'G2', organizations_ids: ['a', 'ghost', 'b', 'nope'] }),
        422,
      );
      assert.deepEqual(
        err.errors.map((e) => [e.field, e.code]),
        [
          ['organizations_ids.1', 'not_found'],
          ['organizations_ids.3', 'not_found'],
        ],
      );
      assert.equal((await hr.call('GET', '/organization_groups/g2')).status, 404);
      const dup = await json<{ code: string }>(
        await hr.call('PUT', '/organization_groups/g2', { name: 'G2', organizations_ids: ['a', 'a'] }),
        422,
      );
      assert.equal(dup.code, 'validation_error');
      const rows = await server.app.database.db
        .selectFrom('hr_organization_group_members')
        .selectAll()
        .where('client_id', '=', hr.creds.client_id)
        .where('group_id', '=', 'g2')
        .execute();
      assert.deepEqual(rows, []);
    });

    it('filters groups by member organization and organizations by group', async () => {
      await json(
        await hr.call('PUT', '/organization_groups/g3', { name: 'Third', organizations_ids: ['a', 'c'] }),
        201,
      );
      const groups = await json<Group[]>(await hr.call('GET', '/organization_groups?organization_id=c'), 200);
      assert.deepEqual(groups.map((g) => g.id).sort(), ['g1', 'g3']);
      const byQ = await json<Group[]>(await hr.call('GET', '/organization_groups?q=THI'), 200);
      assert.deepEqual(
        byQ.map((g) => g.id),
        ['g3'],
      );
      const orgs = await json<{ id: string }[]>(await hr.call('GET', '/organizations?organization_group_id=g3'), 200);
      assert.deepEqual(
        orgs.map((o) => o.id),
        ['a', 'c'],
      );
      const unknown = await json<{ errors: { field: string }[] }>(
        await hr.call('GET', '/organizations?organization_group_id=ghost'),
        422,
      );
      assert.equal(unknown.errors[0]?.field, 'organization_group_id');
      const other = await hrCaller(server);
      assert.equal((await other.call('GET', '/organization_groups/g3')).status, 404);
      assert.deepEqual(await json(await other.call('GET', '/organization_groups'), 200), []);
    });
  });
}
