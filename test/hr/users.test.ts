import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { dialects, getToken, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Perimeter {
  operator: string;
  organization_id: string | null;
  organization_group_id: string | null;
  custom_field_filters: { custom_field_id: string; operator: string; value: string }[];
}
interface Profile {
  id: string;
  role_id: string;
  employees_perimeter: Perimeter;
}
interface User {
  id: string;
  external_id: string | null;
  firstname: string;
  lastname: string;
  middlename: string | null;
  email: string;
  language: string | null;
  timezone: string | null;
  mobile_phone_number: string | null;
  profiles: Profile[];
  created_at: string;
  updated_at: string;
}
interface Role {
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}
interface ErrorBody {
  code: string;
  message: string;
  errors: { field: string; code: string; message: string }[];
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The field errors of a 422, as [field, code] pairs. */
async function fieldErrors(res: Response): Promise<[string, string][]> {
  const body = await json<ErrorBody>(res, 422);
  assert.equal(body.code, 'validation_error');
  return body.errors.map((e) => [e.field, e.code]);
}

const perimeter = (p: Partial<Perimeter> = {}) => ({ operator: '=', custom_field_filters: [], ...p });
const profile = (role_id: string, p: Partial<Perimeter> = {}) => ({ role_id, employees_perimeter: perimeter(p) });

const CORE_REQUIRED = [
  'view_employees',
  'view_former_employees',
  'view_employees_without_registration_reference',
  'manage_employees',
  'manage_employees_saml_token',
  'delete_employees',
  'export_employee_csv',
  'manage_employee_imports',
  'manage_custom_fields',
  'manage_users',
  'manage_roles',
  'manage_organizations',
  'manage_datasets',
  'view_advanced_analytics',
  'manage_advanced_analytics',
  'view_audit_trail',
  'view_private_custom_fields',
];
const EFM = [
  'manage_settings',
  'view_statistics',
  'manage_document_types_and_folder',
  'create_distribution',
  'manage_distributions',
  'manage_mass_mailings',
  'manage_document_deposit',
  'view_employee_documents',
  'view_company_documents',
  'manage_document_deletion',
  'manage_expired_deletion',
  'generate_documents',
  'manage_document_templates',
  'manage_shared_folders',
  'create_signatures',
  'manage_signatures',
  'manage_legal_holds',
  'manage_third_party_apps',
  'manage_export_invitation_codes',
  'manage_rpa',
];
const allFalse = (names: string[]) => Object.fromEntries(names.map((n) => [n, false]));

for (const dialect of dialects()) {
  describe(`HR users and roles (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let seq = 0;
    const email = (name = 'user') => `${name}.${++seq}@example.com`;
    const db = () => server.app.database.db;
    const userRow = (clientId: string, id: string) =>
      db().selectFrom('hr_users').selectAll().where('client_id', '=', clientId).where('id', '=', id).executeTakeFirst();
    const profileRows = (clientId: string, userId: string) =>
      db()
        .selectFrom('hr_user_profiles')
        .selectAll()
        .where('client_id', '=', clientId)
        .where('user_id', '=', userId)
        .orderBy('position')
        .execute();
    const countUsers = async (clientId: string) =>
      Number(
        (
          await db()
            .selectFrom('hr_users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('client_id', '=', clientId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const create = async (caller: HrCaller, body: Record<string, unknown>) =>
      json<User>(await caller.call('POST', '/users', body), 201);

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      // hq ─┬─ fr ── fr-paris
      //     └─ de
      for (const [id, parent] of [
        ['hq', null],
        ['fr', 'hq'],
        ['fr-paris', 'fr'],
        ['de', 'hq'],
      ] as const) {
        await json(await hr.call('PUT', `/organizations/${id}`, { name: id, parent_organization_id: parent }), 201);
      }
      await json(
        await hr.call('PUT', '/organization_groups/europe', { name: 'Europe', organizations_ids: ['fr', 'de'] }),
        201,
      );
      for (const id of ['payroll-manager', 'hr_admin', 'viewer']) {
        await json(await hr.call('PUT', `/roles/${id}`, { id, name: `Role ${id}` }), 201);
      }
      await json(await other.call('PUT', '/roles/foreign', { id: 'foreign', name: 'Foreign role' }), 201);
      await json(await other.call('PUT', '/organizations/foreign-org', { name: 'Foreign org' }), 201);
      await json(
        await hr.call('PUT', '/custom_fields/department', {
          label: 'Department',
          type: 'list',
          authorized_values: [
            { value: 'it', label: 'IT' },
            { value: 'hr', label: 'HR' },
          ],
          allow_access_restrictions: true,
        }),
        201,
      );
      await json(
        await hr.call('PUT', '/custom_fields/level', {
          label: 'Level',
          type: 'int',
          hierarchical: true,
          authorized_values: [
            { value: '1', label: 'Junior' },
            { value: '2', label: 'Senior' },
            { value: '3', label: 'Principal' },
          ],
          allow_access_restrictions: true,
        }),
        201,
      );
      await json(
        await hr.call('PUT', '/custom_fields/remote', {
          label: 'Remote',
          type: 'bool',
          allow_access_restrictions: true,
        }),
        201,
      );
      await json(await hr.call('PUT', '/custom_fields/nickname', { label: 'Nickname', type: 'string' }), 201);
    });
    after(() => server.close());

    describe('roles', () => {
      it('PUT creates (201) then replaces (200); GET, list and the database agree', async () => {
        const created = await json<Role>(
          await hr.call('PUT', '/roles/team-lead', { id: 'team-lead', name: 'Team lead', description: 'Leads' }),
          201,
        );
        assert.deepEqual(Object.keys(created).sort(), ['created_at', 'description', 'id', 'name', 'updated_at']);
        assert.equal(created.description, 'Leads');
        assert.match(created.created_at, DATETIME);
        const replaced = await json<Role>(
          await hr.call('PUT', '/roles/team-lead', { id: 'team-lead', name: 'Lead' }),
          200,
        );
        assert.equal(replaced.name, 'Lead');
        assert.equal(replaced.description, null, 'PUT replaces every attribute');
        assert.equal(replaced.created_at, created.created_at);
        assert.deepEqual(await json<Role>(await hr.call('GET', '/roles/team-lead'), 200), replaced);
        const list = await json<Role[]>(await hr.call('GET', '/roles?per_page=100'), 200);
        assert.deepEqual(
          list.map((r) => r.id),
          ['payroll-manager', 'hr_admin', 'viewer', 'team-lead'],
        );
        const row = await db()
          .selectFrom('hr_roles')
          .selectAll()
          .where('client_id', '=', hr.creds.client_id)
          .where('id', '=', 'team-lead')
          .executeTakeFirstOrThrow();
        assert.equal(row.name, 'Lead');
        assert.equal(row.description, null);
      });

      it('validates the body: id required, same as the path, letters/digits/_/-; name required', async () => {
        assert.deepEqual(await fieldErrors(await hr.call('PUT', '/roles/r1', { name: 'x' })), [['id', 'required']]);
        assert.deepEqual(await fieldErrors(await hr.call('PUT', '/roles/r1', { id: 'r2', name: 'x' })), [
          ['id', 'mismatch'],
        ]);
        assert.deepEqual(await fieldErrors(await hr.call('PUT', '/roles/r1', { id: 'r 1', name: 'x' })), [
          ['id', 'invalid_format'],
        ]);
        assert.deepEqual(
          await fieldErrors(await hr.call('PUT', '/roles/r1', { id: 'r1', description: 'd'.repeat(1001) })),
          [
            ['name', 'required'],
            ['description', 'too_long'],
          ],
        );
        assert.equal((await hr.call('GET', '/roles/r1')).status, 404);
        assert.equal(
          (await json<ErrorBody>(await hr.call('PUT', '/roles/a%20b', { id: 'a b', name: 'x' }), 404)).code,
          'not_found',
        );
      });

      it('has no PATCH or DELETE (405 with Allow), as the reference', async () => {
        for (const method of ['PATCH', 'DELETE']) {
          const res = await hr.call(method, '/roles/viewer', method === 'PATCH' ? { name: 'x' } : undefined);
          assert.equal((await json<ErrorBody>(res, 405)).code, 'method_not_allowed');
          assert.equal(res.headers.get('allow'), 'GET, HEAD, PUT');
        }
      });

      it('core permissions: all false at first; PUT replaces the document; prerequisites are enforced', async () => {
        await json(await hr.call('PUT', '/roles/perm', { id: 'perm', name: 'Perm' }), 201);
        const initial = await json<Record<string, unknown>>(await hr.call('GET', '/roles/perm/permissions/core'), 200);
        assert.deepEqual(initial, {
          role_id: 'perm',
          ...allFalse(CORE_REQUIRED),
          manage_organization_imports: false,
          manage_retention_policies: false,
        });
        const body = {
          ...allFalse(CORE_REQUIRED),
          view_employees: true,
          manage_employees: true,
          manage_organizations: true,
          manage_organization_imports: true,
          manage_retention_policies: true,
        };
        const put = await json<Record<string, unknown>>(
          await hr.call('PUT', '/roles/perm/permissions/core', body),
          200,
        );
        const { manage_retention_policies: _, ...withoutRetention } = body;
        assert.deepEqual(put, { role_id: 'perm', ...withoutRetention });
        assert.equal('manage_retention_policies' in put, false, 'CorePermissionsFull has no manage_retention_policies');
        const got = await json<Record<string, unknown>>(await hr.call('GET', '/roles/perm/permissions/core'), 200);
        assert.deepEqual(got, { role_id: 'perm', ...body });
        const rows = await db()
          .selectFrom('hr_role_permissions')
          .select(['module', 'permission'])
          .where('client_id', '=', hr.creds.client_id)
          .where('role_id', '=', 'perm')
          .orderBy('permission')
          .execute();
        assert.deepEqual(
          rows.map((r) => `${r.module}.${r.permission}`),
          [
            'core.manage_employees',
            'core.manage_organization_imports',
            'core.manage_organizations',
            'core.manage_retention_policies',
            'core.view_employees',
          ],
        );
        // Optional permissions left out become false.
        await json(
          await hr.call('PUT', '/roles/perm/permissions/core', { ...allFalse(CORE_REQUIRED), view_employees: true }),
          200,
        );
        const after = await json<Record<string, boolean>>(await hr.call('GET', '/roles/perm/permissions/core'), 200);
        assert.equal(after.manage_organization_imports, false);
        assert.equal(after.manage_retention_policies, false);
        assert.equal(after.view_employees, true);

        const missing = { ...allFalse(CORE_REQUIRED) } as Record<string, boolean>;
        delete missing.view_employees;
        assert.deepEqual(await fieldErrors(await hr.call('PUT', '/roles/perm/permissions/core', missing)), [
          ['view_employees', 'required'],
        ]);
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PUT', '/roles/perm/permissions/core', { ...allFalse(CORE_REQUIRED), manage_users: 'yes' }),
          ),
          [['manage_users', 'invalid_type']],
        );
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PUT', '/roles/perm/permissions/core', {
              ...allFalse(CORE_REQUIRED),
              view_former_employees: true,
              manage_employees: true,
              manage_advanced_analytics: true,
              manage_organization_imports: true,
            }),
          ),
          [
            ['view_former_employees', 'not_allowed'],
            ['manage_employees', 'not_allowed'],
            ['manage_advanced_analytics', 'not_allowed'],
            ['manage_organization_imports', 'not_allowed'],
          ],
        );
        // A refused write changes nothing.
        assert.equal(
          (await json<Record<string, boolean>>(await hr.call('GET', '/roles/perm/permissions/core'), 200))
            .view_employees,
          true,
        );
      });

      it('efm, audit and webhook permission documents', async () => {
        await json(await hr.call('PUT', '/roles/docs', { id: 'docs', name: 'Docs' }), 201);
        assert.deepEqual(await json(await hr.call('GET', '/roles/docs/permissions/efm'), 200), {
          role_id: 'docs',
          ...allFalse(EFM),
        });
        const efm = { ...allFalse(EFM), view_employee_documents: true, manage_document_deposit: true };
        assert.deepEqual(await json(await hr.call('PUT', '/roles/docs/permissions/efm', efm), 200), {
          role_id: 'docs',
          ...efm,
        });
        assert.deepEqual(await json(await hr.call('GET', '/roles/docs/permissions/efm'), 200), {
          role_id: 'docs',
          ...efm,
        });
        assert.deepEqual(
          await fieldErrors(await hr.call('PUT', '/roles/docs/permissions/efm', { manage_rpa: true })),
          EFM.filter((n) => n !== 'manage_rpa').map((n) => [n, 'required']),
        );

        assert.deepEqual(await json(await hr.call('GET', '/roles/docs/permissions/audit'), 200), {
          role_id: 'docs',
          view_events: false,
        });
        assert.deepEqual(
          await json(await hr.call('PUT', '/roles/docs/permissions/audit', { view_events: true }), 200),
          {
            role_id: 'docs',
            view_events: true,
          },
        );
        assert.deepEqual(await fieldErrors(await hr.call('PUT', '/roles/docs/permissions/audit', {})), [
          ['view_events', 'required'],
        ]);
        assert.deepEqual(
          await json(await hr.call('PUT', '/roles/docs/permissions/webhook', { manage_webhooks: true }), 200),
          {
            role_id: 'docs',
            manage_webhooks: true,
          },
        );
        assert.deepEqual(await json(await hr.call('GET', '/roles/docs/permissions/webhook'), 200), {
          role_id: 'docs',
          manage_webhooks: true,
        });
        // Each module is its own document: writing one leaves the others alone.
        assert.equal(
          (await json<Record<string, boolean>>(await hr.call('GET', '/roles/docs/permissions/efm'), 200))
            .view_employee_documents,
          true,
        );
        for (const module of ['core', 'efm', 'audit', 'webhook']) {
          assert.equal(
            (await json<ErrorBody>(await hr.call('GET', `/roles/ghost/permissions/${module}`), 404)).code,
            'not_found',
          );
        }
        assert.equal((await hr.call('PUT', '/roles/ghost/permissions/audit', { view_events: true })).status, 404);
        assert.equal((await hr.call('GET', '/roles/docs/permissions/other')).status, 404);
      });
    });

    describe('users', () => {
      it('POST creates a user (201) with a server UUID and profiles; GET returns the stored object', async () => {
        const address = email('ada');
        const created = await create(hr, {
          firstname: 'Ada',
          lastname: 'Lovelace',
          middlename: 'King',
          email: address,
          external_id: 'EXT-ADA',
          language: 'fr-FR',
          timezone: 'Europe/Paris',
          mobile_phone_number: '0033674564532',
          saml_token: 'sso-secret',
          profiles: [
            profile('payroll-manager', { operator: '<=', organization_id: 'fr' }),
            profile('viewer', {
              organization_group_id: 'europe',
              custom_field_filters: [{ custom_field_id: 'department', operator: '=', value: 'it' }],
            }),
          ],
        });
        assert.match(created.id, UUID_V4);
        assert.equal(created.language, 'fr-fr', 'BCP 47 tags are stored in lower case');
        assert.equal(created.timezone, 'Europe/Paris');
        assert.equal('saml_token' in created, false, 'saml_token is write-only');
        assert.match(created.created_at, DATETIME);
        assert.equal(created.profiles.length, 2);
        assert.match(created.profiles[0]?.id ?? '', UUID_V4);
        assert.deepEqual(created.profiles[0]?.employees_perimeter, {
          operator: '<=',
          organization_id: 'fr',
          organization_group_id: null,
          custom_field_filters: [],
        });
        assert.deepEqual(created.profiles[1]?.employees_perimeter.custom_field_filters, [
          { custom_field_id: 'department', operator: '=', value: 'it' },
        ]);
        assert.deepEqual(await json<User>(await hr.call('GET', `/users/${created.id}`), 200), created);

        const row = await userRow(hr.creds.client_id, created.id);
        assert.equal(row?.email, address);
        assert.equal(row?.external_id, 'EXT-ADA');
        assert.equal(row?.saml_token_hash, createHash('sha256').update('sso-secret').digest('hex'));
        assert.equal(row?.first_login_at, null);
        const profiles = await profileRows(hr.creds.client_id, created.id);
        assert.deepEqual(
          profiles.map((p) => [p.id, p.role_id, p.operator, p.organization_id, p.organization_group_id, p.position]),
          [
            [created.profiles[0]?.id, 'payroll-manager', '<=', 'fr', null, 0],
            [created.profiles[1]?.id, 'viewer', '=', null, 'europe', 1],
          ],
        );
        assert.deepEqual(JSON.parse(profiles[1]?.custom_field_filters ?? ''), [
          { custom_field_id: 'department', operator: '=', value: 'it' },
        ]);

        const minimal = await create(hr, { firstname: 'Min', lastname: 'Imal', email: email('min') });
        assert.deepEqual(minimal.profiles, []);
        assert.equal(minimal.external_id, null);
        assert.equal(minimal.middlename, null);

        // A profile id sent to POST is ignored: the server makes one.
        const chosen = '0b6f3f5e-8a3c-4d2e-9f10-2a4b6c8d0e1f';
        const withId = await create(hr, {
          firstname: 'Id',
          lastname: 'Ignored',
          email: email('idi'),
          profiles: [{ id: chosen, ...profile('viewer') }],
        });
        assert.match(withId.profiles[0]?.id ?? '', UUID_V4);
        assert.notEqual(withId.profiles[0]?.id, chosen);

        // organization_id matches the perimeter's own organization; groups are not expanded.
        const byOrg = async (org: string) =>
          (await json<User[]>(await hr.call('GET', `/users?per_page=100&organization_id=${org}`), 200)).map(
            (u) => u.id,
          );
        assert.ok((await byOrg('fr')).includes(created.id));
        assert.ok(!(await byOrg('de')).includes(created.id), 'the europe group perimeter does not count');
        assert.ok(!(await byOrg('fr-paris')).includes(created.id), 'descendants are not expanded');
      });

      it('PUT replaces every attribute and the profile list: kept by id, new ones added, missing ones deleted', async () => {
        const user = await create(hr, {
          firstname: 'Grace',
          lastname: 'Hopper',
          email: email('grace'),
          external_id: 'EXT-GRACE',
          timezone: 'America/New_York',
          saml_token: 'token-1',
          profiles: [
            profile('payroll-manager', { organization_id: 'fr' }),
            profile('viewer', { organization_id: 'de' }),
          ],
        });
        const [keep, drop] = user.profiles;
        const newEmail = email('grace.new');
        const replaced = await json<User>(
          await hr.call('PUT', `/users/${user.id}`, {
            firstname: 'Grace B.',
            lastname: 'Hopper',
            email: newEmail,
            profiles: [
              profile('hr_admin', { operator: '=', organization_id: 'hq' }),
              { id: keep?.id, ...profile('payroll-manager', { operator: '<=', organization_id: 'fr' }) },
            ],
          }),
          200,
        );
        assert.equal(replaced.firstname, 'Grace B.');
        assert.equal(replaced.email, newEmail);
        assert.equal(replaced.external_id, null, 'an attribute left out of a PUT becomes null');
        assert.equal(replaced.timezone, null);
        assert.equal(replaced.created_at, user.created_at);
        assert.equal(replaced.profiles.length, 2);
        assert.equal(replaced.profiles[1]?.id, keep?.id, 'the profile sent with its id is kept');
        assert.equal(replaced.profiles[1]?.employees_perimeter.operator, '<=');
        assert.notEqual(replaced.profiles[0]?.id, drop?.id);
        assert.match(replaced.profiles[0]?.id ?? '', UUID_V4);
        const rows = await profileRows(hr.creds.client_id, user.id);
        assert.deepEqual(
          rows.map((r) => [r.id, r.role_id]),
          [
            [replaced.profiles[0]?.id, 'hr_admin'],
            [keep?.id, 'payroll-manager'],
          ],
        );
        assert.equal(
          rows.some((r) => r.id === drop?.id),
          false,
          'the profile not sent is deleted',
        );
        const row = await userRow(hr.creds.client_id, user.id);
        assert.equal(row?.external_id, null);
        assert.equal(row?.saml_token_hash, createHash('sha256').update('token-1').digest('hex'), 'kept when not sent');

        // PUT needs the same required fields as a creation, and profiles.
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PUT', `/users/${user.id}`, { firstname: 'x', lastname: 'y', email: email() }),
          ),
          [['profiles', 'required']],
        );
        await json(
          await hr.call('PUT', `/users/${user.id}`, {
            firstname: 'G',
            lastname: 'H',
            email: newEmail,
            saml_token: null,
            profiles: [],
          }),
          200,
        );
        assert.equal((await userRow(hr.creds.client_id, user.id))?.saml_token_hash, null, 'null removes the token');
        assert.equal((await profileRows(hr.creds.client_id, user.id)).length, 0);
      });

      it('PATCH changes only what is sent; profiles, when sent, are the new list; null clears', async () => {
        const user = await create(hr, {
          firstname: 'Alan',
          lastname: 'Turing',
          email: email('alan'),
          external_id: 'EXT-ALAN',
          middlename: 'Mathison',
          profiles: [profile('viewer', { organization_id: 'de' })],
        });
        const patched = await json<User>(await hr.call('PATCH', `/users/${user.id}`, { lastname: 'T.' }), 200);
        assert.equal(patched.lastname, 'T.');
        assert.equal(patched.middlename, 'Mathison');
        assert.equal(patched.external_id, 'EXT-ALAN');
        assert.deepEqual(patched.profiles, user.profiles, 'profiles untouched when not sent');
        const cleared = await json<User>(
          await hr.call('PATCH', `/users/${user.id}`, { middlename: null, timezone: 'utc' }),
          200,
        );
        assert.equal(cleared.middlename, null);
        assert.equal(cleared.timezone, 'UTC');
        const reprofiled = await json<User>(
          await hr.call('PATCH', `/users/${user.id}`, { profiles: [profile('hr_admin', { organization_id: 'fr' })] }),
          200,
        );
        assert.deepEqual(
          reprofiled.profiles.map((p) => p.role_id),
          ['hr_admin'],
        );
        assert.equal((await profileRows(hr.creds.client_id, user.id)).length, 1);
        assert.deepEqual(
          await fieldErrors(await hr.call('PATCH', `/users/${user.id}`, { firstname: null, email: null })),
          [
            ['firstname', 'invalid_type'],
            ['email', 'invalid_type'],
          ],
        );
        const row = await userRow(hr.creds.client_id, user.id);
        assert.equal(row?.firstname, 'Alan');
        assert.equal(row?.middlename, null);
      });

      it('404 for an unknown user, an id that is not a UUID, and another client’s user', async () => {
        const ghost = '8a3f1c9e-2b4d-4e6f-9a1b-3c5d7e9f1a2b';
        for (const [method, body] of [
          ['GET', undefined],
          ['PUT', { firstname: 'a', lastname: 'b', email: email(), profiles: [] }],
          ['PATCH', { firstname: 'a' }],
        ] as const) {
          assert.equal((await json<ErrorBody>(await hr.call(method, `/users/${ghost}`, body), 404)).code, 'not_found');
          assert.equal(
            (await json<ErrorBody>(await hr.call(method, '/users/not-a-uuid', body), 404)).code,
            'not_found',
          );
        }
        const mine = await create(hr, { firstname: 'Mine', lastname: 'Only', email: email('mine') });
        assert.equal((await other.call('GET', `/users/${mine.id}`)).status, 404);
        assert.equal((await other.call('PATCH', `/users/${mine.id}`, { firstname: 'Stolen' })).status, 404);
        assert.equal(
          (
            await other.call('PUT', `/users/${mine.id}`, {
              firstname: 'S',
              lastname: 'S',
              email: email(),
              profiles: [],
            })
          ).status,
          404,
        );
        assert.equal((await userRow(hr.creds.client_id, mine.id))?.firstname, 'Mine');
        const theirs = await json<User[]>(await other.call('GET', '/users?per_page=100'), 200);
        assert.equal(
          theirs.some((u) => u.id === mine.id),
          false,
        );
        // Another client's roles and organizations do not exist for this one.
        assert.equal((await other.call('GET', '/roles/viewer')).status, 404);
        assert.equal((await other.call('GET', '/roles/viewer/permissions/core')).status, 404);
        assert.equal((await hr.call('GET', '/roles/foreign')).status, 404);
        assert.deepEqual(
          await fieldErrors(
            await hr.call('POST', '/users', {
              firstname: 'x',
              lastname: 'y',
              email: email(),
              profiles: [profile('foreign', { organization_id: 'foreign-org' })],
            }),
          ),
          [
            ['profiles.0.role_id', 'not_found'],
            ['profiles.0.employees_perimeter.organization_id', 'not_found'],
          ],
        );
        assert.deepEqual(await fieldErrors(await other.call('GET', '/users?role_id=viewer')), [
          ['role_id', 'not_found'],
        ]);
      });

      it('validates every field: required, lengths, ASCII email, enums, time zone, language', async () => {
        const before = await countUsers(hr.creds.client_id);
        assert.deepEqual(await fieldErrors(await hr.call('POST', '/users', {})), [
          ['firstname', 'required'],
          ['lastname', 'required'],
          ['email', 'required'],
        ]);
        const base = { firstname: 'Val', lastname: 'Idation', email: email('val') };
        const cases: [Record<string, unknown>, [string, string][]][] = [
          [{ email: 'josé@example.com' }, [['email', 'invalid_format']]],
          [{ email: 'jose@exämple.com' }, [['email', 'invalid_format']]],
          [{ email: 'not-an-email' }, [['email', 'invalid_format']]],
          [
            { email: `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com` },
            [['email', 'too_long']],
          ],
          [
            { firstname: 'f'.repeat(71), lastname: '' },
            [
              ['firstname', 'too_long'],
              ['lastname', 'too_short'],
            ],
          ],
          [{ middlename: 'm'.repeat(71) }, [['middlename', 'too_long']]],
          [{ external_id: 'e'.repeat(51) }, [['external_id', 'too_long']]],
          [{ firstname: 12 }, [['firstname', 'invalid_type']]],
          [{ language: 'english please' }, [['language', 'invalid_format']]],
          [{ timezone: 'Mars/Olympus_Mons' }, [['timezone', 'invalid_choice']]],
          [{ profiles: {} }, [['profiles', 'invalid_type']]],
          [{ profiles: [{ role_id: 'viewer' }] }, [['profiles.0.employees_perimeter', 'required']]],
          [
            { profiles: [{ role_id: 'viewer', employees_perimeter: { operator: '>' } }] },
            [
              ['profiles.0.employees_perimeter.custom_field_filters', 'required'],
              ['profiles.0.employees_perimeter.operator', 'invalid_choice'],
            ],
          ],
          [
            {
              profiles: [
                profile('viewer', {
                  custom_field_filters: [{ custom_field_id: 'department', operator: '~', value: 'it' }],
                }),
              ],
            },
            [['profiles.0.employees_perimeter.custom_field_filters.0.operator', 'invalid_choice']],
          ],
        ];
        for (const [patch, expected] of cases) {
          const got = await fieldErrors(await hr.call('POST', '/users', { ...base, ...patch }));
          assert.deepEqual(got.slice().sort(), expected.slice().sort(), JSON.stringify(patch));
        }
        assert.equal(await countUsers(hr.creds.client_id), before, 'nothing was written');
      });

      it('validates references with field paths: roles, organizations, groups, custom fields, profile ids', async () => {
        const base = { firstname: 'Ref', lastname: 'Erences', email: email('ref') };
        const before = await countUsers(hr.creds.client_id);
        assert.deepEqual(
          await fieldErrors(
            await hr.call('POST', '/users', {
              ...base,
              profiles: [
                profile('viewer', { organization_id: 'fr' }),
                profile('ghost-role', { organization_id: 'ghost-org' }),
                profile('viewer', { organization_group_id: 'ghost-group' }),
                profile('viewer', { operator: '<=', organization_group_id: 'europe' }),
                profile('viewer', { organization_id: 'fr', organization_group_id: 'europe' }),
              ],
            }),
          ),
          [
            ['profiles.1.role_id', 'not_found'],
            ['profiles.1.employees_perimeter.organization_id', 'not_found'],
            ['profiles.2.employees_perimeter.organization_group_id', 'not_found'],
            ['profiles.3.employees_perimeter.operator', 'not_allowed'],
            ['profiles.4.employees_perimeter.organization_group_id', 'not_allowed'],
          ],
        );
        const rule = (custom_field_id: string, operator: string, value: string) => ({
          custom_field_id,
          operator,
          value,
        });
        assert.deepEqual(
          await fieldErrors(
            await hr.call('POST', '/users', {
              ...base,
              profiles: [
                profile('viewer', {
                  custom_field_filters: [
                    rule('ghost-field', '=', 'x'),
                    rule('nickname', '=', 'Bob'),
                    rule('department', '<=', 'it'),
                    rule('department', '=', 'sales'),
                    rule('level', '<=', 'two'),
                    rule('remote', '=', 'yes'),
                    // Legal: inequalities on a hierarchical int, booleans, list values.
                    rule('level', '>=', '2'),
                    rule('remote', '!=', 'true'),
                    rule('department', '!=', 'hr'),
                  ],
                }),
              ],
            }),
          ),
          [
            ['profiles.0.employees_perimeter.custom_field_filters.0.custom_field_id', 'not_found'],
            ['profiles.0.employees_perimeter.custom_field_filters.1.custom_field_id', 'not_allowed'],
            ['profiles.0.employees_perimeter.custom_field_filters.2.operator', 'not_allowed'],
            ['profiles.0.employees_perimeter.custom_field_filters.3.value', 'invalid_choice'],
            ['profiles.0.employees_perimeter.custom_field_filters.4.value', 'invalid_format'],
            ['profiles.0.employees_perimeter.custom_field_filters.5.value', 'invalid_choice'],
          ],
        );
        assert.equal(await countUsers(hr.creds.client_id), before);

        const user = await create(hr, { ...base, profiles: [profile('viewer')] });
        const theirs = await create(hr, {
          firstname: 'T',
          lastname: 'T',
          email: email(),
          profiles: [profile('viewer')],
        });
        const own = user.profiles[0]?.id;
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PUT', `/users/${user.id}`, {
              ...base,
              profiles: [
                { id: own, ...profile('viewer') },
                { id: own, ...profile('hr_admin') },
                { id: theirs.profiles[0]?.id, ...profile('viewer') },
                { id: 'not-a-uuid', ...profile('viewer') },
              ],
            }),
          ),
          [['profiles.3.id', 'invalid_format']],
        );
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PATCH', `/users/${user.id}`, {
              profiles: [
                { id: own, ...profile('viewer') },
                { id: own, ...profile('hr_admin') },
                { id: theirs.profiles[0]?.id, ...profile('viewer') },
              ],
            }),
          ),
          [
            ['profiles.1.id', 'duplicate_items'],
            ['profiles.2.id', 'not_found'],
          ],
        );
        assert.deepEqual(
          (await profileRows(hr.creds.client_id, user.id)).map((p) => p.id),
          [own],
        );
        assert.deepEqual(
          (await profileRows(hr.creds.client_id, theirs.id)).map((p) => p.id),
          [theirs.profiles[0]?.id],
        );
      });

      it('email (ignoring case) and external id are unique per client: 422 already_exists', async () => {
        const address = email('unique');
        const first = await create(hr, { firstname: 'U', lastname: 'One', email: address, external_id: 'EXT-U1' });
        assert.deepEqual(
          await fieldErrors(
            await hr.call('POST', '/users', {
              firstname: 'U',
              lastname: 'Two',
              email: address.toUpperCase(),
              external_id: 'EXT-U1',
            }),
          ),
          [
            ['email', 'already_exists'],
            ['external_id', 'already_exists'],
          ],
        );
        const second = await create(hr, {
          firstname: 'U',
          lastname: 'Two',
          email: email('unique2'),
          external_id: 'EXT-U2',
        });
        assert.deepEqual(await fieldErrors(await hr.call('PATCH', `/users/${second.id}`, { email: address })), [
          ['email', 'already_exists'],
        ]);
        assert.deepEqual(await fieldErrors(await hr.call('PATCH', `/users/${second.id}`, { external_id: 'EXT-U1' })), [
          ['external_id', 'already_exists'],
        ]);
        assert.deepEqual(
          await fieldErrors(
            await hr.call('PUT', `/users/${second.id}`, {
              firstname: 'U',
              lastname: 'Two',
              email: address,
              profiles: [],
            }),
          ),
          [['email', 'already_exists']],
        );
        // Keeping one's own email and external id is no conflict; another client may use them too.
        await json(
          await hr.call('PATCH', `/users/${first.id}`, { email: address.toUpperCase(), external_id: 'EXT-U1' }),
          200,
        );
        await create(other, { firstname: 'U', lastname: 'Elsewhere', email: address, external_id: 'EXT-U1' });
        const rows = await db()
          .selectFrom('hr_users')
          .select(['id', 'email'])
          .where('client_id', '=', hr.creds.client_id)
          .where('external_id', 'in', ['EXT-U1', 'EXT-U2'])
          .orderBy('pk')
          .execute();
        assert.deepEqual(rows, [
          { id: first.id, email: address.toUpperCase() },
          { id: second.id, email: second.email },
        ]);
      });

      it('concurrent POSTs with one email: one 201, the others 422, one row', async () => {
        for (let round = 0; round < 3; round++) {
          const address = email('race');
          const responses = await Promise.all(
            [1, 2, 3, 4].map((i) =>
              hr.call('POST', '/users', {
                firstname: 'Race',
                lastname: `R${i}`,
                email: i % 2 ? address : address.toUpperCase(),
              }),
            ),
          );
          const statuses = responses.map((r) => r.status).sort();
          assert.deepEqual(statuses, [201, 422, 422, 422]);
          for (const res of responses.filter((r) => r.status === 422)) {
            assert.deepEqual(await fieldErrors(res), [['email', 'already_exists']]);
          }
          const rows = await db()
            .selectFrom('hr_users')
            .select('id')
            .where('client_id', '=', hr.creds.client_id)
            .where('firstname', '=', 'Race')
            .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
            .execute();
          assert.equal(rows.length, 1);
        }
        const externalId = 'EXT-RACE';
        const responses = await Promise.all(
          [1, 2].map((i) =>
            hr.call('POST', '/users', {
              firstname: 'Race',
              lastname: 'X',
              email: email(`x${i}`),
              external_id: externalId,
            }),
          ),
        );
        assert.deepEqual(responses.map((r) => r.status).sort(), [201, 422]);
        assert.deepEqual(await fieldErrors(responses.find((r) => r.status === 422) as Response), [
          ['external_id', 'already_exists'],
        ]);
      });

      it('a database unique violation that slipped past the checks is still a 422', async () => {
        const address = email('slip');
        await create(hr, { firstname: 'Slip', lastname: 'One', email: address });
        // Simulate a concurrent writer: the pre-check answers "free", the unique index answers "taken".
        const repo = Object.getPrototypeOf((server.app.services.users as unknown as { repo: object }).repo) as {
          emailTaken: () => Promise<boolean>;
        };
        const original = repo.emailTaken;
        repo.emailTaken = async () => false;
        try {
          assert.deepEqual(
            await fieldErrors(await hr.call('POST', '/users', { firstname: 'Slip', lastname: 'Two', email: address })),
            [['email', 'already_exists']],
          );
        } finally {
          repo.emailTaken = original;
        }
      });
    });

    describe('list, filters, count and pagination', () => {
      let lister: HrCaller;
      const ids: Record<string, string> = {};
      const names = async (query: string) =>
        (await json<User[]>(await lister.call('GET', `/users?per_page=100&${query}`), 200)).map((u) => u.firstname);
      const count = async (query: string) => {
        const res = await lister.call('HEAD', `/users?${query}`);
        assert.equal(res.status, 200);
        assert.equal(await res.text(), '');
        return Number(res.headers.get('x-total-count'));
      };

      before(async () => {
        lister = await hrCaller(server);
        await json(await lister.call('PUT', '/organizations/north', { name: 'North' }), 201);
        await json(await lister.call('PUT', '/organizations/south', { name: 'South' }), 201);
        await json(await lister.call('PUT', '/roles/boss', { id: 'boss', name: 'Boss' }), 201);
        await json(await lister.call('PUT', '/roles/clerk', { id: 'clerk', name: 'Clerk' }), 201);
        const people: [string, string, string, string | null, unknown[]][] = [
          ['Anna', 'Smith', 'anna@north.example', 'E1', [profile('boss', { organization_id: 'north' })]],
          ['Bob', 'Smith', 'bob@south.example', 'E2', [profile('clerk', { organization_id: 'south' })]],
          [
            'Carla',
            'Jones',
            'carla@north.example',
            null,
            [profile('clerk', { organization_id: 'north' }), profile('boss')],
          ],
          ['Dan', 'Brown', 'dan.smithers@example.com', 'E4', []],
          ['Eve', 'Smith', 'eve@example.com', 'E5', [profile('clerk', { organization_id: 'south' })]],
        ];
        for (const [firstname, lastname, address, external_id, profiles] of people) {
          const u = await create(lister, { firstname, lastname, email: address, external_id, profiles });
          ids[firstname] = u.id;
        }
        // Nothing in the API logs a user in: mark two as having logged in.
        await db()
          .updateTable('hr_users')
          .set({ first_login_at: Date.now() })
          .where('client_id', '=', lister.creds.client_id)
          .where('id', 'in', [ids.Anna as string, ids.Dan as string])
          .execute();
      });

      it('lists in creation order; every filter, alone and combined; HEAD counts with the same filters', async () => {
        const cases: [string, string[]][] = [
          ['', ['Anna', 'Bob', 'Carla', 'Dan', 'Eve']],
          ['q=smith', ['Anna', 'Bob', 'Dan', 'Eve']],
          ['q=NORTH', ['Anna', 'Carla']],
          ['q=an', ['Anna', 'Dan']],
          ['firstname=Bob', ['Bob']],
          ['firstname=bob', []],
          ['lastname=Smith', ['Anna', 'Bob', 'Eve']],
          ['email=CARLA@north.example', ['Carla']],
          ['email=carla', []],
          ['external_id=E2', ['Bob']],
          ['external_id=e2', []],
          ['role_id=boss', ['Anna', 'Carla']],
          ['role_id=clerk', ['Bob', 'Carla', 'Eve']],
          ['organization_id=north', ['Anna', 'Carla']],
          ['organization_id=south', ['Bob', 'Eve']],
          ['active=true', ['Anna', 'Dan']],
          ['active=false', ['Bob', 'Carla', 'Eve']],
          ['lastname=Smith&role_id=clerk&organization_id=south&active=false', ['Bob', 'Eve']],
          ['q=smith&active=true', ['Anna', 'Dan']],
        ];
        for (const [query, expected] of cases) {
          assert.deepEqual(await names(query), expected, query);
          assert.equal(await count(query), expected.length, `HEAD ${query}`);
        }
      });

      it('rejects bad filters: unknown references 422, bad parameters 400', async () => {
        assert.deepEqual(await fieldErrors(await lister.call('GET', '/users?role_id=ghost&organization_id=ghost')), [
          ['role_id', 'not_found'],
          ['organization_id', 'not_found'],
        ]);
        const head = await lister.call('HEAD', '/users?organization_id=fr');
        assert.equal(head.status, 422, "another client's organization does not exist");
        assert.equal(await head.text(), '');
        for (const query of ['q=a', 'active=maybe', 'per_page=0', 'q=ab&q=cd', 'cursor=abc']) {
          const body = await json<ErrorBody>(await lister.call('GET', `/users?${query}`), 400);
          assert.equal(body.code, 'invalid_request', query);
        }
        assert.equal((await lister.call('HEAD', '/users?q=a')).status, 400);
      });

      it('paginates forward and back with Link, Next-Cursor and Previous-Cursor, keeping the filters', async () => {
        const first = await lister.call('GET', '/users?per_page=2&lastname=Smith');
        const firstPage = await json<User[]>(first, 200);
        assert.deepEqual(
          firstPage.map((u) => u.firstname),
          ['Anna', 'Bob'],
        );
        assert.equal(first.headers.get('previous-cursor'), null);
        const next = first.headers.get('next-cursor') as string;
        assert.match(next, /^[0-9]+$/);
        assert.equal(
          first.headers.get('link'),
          `</api/v2/client/users?per_page=2&lastname=Smith&cursor=${next}>; rel="next"`,
        );
        const second = await lister.call('GET', `/users?per_page=2&lastname=Smith&cursor=${next}`);
        assert.deepEqual(
          (await json<User[]>(second, 200)).map((u) => u.firstname),
          ['Eve'],
        );
        assert.equal(second.headers.get('next-cursor'), null);
        const previous = second.headers.get('previous-cursor') as string;
        assert.match(second.headers.get('link') ?? '', /rel="previous"$/);
        const back = await lister.call('GET', `/users?per_page=2&lastname=Smith&cursor=${previous}`);
        assert.deepEqual(
          (await json<User[]>(back, 200)).map((u) => u.firstname),
          ['Anna', 'Bob'],
        );
        assert.equal(back.headers.get('previous-cursor'), null);
        assert.equal(back.headers.get('next-cursor') !== null, true);

        // Roles page the same way; a cursor only works on its own list and client.
        const roles = await lister.call('GET', '/roles?per_page=1');
        assert.deepEqual(
          (await json<Role[]>(roles, 200)).map((r) => r.id),
          ['boss'],
        );
        const roleCursor = roles.headers.get('next-cursor') as string;
        assert.deepEqual(
          (await json<Role[]>(await lister.call('GET', `/roles?per_page=1&cursor=${roleCursor}`), 200)).map(
            (r) => r.id,
          ),
          ['clerk'],
        );
        assert.equal((await lister.call('GET', `/users?cursor=${roleCursor}`)).status, 400);
        assert.equal((await hr.call('GET', `/users?cursor=${next}`)).status, 400);
      });
    });

    describe('read-only applications', () => {
      it('get 403 insufficient_scope on every write, but may GET and HEAD', async () => {
        const readOnly = await hrCaller(server, { readOnly: true });
        // A read-only application of the same client as `hr`.
        const creds = await server.app.services.tenants.createApplication(
          hrTenantId(hr.creds.client_id),
          'reader',
          true,
        );
        const token = await getToken(server, creds);
        const reader = (method: string, path: string, body?: unknown) =>
          fetch(`${server.url}/api/v2/client${path}`, {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
        const user = await create(hr, { firstname: 'Read', lastname: 'Me', email: email('read') });
        const before = await countUsers(hr.creds.client_id);
        const writes: [string, string, unknown][] = [
          ['POST', '/users', { firstname: 'No', lastname: 'Way', email: email() }],
          ['PUT', `/users/${user.id}`, { firstname: 'No', lastname: 'Way', email: email(), profiles: [] }],
          ['PATCH', `/users/${user.id}`, { firstname: 'No' }],
          ['PUT', '/roles/ro-role', { id: 'ro-role', name: 'x' }],
          ['PUT', '/roles/viewer/permissions/audit', { view_events: true }],
        ];
        for (const [method, path, body] of writes) {
          for (const res of [await reader(method, path, body), await readOnly.call(method, path, body)]) {
            const err = await json<ErrorBody>(res, 403);
            assert.equal(err.code, 'insufficient_scope', `${method} ${path}`);
          }
        }
        assert.equal(await countUsers(hr.creds.client_id), before);
        assert.equal((await userRow(hr.creds.client_id, user.id))?.firstname, 'Read');
        assert.equal((await hr.call('GET', '/roles/ro-role')).status, 404);

        assert.equal((await json<User>(await reader('GET', `/users/${user.id}`), 200)).id, user.id);
        const list = await json<User[]>(await reader('GET', '/users?per_page=100'), 200);
        assert.ok(list.some((u) => u.id === user.id));
        const head = await reader('HEAD', '/users');
        assert.equal(head.status, 200);
        assert.equal(Number(head.headers.get('x-total-count')), before);
        assert.equal((await json<Role>(await reader('GET', '/roles/viewer'), 200)).id, 'viewer');
        assert.equal((await reader('GET', '/roles/viewer/permissions/core')).status, 200);
        assert.deepEqual(await json(await readOnly.call('GET', '/users'), 200), []);
        assert.equal((await readOnly.call('HEAD', '/users')).headers.get('x-total-count'), '0');
        assert.equal((await readOnly.call('GET', `/users/${user.id}`)).status, 404);
      });
    });

    describe('document access for other services', () => {
      it('mayActOnDocuments combines the type grants, the roles of the profiles and their perimeters', async () => {
        const users = server.app.services.users;
        const clientId = hr.creds.client_id;
        const manager = await create(hr, {
          firstname: 'Doc',
          lastname: 'Manager',
          email: email('doc'),
          profiles: [
            profile('payroll-manager', { operator: '<=', organization_id: 'fr' }),
            profile('viewer', { organization_group_id: 'europe' }),
            profile('hr_admin', {
              operator: '=',
              organization_id: 'hq',
              custom_field_filters: [
                { custom_field_id: 'level', operator: '>=', value: '2' },
                { custom_field_id: 'department', operator: '=', value: 'it' },
                { custom_field_id: 'department', operator: '=', value: 'hr' },
              ],
            }),
          ],
        });
        const grants = [
          { role_id: 'payroll-manager', permissions: ['preview', 'upload_and_update', 'share'] },
          { role_id: 'viewer', permissions: ['preview'] },
          { role_id: 'hr_admin', permissions: ['delete', 'update'] },
        ];
        const ask = (
          action: string,
          organizationIds: string[],
          employeeCustomFields: Record<string, string> | null = null,
        ) =>
          users.mayActOnDocuments(hrTenantId(clientId), {
            actor: { kind: 'user', userId: manager.id },
            action: action as 'view',
            userAccessPermissions: grants,
            organizationIds,
            employeeCustomFields,
          });
        // payroll-manager on fr and below.
        assert.equal(await ask('upload', ['fr-paris']), true);
        assert.equal(await ask('upload', ['fr']), true);
        assert.equal(await ask('upload', ['hq']), false);
        assert.equal(await ask('share', ['de']), false);
        assert.equal(await ask('update', ['fr']), true, 'upload_and_update allows update');
        // viewer on the europe group (fr, de; not fr-paris, not hq).
        assert.equal(await ask('view', ['de']), true);
        assert.equal(await ask('view', ['hq']), false);
        assert.equal(await ask('view', ['hq', 'de']), true, 'any one of the document organizations suffices');
        // hr_admin on hq exactly, for employees at level >= 2 in it or hr.
        assert.equal(await ask('delete', ['hq']), true, 'company document: no employee filter applies');
        assert.equal(await ask('delete', ['fr']), false, '= is that organization only');
        assert.equal(await ask('delete', ['hq'], { level: '3', department: 'hr' }), true);
        assert.equal(await ask('delete', ['hq'], { level: '1', department: 'hr' }), false);
        assert.equal(await ask('delete', ['hq'], { level: '2', department: 'ops' }), false);
        assert.equal(await ask('delete', ['hq'], { department: 'it' }), false);
        assert.equal(await ask('dl_original', ['fr']), false, 'an exact permission value can be asked');
        assert.equal(await ask('preview', ['fr']), true);
        // Nobody else, and not in another client.
        const stranger = await create(hr, { firstname: 'No', lastname: 'Profile', email: email('np') });
        assert.equal(
          await users.mayActOnDocuments(hrTenantId(clientId), {
            actor: { kind: 'user', userId: stranger.id },
            action: 'view',
            userAccessPermissions: grants,
            organizationIds: ['fr'],
            employeeCustomFields: null,
          }),
          false,
        );
        assert.equal(
          await users.mayActOnDocuments(hrTenantId(other.creds.client_id), {
            actor: { kind: 'user', userId: manager.id },
            action: 'view',
            userAccessPermissions: grants,
            organizationIds: ['fr'],
            employeeCustomFields: null,
          }),
          false,
        );
        // Applications act for the whole client; read-only ones may only view.
        const app = (readOnly: boolean, action: 'view' | 'delete') =>
          users.mayActOnDocuments(hrTenantId(clientId), {
            actor: { kind: 'application', readOnly },
            action,
            userAccessPermissions: [],
            organizationIds: [],
            employeeCustomFields: null,
          });
        assert.equal(await app(false, 'delete'), true);
        assert.equal(await app(true, 'view'), true);
        assert.equal(await app(true, 'delete'), false);
      });
    });
  });
}
