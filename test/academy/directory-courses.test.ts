import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CreatedAcademy } from '../../src/academy/academies/service.js';
import { academyTenantId } from '../../src/platform/db/tenant.js';
import { FieldValidationError } from '../../src/platform/errors.js';
import { richDirectory } from '../support/directory-fixture.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

interface ErrorBody {
  status: number;
  code: string;
  message: string;
  errors?: { field: string; code: string }[];
}
type Row = Record<string, unknown> & { id: number };

const RATE = 100_000;

for (const dialect of dialects()) {
  describe(`academy directory: courses, curriculums, content, badges, usage (${dialect})`, () => {
    let server: TestServer;
    let a: CreatedAcademy;
    let b: CreatedAcademy;

    const url = (academy: CreatedAcademy, path: string) =>
      `${server.url}/v1${path}${path.includes('?') ? '&' : '?'}acadId=${academy.acadId}&apikey=${academy.apikey}`;
    const call = (path: string, init?: RequestInit, academy: CreatedAcademy = a) => fetch(url(academy, path), init);
    async function ok<T = Row[]>(path: string, academy: CreatedAcademy = a): Promise<T> {
      const res = await call(path, undefined, academy);
      const text = await res.text();
      assert.equal(res.status, 200, `${path}: ${text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      return JSON.parse(text) as T;
    }
    async function fails(path: string, status: number, init?: RequestInit, academy: CreatedAcademy = a) {
      const res = await call(path, init, academy);
      const body = (await res.json()) as ErrorBody;
      assert.equal(res.status, status, `${path}: ${JSON.stringify(body)}`);
      assert.equal(body.status, status);
      assert.equal(typeof body.message, 'string');
      return body;
    }
    const ids = async (path: string, academy: CreatedAcademy = a) => (await ok(path, academy)).map((x) => x.id);
    const put = (body: unknown): RequestInit => ({
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

    before(async () => {
      server = await startServer(dialect, { ATRIUM_ACADEMY_RATE_LIMIT: String(RATE) });
      a = await server.app.services.academies.create('Academy A');
      b = await server.app.services.academies.create('Academy B');
      const counts = await server.app.services.directory.import(academyTenantId(a.acadId), richDirectory());
      assert.deepEqual(counts, {
        users: 150,
        categories: 3,
        courses: 3,
        curriculums: 2,
        venues: 0,
        content: 25,
        enrollments: 135,
      });
      await server.app.services.directory.import(academyTenantId(b.acadId), {
        users: [{ id: 2, firstname: 'Bea', lastname: 'Other', email: 'bea@example.test' }],
        courses: [{ id: 900, title: 'B course' }],
        curriculums: [{ id: 901, title: 'B path' }],
        content: Array.from({ length: 120 }, (_, i) => ({
          id: 2000 + i,
          title: `B item ${i}`,
          type_id: 1 as const,
          sub_type_id: 1,
          time_added: '2024-05-01T00:00:00Z',
        })),
      });
    });
    after(() => server.close());

    it('GET /courses: the documented counts, status (default active), category_id, language and skills filters', async () => {
      const [fire] = await ok('/courses?limit=1');
      assert.deepEqual(
        { ...fire, categories: undefined },
        {
          id: 500,
          title: 'Fire safety',
          description: '',
          category_ids: [10],
          categories: undefined,
          external_id: null,
          status: 'active',
          language: 'en',
          students: 129,
          lectures_count: 2,
          exams_count: 1,
          events_count: 0,
        },
      );
      assert.deepEqual(await ids('/courses'), [500, 502]);
      assert.deepEqual(await ids('/courses?status=archived'), [501]);
      assert.deepEqual(await ids('/courses?category_id=11'), [502]);
      assert.deepEqual(await ids('/courses?language=EN'), [500]);
      assert.deepEqual(await ids('/courses?skills[]=7&skills[]=8'), [500]);
      assert.deepEqual(await ids('/courses?skills=8'), []);
      assert.equal((await fails('/courses?status=deleted', 400)).code, 'validation_error');
      assert.deepEqual(await ids('/courses', b), [900]);
    });

    it('GET /courses/:id/students: paged (default 100, clamped at 1000), onlyCompleted and role; 404s', async () => {
      const first = await ok('/courses/500/students');
      assert.equal(first.length, 100);
      assert.deepEqual(first[0], {
        id: 2,
        firstname: 'First2',
        lastname: 'Student',
        email: 'student2@example.test',
        external_id: 'EXT-2',
        coupon_id: 90,
        role: 'student',
        enrolled_date: '2024-02-01',
        progress: 100,
        time_spent: 0,
        completed: true,
        completion_date: '2024-02-10',
        completed_by_admin: false,
      });
      assert.equal((await ok('/courses/500/students?start=100&limit=100')).length, 30);
      assert.equal((await ok('/courses/500/students?limit=5000')).length, 130, 'a limit above 1000 is clamped');
      assert.deepEqual(await ids('/courses/500/students?onlyCompleted=true'), [2, 3, 4, 5, 6]);
      assert.deepEqual(await ids('/courses/500/students?role=dropped_out'), [131]);
      assert.equal((await fails('/courses/500/students?start=-1', 400)).code, 'validation_error');
      assert.equal((await fails('/courses/500/students?limit=abc', 400)).code, 'validation_error');
      assert.equal((await fails('/courses/999/students', 404)).code, 'not_found');
      await fails('/courses/900/students', 404);
      assert.deepEqual(await ok('/courses/900/students', b), []);
    });

    it("a course's lectures, exams, skills, coupons (with uses), a coupon's students and invitations", async () => {
      assert.deepEqual(await ok('/courses/500/lectures'), [
        { id: 1, title: 'Alarms', type: 'video', duration: 12 },
        { id: 2, title: 'Evacuation', type: 'document', duration: 0 },
      ]);
      assert.deepEqual(await ok('/courses/500/exams'), [{ id: 5, title: 'Final', passing_score: 80, questions: 20 }]);
      assert.deepEqual(await ok('/courses/500/skills'), [{ id: 7, name: 'First aid' }]);
      assert.deepEqual(await ok('/courses/500/coupons'), [
        { id: 90, code: 'FREE', discount: 100, max_uses: 10, uses: 3, expires_date: '2030-01-01' },
        { id: 91, code: 'HALF', discount: 50, max_uses: null, uses: 0, expires_date: null },
      ]);
      assert.deepEqual(await ids('/courses/500/coupons/90'), [2, 3, 4]);
      assert.deepEqual(await ok('/courses/500/coupons/91'), []);
      assert.deepEqual(await ok('/courses/500/invitations'), [
        { id: 1, email: 'guest@example.test', sent_date: '2024-01-02', status: 'accepted' },
      ]);
      assert.deepEqual(await ok('/courses/502/lectures'), []);
      for (const path of [
        '/courses/500/coupons/99',
        '/courses/502/coupons/90',
        '/courses/999/lectures',
        '/courses/900/exams',
      ]) {
        assert.equal((await fails(path, 404)).code, 'not_found', path);
      }
      await fails('/courses/500/skills', 404, undefined, b);
    });

    it("GET /courses/categories (all, or a user's by id or external id and role) and /courses/user/:userId", async () => {
      assert.deepEqual(await ok('/courses/categories'), [
        { id: 10, name: 'Safety' },
        { id: 11, name: 'Leadership' },
      ]);
      assert.deepEqual(await ids('/courses/categories?userId=3'), [10]);
      assert.deepEqual(await ids('/courses/categories?userId=EXT-3&external_id=true'), [10]);
      assert.deepEqual(await ids('/courses/categories?userId=2&role=professor'), [10, 11]);
      assert.deepEqual(await ids('/courses/categories?userId=151'), []);
      assert.equal((await fails('/courses/categories?userId=9999', 404)).code, 'not_found');

      const mine = await ok('/courses/user/2');
      assert.deepEqual(
        mine.map((c) => [c.id, c.role, c.completed]),
        [
          [500, 'student', true],
          [502, 'professor', false],
        ],
      );
      assert.equal(mine[0]?.lectures_count, 2, 'the course fields come with the enrollment');
      assert.deepEqual(await ids('/courses/user/2?status=archived'), [501]);
      assert.deepEqual(await ids('/courses/user/EXT-2?external_id=true&role=professor'), [502]);
      for (const path of ['/courses/user/9999', '/courses/user/abc', '/courses/user/EXT-2']) await fails(path, 404);
      await fails('/courses/user/3', 404, undefined, b);
    });

    it('GET /users/:id/badges', async () => {
      assert.deepEqual(await ok('/users/2/badges'), [
        {
          id: 1,
          name: 'Fire warden',
          description: 'Passed the drill',
          image: 'https://example.test/b1.png',
          awarded_date: '2024-03-01',
        },
        { id: 2, name: 'Mentor', description: '', image: null, awarded_date: null },
      ]);
      assert.deepEqual(await ok('/users/3/badges'), []);
      await fails('/users/9999/badges', 404);
      await fails('/users/3/badges', 404, undefined, b);
    });

    it('GET /content: newest first, default 20, clamped at 100; order_by, direction, type, sub-type, category, tags, search', async () => {
      const page = await ok('/content');
      assert.equal(page.length, 20);
      assert.equal(page[0]?.id, 824, 'newest first');
      const item = (await ok('/content?order_by=time_added&direction=asc&limit=1'))[0];
      assert.deepEqual(item, {
        id: 800,
        title: 'Item Z',
        description: '',
        type_id: 1,
        sub_type_id: 1,
        category_id: 10,
        category: { id: 10, name: 'Safety' },
        tags: ['Fire', 'drill'],
        url: 'https://example.test/item/0',
        time_added: '2024-01-01T00:00:00Z',
        time_modified: '2024-01-01T00:00:00Z',
      });
      assert.equal((await ok('/content?limit=100')).length, 25);
      assert.equal((await ok('/content?limit=1000')).length, 25, 'clamped, not refused');
      assert.deepEqual(await ids('/content?order_by=title&direction=asc&limit=2'), [824, 823]);
      assert.equal((await ok('/content?type_id=2&limit=100')).length, 12);
      assert.deepEqual(await ids('/content?sub_type_id=3&direction=asc'), [802, 813, 824]);
      assert.deepEqual(await ids('/content?category_id=10&direction=asc'), [800, 801, 802]);
      assert.deepEqual(await ids('/content?tags=FIRE,none&direction=asc'), [800, 801, 802]);
      assert.deepEqual(await ids('/content?tags=fir'), [], 'a tag matches whole');
      assert.deepEqual(await ids('/content?search=item+y'), [801]);
      assert.deepEqual(await ids('/content?unknown=1&limit=1'), [824], 'unknown parameters are ignored');
      for (const bad of ['type_id=3', 'sub_type_id=12', 'order_by=id', 'direction=up', 'start=-1', 'limit=1.5']) {
        assert.equal((await fails(`/content?${bad}`, 400)).code, 'validation_error', bad);
      }
      assert.equal((await ok('/content?limit=1000', b)).length, 100, 'a limit above 100 is clamped to 100');
      assert.deepEqual(await ids('/content?start=118', b), [2118, 2119], 'ties in id order');
      assert.equal((await ok('/content', b)).length, 20);
    });

    it('curriculums: status, a user’s curriculums, students with onlyCompleted and completion dates', async () => {
      assert.deepEqual(await ids('/curriculums'), [600]);
      assert.deepEqual(await ids('/curriculums?status=archived'), [601]);
      const [path] = await ok('/curriculums/user/2');
      assert.equal(path?.id, 600);
      assert.equal(path?.progress, 40);
      assert.equal(path?.time_spent, 90);
      assert.equal(path?.completed, false);
      assert.deepEqual(await ids('/curriculums/user/EXT-3?external_id=true'), [600]);
      assert.deepEqual(await ids('/curriculums/user/5'), []);
      await fails('/curriculums/user/9999', 404);
      assert.deepEqual(await ids('/curriculums/600/students'), [2, 3, 4]);
      assert.deepEqual(await ids('/curriculums/600/students?onlyCompleted=true'), [3]);
      assert.deepEqual(await ids('/curriculums/600/students?completionStartDate=2024-04-01'), [3]);
      assert.deepEqual(await ids('/curriculums/600/students?completionEndDate=2024-03-31'), []);
      assert.equal((await fails('/curriculums/600/students?completionStartDate=April', 400)).code, 'validation_error');
      await fails('/curriculums/999/students', 404);
      await fails('/curriculums/901/students', 404);
    });

    it('PUT /curriculums/:id/completeByAdmin changes the students list; unknown curriculum or user refused', async () => {
      assert.equal((await fails('/curriculums/999/completeByAdmin', 404, put({ userIds: [2] }))).code, 'not_found');
      await fails('/curriculums/901/completeByAdmin', 404, put({ userIds: [2] }));
      const bad = await fails('/curriculums/600/completeByAdmin', 400, put({ userIds: [2, 9999] }));
      assert.deepEqual(
        bad.errors?.map((e) => [e.field, e.code]),
        [['userIds.1', 'not_found']],
      );
      assert.equal(
        (await fails('/curriculums/600/completeByAdmin', 400, put({ userIds: [] }))).code,
        'validation_error',
      );
      const eleven = Array.from({ length: 11 }, (_, i) => i + 2);
      await fails('/curriculums/600/completeByAdmin', 400, put({ userIds: eleven }));
      assert.deepEqual(await ids('/curriculums/600/students?onlyCompleted=true'), [3], 'nothing written by a refusal');

      const res = await call('/curriculums/600/completeByAdmin?completedAt=2024-06-01', put({ userIds: [2, 5] }));
      assert.equal(res.status, 200);
      const body = (await res.json()) as Row;
      assert.deepEqual(
        { ...body, message: undefined },
        {
          status: 200,
          message: undefined,
          userIds: [2, 5],
          completedAt: '2024-06-01',
        },
      );
      const bare = await call('/curriculums/600/completeByAdmin?externalIds=true', put(['EXT-4', 'EXT-3']));
      assert.equal(bare.status, 200, await bare.text());
      const students = await ok('/curriculums/600/students?onlyCompleted=true');
      assert.deepEqual(
        students.map((s) => [s.id, s.progress, s.completion_date, s.completed_by_admin]),
        [
          [2, 100, '2024-06-01', true],
          [3, 100, '2024-04-01', true],
          [4, 100, students[2]?.completion_date, true],
          [5, 100, '2024-06-01', true],
        ],
      );
      assert.match(String(students[2]?.completion_date), /^\d{4}-\d{2}-\d{2}$/);
      assert.deepEqual(
        await ids('/curriculums/600/students?completionStartDate=2024-06-01&completionEndDate=2024-06-01'),
        [2, 5],
      );
      assert.deepEqual(await ids('/curriculums/user/5'), [600], 'completing enrolls a user who was not enrolled');
    });

    it('GET /usage: {availableCalls, until} counted against the academy’s rate limit', async () => {
      const clock = server.app.services.clock;
      clock.set(Date.UTC(2034, 0, 1, 13, 0, 0));
      try {
        assert.deepEqual(await ok('/usage'), { availableCalls: RATE - 1, until: '01/01/2034 01:01:00 pm' });
        await ok('/courses');
        assert.deepEqual(await ok('/usage'), { availableCalls: RATE - 3, until: '01/01/2034 01:01:00 pm' });
        assert.deepEqual(await ok('/usage', b), { availableCalls: RATE - 1, until: '01/01/2034 01:01:00 pm' });
      } finally {
        clock.reset();
      }
    });

    it('the import refuses malformed new sections, naming each field, and writes nothing', async () => {
      const c = await server.app.services.academies.create('Academy C');
      const file = {
        users: [
          {
            id: 2,
            firstname: 'A',
            lastname: 'B',
            email: 'a@example.test',
            badges: [{ id: 1, name: 'X', awardedDate: '2024-02-30' }],
          },
        ],
        courses: [{ id: 500, title: 'C', lectures: [{ id: 1 }], coupons: [{ id: 9, code: 'K' }] }],
        content: [{ id: 1, title: 'T', type_id: 3, sub_type_id: 1, time_added: '2024-01-01T00:00:00Z' }],
      };
      await assert.rejects(server.app.services.directory.import(academyTenantId(c.acadId), file), (err: unknown) => {
        assert.ok(err instanceof FieldValidationError);
        const fields = err.fields.map((e) => e.field);
        for (const f of ['users.0.badges.0.awardedDate', 'courses.0.lectures.0.title', 'content.0.type_id']) {
          assert.ok(fields.includes(f), `${f} in ${fields.join(', ')}`);
        }
        return true;
      });
      const refs = {
        users: [{ id: 2, firstname: 'A', lastname: 'B', email: 'a@example.test' }],
        courses: [{ id: 500, title: 'C', coupons: [{ id: 9, code: 'K' }] }],
        curriculums: [{ id: 600, title: 'P' }],
        content: [
          {
            id: 1,
            title: 'T',
            type_id: 1 as const,
            sub_type_id: 1,
            categoryId: 77,
            time_added: '2024-01-01T00:00:00Z',
          },
        ],
        enrollments: [
          { userId: 2, courseId: 500, curriculumId: 600, enrolled_date: '2024-01-01' },
          { userId: 3, courseId: 500, enrolled_date: '2024-01-01' },
          { userId: 2, courseId: 501, enrolled_date: '2024-01-01' },
          { userId: 2, courseId: 500, couponId: 8, enrolled_date: '2024-01-01' },
          { userId: 2, curriculumId: 600, enrolled_date: '2024-01-01' },
          { userId: 2, curriculumId: 600, enrolled_date: '2024-01-02' },
        ],
      };
      await assert.rejects(server.app.services.directory.import(academyTenantId(c.acadId), refs), (err: unknown) => {
        assert.ok(err instanceof FieldValidationError);
        assert.deepEqual(
          err.fields.map((e) => [e.field, e.code]),
          [
            ['enrollments.0.courseId', 'invalid'],
            ['enrollments.5.userId', 'duplicate'],
          ],
        );
        return true;
      });
      refs.enrollments.splice(5, 1);
      refs.enrollments.splice(0, 1);
      await assert.rejects(server.app.services.directory.import(academyTenantId(c.acadId), refs), (err: unknown) => {
        assert.ok(err instanceof FieldValidationError);
        assert.deepEqual(
          err.fields.map((e) => [e.field, e.code]),
          [
            ['content.0.categoryId', 'not_found'],
            ['enrollments.0.userId', 'not_found'],
            ['enrollments.1.courseId', 'not_found'],
            ['enrollments.2.couponId', 'not_found'],
          ],
        );
        return true;
      });
      const written = await server.app.database.db
        .selectFrom('academy_enrollments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('academy_id', '=', c.acadId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(written.n), 0);
      assert.deepEqual(await ok('/courses', c), []);
    });
  });
}
