import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CreatedAcademy } from '../../src/academy/academies/service.js';
import type { DirectoryImport } from '../../src/academy/directory/import.js';
import { academyTenantId } from '../../src/platform/db/tenant.js';
import { FieldValidationError, NotFoundError } from '../../src/platform/errors.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface User {
  id: number;
  firstname: string;
  middlename: string | null;
  lastname: string;
  preferred_name: string | null;
  email: string;
  role: string;
  active: boolean;
  external_id: string | null;
  hired_date: string | null;
  joined_date: string | null;
  image: string | null;
  units: { id: number; name: string }[];
}

interface Venue {
  id: number;
  name: string;
  seats: number;
  address: string | null;
  city: string | null;
  coordinates: { latitude: number | null; longitude: number | null };
}

interface Timezone {
  id: number;
  name: string;
  label: string;
  offset: number;
}

interface ErrorBody {
  status: number;
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}

/** Users 4…130: enough for the clamp of 100. */
const MANY_USERS = Array.from({ length: 127 }, (_, i) => ({
  id: i + 4,
  firstname: `User${i + 4}`,
  lastname: 'Numbered',
  email: `user${i + 4}@example.test`,
}));

const FIXTURE: DirectoryImport = {
  // Out of order on purpose: lists are in id order whatever the file's order.
  categories: [
    { id: 12, name: 'Compliance' },
    { id: 10, name: 'Safety' },
    { id: 11, name: 'Leadership' },
  ],
  users: [
    { id: 3, firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.test', role: 'instructor' },
    {
      id: 2,
      firstname: 'Ada',
      middlename: 'King',
      lastname: 'Lovelace',
      preferred_name: 'Countess',
      email: 'ada@example.test',
      active: false,
      external_id: 'HR-2',
      hired_date: '2020-01-15',
      joined_date: '2020-02-01',
      image: 'https://example.test/ada.png',
      units: [{ id: 7, name: 'Engineering' }],
    },
    ...MANY_USERS,
  ],
  courses: [
    { id: 501, title: 'Leading teams', description: 'For managers', categoryIds: [11], external_id: 'C-501' },
    { id: 500, title: 'Fire safety', categoryIds: [11, 10] },
    { id: 502, title: 'Orientation' },
  ],
  curriculums: [
    { id: 600, title: 'New managers', description: 'Path', categoryId: 12, external_id: 'LP-1' },
    { id: 601, title: 'Onboarding' },
  ],
  venues: [
    { id: 700, name: 'Main Hall', seats: 40, address: '1 Main St', city: 'Athens', latitude: 37.98, longitude: 23.72 },
    ...Array.from({ length: 24 }, (_, i) => ({ id: 701 + i, name: `Room ${i + 1}`, seats: 10 + i })),
  ],
};

for (const dialect of dialects()) {
  describe(`academy directory (${dialect})`, () => {
    let server: TestServer;
    let a: CreatedAcademy;
    let b: CreatedAcademy;

    const url = (academy: CreatedAcademy, path: string) =>
      `${server.url}/v1${path}${path.includes('?') ? '&' : '?'}acadId=${academy.acadId}&apikey=${academy.apikey}`;
    const get = (path: string, academy: CreatedAcademy = a) => fetch(url(academy, path));
    async function ok<T>(path: string, academy: CreatedAcademy = a): Promise<T> {
      const res = await get(path, academy);
      const text = await res.text();
      assert.equal(res.status, 200, `${path}: ${text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      return JSON.parse(text) as T;
    }
    async function fails(path: string, status: number, academy: CreatedAcademy = a): Promise<ErrorBody> {
      const res = await get(path, academy);
      const body = (await res.json()) as ErrorBody;
      assert.equal(res.status, status, `${path}: ${JSON.stringify(body)}`);
      assert.equal(body.status, status);
      return body;
    }
    const ids = async (path: string, academy: CreatedAcademy = a) =>
      (await ok<{ id: number }[]>(path, academy)).map((x) => x.id);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const count = async (table: 'academy_users' | 'academy_categories' | 'academy_courses', academyId: number) =>
      Number(
        (
          await server.app.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('academy_id', '=', academyId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      server = await startServer(dialect);
      a = await server.app.services.academies.create('Academy A');
      b = await server.app.services.academies.create('Academy B');
      const counts = await server.app.services.directory.import(academyTenantId(a.acadId), structuredClone(FIXTURE));
      assert.deepEqual(counts, {
        users: 129,
        categories: 3,
        courses: 3,
        curriculums: 2,
        venues: 25,
        content: 0,
        enrollments: 0,
      });
      await server.app.services.directory.import(academyTenantId(b.acadId), {
        categories: [{ id: 20, name: 'B only' }],
        users: [{ id: 2, firstname: 'Bea', lastname: 'Other', email: 'bea@example.test' }, ...MANY_USERS.slice(0, 1)],
        courses: [{ id: 900, title: 'B course', categoryIds: [20] }],
        curriculums: [{ id: 901, title: 'B path' }],
        venues: [{ id: 902, name: 'B venue', seats: 5 }],
      });
    });
    after(() => server.close());

    it('GET /users: a bare array in id order, default 20, with the full user shape', async () => {
      const users = await ok<User[]>('/users');
      assert.deepEqual(
        users.map((u) => u.id),
        range(1, 20),
      );
      assert.deepEqual(users[1], {
        id: 2,
        firstname: 'Ada',
        middlename: 'King',
        lastname: 'Lovelace',
        preferred_name: 'Countess',
        email: 'ada@example.test',
        role: 'employee',
        active: false,
        external_id: 'HR-2',
        hired_date: '2020-01-15',
        joined_date: '2020-02-01',
        image: 'https://example.test/ada.png',
        units: [{ id: 7, name: 'Engineering' }],
      });
      assert.deepEqual(users[2], {
        id: 3,
        firstname: 'Grace',
        middlename: null,
        lastname: 'Hopper',
        preferred_name: null,
        email: 'grace@example.test',
        role: 'instructor',
        active: true,
        external_id: null,
        hired_date: null,
        joined_date: null,
        image: null,
        units: [],
      });
      assert.equal(users[0]?.role, 'admin', 'user 1 is the super administrator');
    });

    it('GET /users/:id returns one user; unknown, malformed and other-academy ids are 404', async () => {
      const ada = await ok<User>('/users/2');
      assert.equal(ada.lastname, 'Lovelace');
      assert.equal((await ok<User>('/users/2', b)).firstname, 'Bea', 'the same id is another user in academy B');
      for (const id of ['9999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
        assert.equal((await fails(`/users/${id}`, 404)).code, 'not_found', id);
      }
      assert.equal((await ok<User[]>('/users', b)).length, 3);
      await fails('/users/5', 404, b);
    });

    it('paging: start and limit; limit above the maximum is clamped, never refused', async () => {
      assert.deepEqual(await ids('/users?start=5&limit=3'), [6, 7, 8]);
      assert.deepEqual(await ids('/users?limit=500'), range(1, 100));
      assert.deepEqual(await ids('/users?limit=100&start=100'), range(101, 130));
      assert.deepEqual(await ids('/users?limit=0'), []);
      assert.deepEqual(await ids('/users?start=100000'), []);
      assert.deepEqual(await ids('/users?start=99999999999999'), []);
      assert.equal((await ids('/content/venues?limit=100')).length, 20);
      assert.deepEqual(await ids('/content/venues'), range(700, 719));
      assert.deepEqual(await ids('/content/venues?start=20&limit=100'), range(720, 724));
      assert.deepEqual(await ids('/courses?limit=1000'), [500, 501, 502]);
      assert.deepEqual(await ids('/courses?start=1&limit=1'), [501]);
      assert.deepEqual(await ids('/curriculums?start=1'), [601]);
      assert.deepEqual(await ids('/content/categories?start=1&limit=1'), [11]);
      assert.deepEqual(await ids('/content/categories?limit=250'), [10, 11, 12]);
    });

    it('a negative or non-numeric start or limit is a 400', async () => {
      for (const path of [
        '/users?start=-1',
        '/users?limit=abc',
        '/users?limit=-5',
        '/users?start=1.5',
        '/courses?start=-1',
        '/curriculums?limit=x',
        '/content/categories?limit=abc',
        '/content/venues?start=-1',
      ]) {
        const body = await fails(path, 400);
        assert.equal(body.code, 'validation_error', path);
      }
    });

    it('search: case-insensitive on names and email; `+` is a space; role filters', async () => {
      assert.deepEqual(await ids('/users?search=LOVELACE'), [2]);
      assert.deepEqual(await ids('/users?search=Ada+Lovelace'), [2]);
      assert.deepEqual(await ids('/users?search=Ada%20Lovelace'), [2]);
      assert.deepEqual(await ids('/users?search=grace%40example'), [3]);
      assert.deepEqual(await ids('/users?search=user12'), [12, ...range(120, 129)]);
      assert.deepEqual(await ids('/users?search=%25'), [], '% is taken literally');
      assert.deepEqual(await ids('/users?role=instructor'), [3]);
      assert.deepEqual(await ids('/users?role=ADMIN'), [1]);
      assert.deepEqual(await ids('/users?role=employee&search=hopper'), []);
      assert.deepEqual(await ids('/courses?search=FIRE'), [500]);
      assert.deepEqual(await ids('/curriculums?search=board'), [601]);
      assert.deepEqual(await ids('/content/categories?search=lead'), [11]);
      assert.deepEqual(await ids('/content/venues?search=Main+Hall'), [700]);
      assert.deepEqual(await ids('/content/venues?search=room+2'), [702, ...range(720, 724)]);
    });

    it('unknown query parameters are ignored', async () => {
      assert.deepEqual(await ids('/users?foo=bar&onlyCompleted=true&eventId=3&limit=2'), [1, 2]);
      assert.deepEqual(await ids('/content/venues?order_by=title&direction=asc&limit=1'), [700]);
      assert.equal((await ok<Timezone[]>('/content/timezones?start=0&limit=1&x=y')).length > 100, true);
    });

    it('GET /courses and /courses/:id: categories resolved in the order of category_ids', async () => {
      const courses = await ok<unknown[]>('/courses');
      assert.deepEqual(courses, [
        {
          id: 500,
          title: 'Fire safety',
          description: '',
          category_ids: [11, 10],
          categories: [
            { id: 11, name: 'Leadership' },
            { id: 10, name: 'Safety' },
          ],
          external_id: null,
          status: 'active',
          language: null,
          students: 0,
          lectures_count: 0,
          exams_count: 0,
          events_count: 0,
        },
        {
          id: 501,
          title: 'Leading teams',
          description: 'For managers',
          category_ids: [11],
          categories: [{ id: 11, name: 'Leadership' }],
          external_id: 'C-501',
          status: 'active',
          language: null,
          students: 0,
          lectures_count: 0,
          exams_count: 0,
          events_count: 0,
        },
        {
          id: 502,
          title: 'Orientation',
          description: '',
          category_ids: [],
          categories: [],
          external_id: null,
          status: 'active',
          language: null,
          students: 0,
          lectures_count: 0,
          exams_count: 0,
          events_count: 0,
        },
      ]);
      assert.deepEqual(await ok('/courses/500'), courses[0]);
      await fails('/courses/900', 404);
      await fails('/courses/nope', 404);
      assert.deepEqual(await ids('/courses', b), [900]);
    });

    it('GET /curriculums, /curriculums/:id and the singular /curriculum/:id', async () => {
      const list = await ok<unknown[]>('/curriculums');
      assert.deepEqual(list, [
        {
          id: 600,
          title: 'New managers',
          description: 'Path',
          category_id: 12,
          category: { id: 12, name: 'Compliance' },
          external_id: 'LP-1',
          status: 'active',
        },
        {
          id: 601,
          title: 'Onboarding',
          description: '',
          category_id: null,
          category: null,
          external_id: null,
          status: 'active',
        },
      ]);
      assert.deepEqual(await ok('/curriculums/600'), list[0]);
      assert.deepEqual(await ok('/curriculum/600'), list[0]);
      assert.deepEqual(await ok('/curriculum/601'), list[1]);
      await fails('/curriculums/901', 404);
      await fails('/curriculum/901', 404);
      await fails('/curriculum/x', 404);
    });

    it('GET /content/categories and /content/venues: bare arrays of the documented shapes', async () => {
      assert.deepEqual(await ok('/content/categories'), [
        { id: 10, name: 'Safety' },
        { id: 11, name: 'Leadership' },
        { id: 12, name: 'Compliance' },
      ]);
      const venues = await ok<Venue[]>('/content/venues?limit=2');
      assert.deepEqual(venues, [
        {
          id: 700,
          name: 'Main Hall',
          seats: 40,
          address: '1 Main St',
          city: 'Athens',
          coordinates: { latitude: 37.98, longitude: 23.72 },
        },
        {
          id: 701,
          name: 'Room 1',
          seats: 10,
          address: null,
          city: null,
          coordinates: { latitude: null, longitude: null },
        },
      ]);
      assert.deepEqual(await ids('/content/venues', b), [902]);
      assert.deepEqual(await ids('/content/categories', b), [20]);
    });

    it('GET /content/timezones: Europe/Athens with a (GMT+0…) label and an integer id, stable between calls', async () => {
      const first = await ok<Timezone[]>('/content/timezones');
      const athens = first.find((z) => z.name === 'Europe/Athens');
      assert.ok(athens, 'Europe/Athens is listed');
      assert.ok(Number.isInteger(athens.id));
      assert.match(athens.label, /^\(GMT\+0/);
      assert.ok(athens.offset === 2 || athens.offset === 3);
      const second = await ok<Timezone[]>('/content/timezones');
      assert.deepEqual(
        second.map((z) => [z.id, z.name]),
        first.map((z) => [z.id, z.name]),
      );
      assert.deepEqual(
        first.map((z) => z.id),
        [...first.map((z) => z.id)].sort((x, y) => x - y),
        'in id order',
      );
    });

    it('authentication: 401 without a key, with a wrong key, or with another academy’s key; X-API-Key works', async () => {
      const noKey = await fetch(`${server.url}/v1/users?acadId=${a.acadId}`);
      assert.equal(noKey.status, 401);
      assert.equal(((await noKey.json()) as ErrorBody).status, 401);
      assert.equal((await fetch(`${server.url}/v1/users?acadId=${a.acadId}&apikey=wrong`)).status, 401);
      assert.equal((await fetch(`${server.url}/v1/users?apikey=${a.apikey}`)).status, 401, 'acadId is required');
      assert.equal((await fetch(`${server.url}/v1/users?acadId=${b.acadId}&apikey=${a.apikey}`)).status, 401);
      assert.equal(
        (await fetch(`${server.url}/v1/content/timezones?acadId=${b.acadId}&apikey=${a.apikey}`)).status,
        401,
      );
      const header = await fetch(`${server.url}/v1/users/2?acadId=${a.acadId}`, { headers: { 'X-API-Key': a.apikey } });
      assert.equal(header.status, 200);
      assert.equal(((await header.json()) as User).firstname, 'Ada');
      const lower = await fetch(`${server.url}/v1/users?acadId=${b.acadId}`, { headers: { 'x-api-key': b.apikey } });
      assert.equal(lower.status, 200);
      assert.equal(((await lower.json()) as User[]).length, 3);
    });

    it('import is idempotent on ids: importing again keeps the rows and replaces every field', async () => {
      const c = await server.app.services.academies.create('Academy C');
      const directory = server.app.services.directory;
      await directory.import(academyTenantId(c.acadId), structuredClone(FIXTURE));
      const before = await server.app.database.db
        .selectFrom('academy_users')
        .select(['id', 'created_at'])
        .where('academy_id', '=', c.acadId)
        .where('id', '=', 2)
        .executeTakeFirstOrThrow();
      const again = await directory.import(academyTenantId(c.acadId), structuredClone(FIXTURE));
      assert.deepEqual(again, {
        users: 129,
        categories: 3,
        courses: 3,
        curriculums: 2,
        venues: 25,
        content: 0,
        enrollments: 0,
      });
      assert.equal(await count('academy_users', c.acadId), 130);
      assert.equal(await count('academy_categories', c.acadId), 3);
      assert.equal(await count('academy_courses', c.acadId), 3);

      const changed = await directory.import(academyTenantId(c.acadId), {
        users: [{ id: 2, firstname: 'Augusta', lastname: 'King', email: 'augusta@example.test' }],
        categories: [{ id: 10, name: 'Health and safety' }],
        courses: [{ id: 500, title: 'Fire safety 2', categoryIds: [12] }],
        curriculums: [{ id: 600, title: 'Managers', categoryId: 10 }],
        venues: [{ id: 700, name: 'Great Hall', seats: 80 }],
      });
      assert.deepEqual(changed, {
        users: 1,
        categories: 1,
        courses: 1,
        curriculums: 1,
        venues: 1,
        content: 0,
        enrollments: 0,
      });
      assert.equal(await count('academy_users', c.acadId), 130);
      const user = await ok<User>('/users/2', c);
      assert.deepEqual(user, {
        id: 2,
        firstname: 'Augusta',
        middlename: null,
        lastname: 'King',
        preferred_name: null,
        email: 'augusta@example.test',
        role: 'employee',
        active: true,
        external_id: null,
        hired_date: null,
        joined_date: null,
        image: null,
        units: [],
      });
      const after = await server.app.database.db
        .selectFrom('academy_users')
        .select(['created_at'])
        .where('academy_id', '=', c.acadId)
        .where('id', '=', 2)
        .executeTakeFirstOrThrow();
      assert.equal(after.created_at, before.created_at, 'created_at survives an update');
      assert.deepEqual(await ok('/courses/500', c), {
        id: 500,
        title: 'Fire safety 2',
        description: '',
        category_ids: [12],
        categories: [{ id: 12, name: 'Compliance' }],
        external_id: null,
        status: 'active',
        language: null,
        students: 0,
        lectures_count: 0,
        exams_count: 0,
        events_count: 0,
      });
      assert.deepEqual((await ok<{ category: unknown }>('/curriculum/600', c)).category, {
        id: 10,
        name: 'Health and safety',
      });
      assert.deepEqual((await ok<Venue[]>('/content/venues?limit=1', c))[0], {
        id: 700,
        name: 'Great Hall',
        seats: 80,
        address: null,
        city: null,
        coordinates: { latitude: null, longitude: null },
      });
      // A category imported earlier may be referenced by a later file.
      await directory.import(academyTenantId(c.acadId), { courses: [{ id: 503, title: 'Later', categoryIds: [11] }] });
      assert.deepEqual((await ok<{ categories: unknown }>('/courses/503', c)).categories, [
        { id: 11, name: 'Leadership' },
      ]);
      // Academy A did not change.
      assert.equal((await ok<User>('/users/2')).firstname, 'Ada');
    });

    it('importing id 1 updates the super administrator’s profile', async () => {
      const d = await server.app.services.academies.create('Academy D');
      await server.app.services.directory.import(academyTenantId(d.acadId), {
        users: [{ id: 1, firstname: 'Olga', lastname: 'Admin', email: 'olga@example.test', role: 'admin' }],
      });
      const admin = await ok<User>('/users/1', d);
      assert.equal(admin.firstname, 'Olga');
      assert.equal(admin.email, 'olga@example.test');
      assert.equal(admin.role, 'admin');
      assert.equal(await count('academy_users', d.acadId), 1);
    });

    it('a bad import file writes nothing and names each bad field', async () => {
      const e = await server.app.services.academies.create('Academy E');
      const directory = server.app.services.directory;
      const valid = {
        categories: [{ id: 1, name: 'Good' }],
        users: [{ id: 2, firstname: 'Ok', lastname: 'User', email: 'ok@example.test' }],
        venues: [{ id: 3, name: 'Room', seats: 4 }],
      };
      const expectFields = async (data: unknown, fields: [string, string][]) => {
        await assert.rejects(directory.import(academyTenantId(e.acadId), data), (err: unknown) => {
          assert.ok(err instanceof FieldValidationError, String(err));
          assert.deepEqual(
            err.fields.map((f) => [f.field, f.code]),
            fields,
          );
          return true;
        });
        assert.equal(await count('academy_categories', e.acadId), 0);
        assert.equal(await count('academy_users', e.acadId), 1, 'only the super administrator');
        assert.equal(await count('academy_courses', e.acadId), 0);
      };
      await expectFields({ ...valid, courses: [{ id: 5, title: 'X', categoryIds: [1, 99] }] }, [
        ['courses.0.categoryIds.1', 'not_found'],
      ]);
      await expectFields({ ...valid, curriculums: [{ id: 5, title: 'X', categoryId: 98 }] }, [
        ['curriculums.0.categoryId', 'not_found'],
      ]);
      await expectFields(
        {
          ...valid,
          users: [...valid.users, { id: 4, firstname: 'Bad', lastname: 'Email', email: 42 }],
        },
        [['users.1.email', 'invalid_type']],
      );
      await expectFields({ ...valid, users: [{ id: 4, firstname: 'Bad', lastname: 'Email', email: 'not-an-email' }] }, [
        ['users.0.email', 'invalid_format'],
      ]);
      await expectFields(
        {
          ...valid,
          users: [{ id: 4, firstname: 'Bad', lastname: 'Date', email: 'd@example.test', hired_date: '2024-02-30' }],
        },
        [['users.0.hired_date', 'invalid_date']],
      );
      await expectFields({ ...valid, venues: [{ id: 0, name: 'Zero', seats: -1 }] }, [
        ['venues.0.id', 'too_small'],
        ['venues.0.seats', 'too_small'],
      ]);
      await expectFields({ ...valid, courses: [{ id: 5, title: 'X', category_ids: [1] }] }, [
        ['courses.0.category_ids', 'unknown_field'],
      ]);
      await expectFields({ ...valid, categories: [...valid.categories, { id: 1, name: 'Again' }] }, [
        ['categories.1.id', 'duplicate'],
      ]);
      await assert.rejects(directory.importText(academyTenantId(e.acadId), '{"users": ['), /not valid JSON/);
      await assert.rejects(directory.import(academyTenantId(e.acadId), []), /one JSON object/);
      await assert.rejects(directory.import(academyTenantId(999_999), valid), NotFoundError);
      assert.deepEqual(await directory.import(academyTenantId(e.acadId), {}), {
        users: 0,
        categories: 0,
        courses: 0,
        curriculums: 0,
        venues: 0,
        content: 0,
        enrollments: 0,
      });
    });
  });
}
