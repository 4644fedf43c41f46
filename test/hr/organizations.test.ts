import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Org {
  id: string;
  name: string;
  parent_organization_id: string | null;
  has_children: boolean;
  city: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

async function json<T>(res: Response, status: number): Promise<T> {
  const body = (await res.json()) as T;
  assert.equal(res.status, status, JSON.stringify(body));
  return body;
}

for (const dialect of dialects()) {
  describe(`organizations (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    const ids = async (query: string) =>
      (await json<Org[]>(await hr.call('GET', `/organizations?per_page=100&${query}`), 200)).map((o) => o.id);
    const count = async (query: string) => {
      const res = await hr.call('HEAD', `/organizations?${query}`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '');
      return Number(res.headers.get('x-total-count'));
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      // root ─┬─ fr ─┬─ fr-hr
      //       │      └─ fr-it ── fr-it-ops
      //       └─ de
      // other (second root)
      for (const [id, parent] of [
        ['root', null],
        ['fr', 'root'],
        ['fr-hr', 'fr'],
        ['fr-it', 'fr'],
        ['fr-it-ops', 'fr-it'],
        ['de', 'root'],
        ['other', null],
      ] as const) {
        await json(
          await hr.call('PUT', `/organizations/${id}`, { name: `Org ${id}`, parent_organization_id: parent }),
          201,
        );
      }
    });
    after(() => server.close());

    it('PUT creates (201) then replaces every attribute (200); GET returns the stored object', async () => {
      const created = await json<Org>(
        await hr.call('PUT', '/organizations/acme', { name: 'Acme', city: 'Paris', description: 'HQ' }),
        201,
      );
      assert.equal(created.id, 'acme');
      assert.equal(created.city, 'Paris');
      assert.equal(created.has_children, false);
      assert.match(created.created_at, DATETIME);
      const replaced = await json<Org>(await hr.call('PUT', '/organizations/acme', { name: 'Acme SA' }), 200);
      assert.equal(replaced.name, 'Acme SA');
      assert.equal(replaced.city, null, 'PUT replaces all attributes');
      assert.equal(replaced.description, null);
      assert.equal(replaced.created_at, created.created_at);
      const fetched = await json<Org>(await hr.call('GET', '/organizations/acme'), 200);
      assert.deepEqual(fetched, replaced);
      const row = await server.app.database.db
        .selectFrom('hr_organizations')
        .selectAll()
        .where('client_id', '=', hr.creds.client_id)
        .where('id', '=', 'acme')
        .executeTakeFirstOrThrow();
      assert.equal(row.name, 'Acme SA');
      assert.equal(row.city, null);
    });

    it('PATCH changes only the attributes sent; 404 for an unknown organization', async () => {
      await json(await hr.call('PUT', '/organizations/patchme', { name: 'Before', city: 'Lyon', country: 'FR' }), 201);
      const patched = await json<Org>(await hr.call('PATCH', '/organizations/patchme', { name: 'After' }), 200);
      assert.equal(patched.name, 'After');
      assert.equal(patched.city, 'Lyon');
      const cleared = await json<Org>(await hr.call('PATCH', '/organizations/patchme', { city: null }), 200);
      assert.equal(cleared.city, null);
      assert.equal(cleared.name, 'After');
      const missing = await json<{ code: string }>(await hr.call('PATCH', '/organizations/nope', { name: 'x' }), 404);
      assert.equal(missing.code, 'not_found');
      const nameless = await json<{ code: string; errors: { field: string }[] }>(
        await hr.call('PATCH', '/organizations/patchme', { name: null }),
        422,
      );
      assert.equal(nameless.errors[0]?.field, 'name');
    });

    it('lists children, descendants, the parent, ancestors and roots', async () => {
      assert.deepEqual(await ids('parent_organization_id=fr'), ['fr-hr', 'fr-it']);
      assert.deepEqual(await ids('parent_organization_id=fr&recursive=true'), ['fr-hr', 'fr-it', 'fr-it-ops']);
      assert.deepEqual(await ids('parent_organization_id=root&recursive=true'), [
        'fr',
        'fr-hr',
        'fr-it',
        'fr-it-ops',
        'de',
      ]);
      assert.deepEqual(await ids('child_organization_id=fr-it-ops'), ['fr-it']);
      assert.deepEqual(await ids('child_organization_id=fr-it-ops&recursive=true'), ['root', 'fr', 'fr-it']);
      assert.deepEqual(await ids('child_organization_id=root'), []);
      const roots = await ids('recursive=false');
      assert.ok(
        roots.includes('root') && roots.includes('other') && !roots.includes('fr'),
        'recursive=false lists only the roots',
      );
      assert.equal(await count('parent_organization_id=root&recursive=true'), 5);
      assert.equal(await count('parent_organization_id=fr'), 2);
      const fr = await json<Org>(await hr.call('GET', '/organizations/fr'), 200);
      assert.equal(fr.has_children, true);
      const leaf = await json<Org>(await hr.call('GET', '/organizations/fr-hr'), 200);
      assert.equal(leaf.has_children, false);
    });

    it('without a parent or child filter, lists every level (recursive defaults to true)', async () => {
      const own = await hrCaller(server);
      const list = async (query: string) => {
        const res = await own.call('GET', `/organizations${query}`);
        return (await json<Org[]>(res, 200)).map((o) => o.id);
      };
      // top ── middle ── bottom, and a second root
      for (const [id, parent] of [
        ['top', null],
        ['middle', 'top'],
        ['bottom', 'middle'],
        ['alone', null],
      ] as const) {
        assert.equal(
          (await own.call('PUT', `/organizations/${id}`, { name: id, parent_organization_id: parent })).status,
          201,
        );
      }
      const every = ['top', 'middle', 'bottom', 'alone'];
      assert.deepEqual(await list(''), every, 'the default lists all levels, in creation order');
      assert.deepEqual(await list('?recursive=true'), every);
      assert.deepEqual(await list('?q=tt'), ['bottom'], 'a filter still applies');
      assert.deepEqual(await list('?recursive=false'), ['top', 'alone']);
      const head = await own.call('HEAD', '/organizations');
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('x-total-count'), '4');
    });

    it('422 for a filter naming an unknown organization; 400 for parent and child together', async () => {
      const err = await json<{ code: string; errors: { field: string; code: string }[] }>(
        await hr.call('GET', '/organizations?parent_organization_id=ghost'),
        422,
      );
      assert.equal(err.code, 'validation_error');
      assert.deepEqual(
        err.errors.map((e) => [e.field, e.code]),
        [['parent_organization_id', 'not_found']],
      );
      const both = await json<{ code: string }>(
        await hr.call('GET', '/organizations?parent_organization_id=fr&child_organization_id=fr-hr'),
        400,
      );
      assert.equal(both.code, 'invalid_request');
    });

    it('refuses a parent that is unknown, the organization itself, or one of its descendants', async () => {
      const cases: [string, unknown, string][] = [
        ['fr', { name: 'x', parent_organization_id: 'ghost' }, 'not_found'],
        ['fr', { name: 'x', parent_organization_id: 'fr' }, 'circular_reference'],
        ['fr', { name: 'x', parent_organization_id: 'fr-it-ops' }, 'circular_reference'],
        ['new-one', { name: 'x', parent_organization_id: 'ghost' }, 'not_found'],
      ];
      for (const [id, body, code] of cases) {
        const err = await json<{ errors: { field: string; code: string; message: string }[] }>(
          await hr.call('PUT', `/organizations/${id}`, body),
          422,
        );
        assert.deepEqual(err.errors, [{ field: 'parent_organization_id', code, message: err.errors[0]?.message }]);
      }
      const patch = await json<{ errors: { code: string }[] }>(
        await hr.call('PATCH', '/organizations/root', { parent_organization_id: 'fr-it' }),
        422,
      );
      assert.equal(patch.errors[0]?.code, 'circular_reference');
      // Nothing changed, nothing half-written.
      assert.equal((await json<Org>(await hr.call('GET', '/organizations/fr'), 200)).name, 'Org fr');
      assert.equal((await hr.call('GET', '/organizations/new-one')).status, 404);
      assert.equal((await json<Org>(await hr.call('GET', '/organizations/root'), 200)).parent_organization_id, null);
      // A legal move works, and the tree follows.
      await json(await hr.call('PATCH', '/organizations/fr-it-ops', { parent_organization_id: 'de' }), 200);
      assert.deepEqual(await ids('parent_organization_id=de'), ['fr-it-ops']);
      assert.equal((await json<Org>(await hr.call('GET', '/organizations/fr-it'), 200)).has_children, false);
    });

    it('q searches code and name, case-insensitively, at least 2 characters', async () => {
      await json(await hr.call('PUT', '/organizations/zeta-labs', { name: 'Zeta Research_Lab 100%' }), 201);
      assert.deepEqual(await ids('q=ZETA'), ['zeta-labs']);
      assert.deepEqual(await ids('q=research'), ['zeta-labs']);
      assert.deepEqual(await ids('q=100%25'), ['zeta-labs']);
      assert.deepEqual(await ids('q=a_r'), [], 'the underscore is literal, not a wildcard');
      assert.equal(await count('q=zeta'), 1);
      const short = await json<{ code: string; message: string }>(await hr.call('GET', '/organizations?q=z'), 400);
      assert.equal(short.code, 'invalid_request');
      assert.match(short.message, /"q"/);
    });

    it('validates the body: 422 with one entry per field', async () => {
      const err = await json<{
        code: string;
        message: string;
        errors: { field: string; code: string; message: string }[];
      }>(
        await hr.call('PUT', '/organizations/bad', { name: 'x'.repeat(256), city: 12, description: 'y'.repeat(256) }),
        422,
      );
      assert.equal(err.code, 'validation_error');
      const byField = Object.fromEntries(err.errors.map((e) => [e.field, e.code]));
      assert.deepEqual(byField, { name: 'too_long', city: 'invalid_type', description: 'too_long' });
      const missing = await json<{ errors: { field: string; code: string }[] }>(
        await hr.call('PUT', '/organizations/bad', { city: 'Paris' }),
        422,
      );
      assert.deepEqual(
        missing.errors.map((e) => [e.field, e.code]),
        [['name', 'required']],
      );
      assert.equal((await hr.call('GET', '/organizations/bad')).status, 404);
    });
  });
}
