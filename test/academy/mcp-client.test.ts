import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CreatedAcademy } from '../../src/academy/academies/service.js';
import { academyTenantId } from '../../src/platform/db/tenant.js';
import { richDirectory } from '../support/directory-fixture.js';
import { dialects, startServer, type TestServer } from '../support/harness.js';

/**
 * Replays the official MCP server (schoox/schoox-mcp-server, reference digest §1.1) against Atrium: GET only, the
 * one header `Accept: application/json`, the query `apikey`, `acadId`, the tool's parameters (set with
 * URLSearchParams), then `start` and `limit`; paginated routes loop with `limit=min(100, max−collected)` while a
 * page is a bare array as long as the limit, and wrap anything else as one item.
 */
class McpReplica {
  readonly urls: URL[] = [];

  constructor(
    private readonly base: string,
    private readonly apikey: string,
    private readonly acadId: number,
    private readonly maxRecords = 1000,
  ) {}

  async fetch(path: string, params: Record<string, string | number | boolean>): Promise<unknown> {
    const base = this.base.endsWith('/') ? this.base : `${this.base}/`;
    const url = new URL(path.replace(/^\//, ''), base);
    url.searchParams.set('apikey', this.apikey);
    url.searchParams.set('acadId', String(this.acadId));
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
    this.urls.push(url);
    const res = await fetch(url, { method: 'GET', headers: { Accept: 'application/json' } });
    assert.equal(res.status, 200, `${url.pathname}${url.search}: ${res.status}`);
    return res.json();
  }

  async pages(
    path: string,
    params: Record<string, string | number | boolean>,
  ): Promise<{ data: unknown[]; truncated: boolean }> {
    const data: unknown[] = [];
    let start = 0;
    let truncated = false;
    for (;;) {
      const limit = Math.min(100, this.maxRecords - data.length);
      const page = await this.fetch(path, { ...params, start, limit });
      if (!Array.isArray(page)) return { data: [page], truncated };
      data.push(...page);
      if (page.length < limit) break;
      if (data.length >= this.maxRecords) {
        truncated = true;
        break;
      }
      start += page.length;
    }
    return { data, truncated };
  }

  /** A tool call: path placeholders filled from the arguments, the rest sent as query parameters. */
  async tool(
    route: string,
    paginated: boolean,
    args: Record<string, string | number | boolean> = {},
  ): Promise<{ data: unknown[]; truncated: boolean }> {
    let path = route;
    const query: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(args)) {
      if (path.includes(`{${k}}`)) path = path.replace(`{${k}}`, String(v));
      else query[k] = v;
    }
    // A non-paginated route's answer, passed through (typed as a list for the assertions that read it as one).
    if (!paginated) return { data: (await this.fetch(path, query)) as unknown[], truncated: false };
    delete query.start;
    delete query.limit;
    return this.pages(path, query);
  }
}

const USER_FIELDS = [
  'id',
  'firstname',
  'middlename',
  'lastname',
  'preferred_name',
  'email',
  'active',
  'hired_date',
  'joined_date',
  'image',
  'units',
  'external_id',
];
const COURSE_FIELDS = [
  'id',
  'title',
  'description',
  'students',
  'lectures_count',
  'exams_count',
  'events_count',
  'external_id',
  'category_ids',
  'categories',
  'status',
  'language',
];
const CURRICULUM_FIELDS = ['id', 'title', 'description', 'category_id', 'category', 'external_id', 'status'];
const ENROLLMENT_FIELDS = ['role', 'enrolled_date', 'progress', 'time_spent', 'completed', 'completion_date'];
const STUDENT_FIELDS = ['id', 'firstname', 'lastname', 'email', 'external_id', ...ENROLLMENT_FIELDS];

function hasFields(items: unknown[], fields: string[], what: string): void {
  assert.ok(items.length > 0, `${what}: some items`);
  for (const item of items) {
    assert.equal(typeof item, 'object', what);
    for (const f of fields) assert.ok(f in (item as object), `${what}: ${f} in ${JSON.stringify(item)}`);
  }
}

for (const dialect of dialects()) {
  describe(`the official MCP server's calls (${dialect})`, () => {
    let server: TestServer;
    let a: CreatedAcademy;
    let mcp: McpReplica;

    before(async () => {
      server = await startServer(dialect);
      a = await server.app.services.academies.create('MCP academy');
      await server.app.services.directory.import(academyTenantId(a.acadId), richDirectory());
      mcp = new McpReplica(`${server.url}/v1`, a.apikey, a.acadId);
    });
    after(() => server.close());

    it('users: list pages through every user (100, then 51); get and get_badges', async () => {
      mcp.urls.length = 0;
      const list = await mcp.tool('/users', true, { search: 'e' });
      assert.equal(list.data.length, 151);
      assert.equal(list.truncated, false);
      assert.deepEqual(
        mcp.urls.map((u) => [...u.searchParams.keys()]),
        [
          ['apikey', 'acadId', 'search', 'start', 'limit'],
          ['apikey', 'acadId', 'search', 'start', 'limit'],
        ],
      );
      assert.deepEqual(
        mcp.urls.map((u) => [u.searchParams.get('start'), u.searchParams.get('limit')]),
        [
          ['0', '100'],
          ['100', '100'],
        ],
      );
      hasFields(list.data, USER_FIELDS, 'users');
      const one = await mcp.tool('/users/{userId}', false, { userId: 2, external_id: false, is_email: false });
      hasFields([one.data], USER_FIELDS, 'user');
      const badges = await mcp.tool('/users/{userId}/badges', false, { userId: 2 });
      hasFields(badges.data as unknown[], ['id', 'name'], 'badges');
    });

    it('courses: list, user courses, categories, get and every per-course list', async () => {
      const list = await mcp.tool('/courses', true, { status: 'active', search: 'i', onlyCompleted: true });
      assert.deepEqual(
        list.data.map((c) => (c as { id: number }).id),
        [500, 502],
      );
      hasFields(list.data, COURSE_FIELDS, 'courses');
      const mine = await mcp.tool('/courses/user/{userId}', true, { userId: '2', external_id: false });
      hasFields(mine.data, [...COURSE_FIELDS, ...ENROLLMENT_FIELDS], 'user courses');
      const categories = await mcp.tool('/courses/categories', false, {});
      hasFields(categories.data as unknown[], ['id', 'name'], 'course categories');
      const course = await mcp.tool('/courses/{courseId}', false, { courseId: 500 });
      hasFields([course.data], COURSE_FIELDS, 'course');

      mcp.urls.length = 0;
      const students = await mcp.tool('/courses/{courseId}/students', true, { courseId: 500, start: 7, limit: 3 });
      assert.equal(students.data.length, 130, 'the tool’s own start/limit are dropped; 100, then 30');
      assert.equal(mcp.urls.length, 2);
      hasFields(students.data, STUDENT_FIELDS, 'course students');
      const completed = await mcp.tool('/courses/{courseId}/students', true, { courseId: 500, onlyCompleted: true });
      assert.equal(completed.data.length, 5);

      for (const [path, fields] of [
        ['skills', ['id', 'name']],
        ['lectures', ['id', 'title']],
        ['exams', ['id', 'title']],
        ['coupons', ['id', 'code']],
        ['invitations', ['id', 'email']],
      ] as const) {
        const res = await mcp.tool(`/courses/{courseId}/${path}`, false, { courseId: 500 });
        hasFields(res.data as unknown[], [...fields], path);
      }
      const coupon = await mcp.tool('/courses/{courseId}/coupons/{couponId}', false, { courseId: 500, couponId: 90 });
      hasFields(coupon.data as unknown[], STUDENT_FIELDS, 'coupon students');
    });

    it('curriculums: list, user curriculums, get and students (with the tool’s filters)', async () => {
      const list = await mcp.tool('/curriculums', true, { status: 'active' });
      hasFields(list.data, CURRICULUM_FIELDS, 'curriculums');
      const mine = await mcp.tool('/curriculums/user/{userId}', true, {
        userId: 2,
        external_id: false,
        anyLanguage: true,
      });
      hasFields(mine.data, [...CURRICULUM_FIELDS, ...ENROLLMENT_FIELDS], 'user curriculums');
      const one = await mcp.tool('/curriculums/{curriculumId}', false, { curriculumId: 600 });
      hasFields([one.data], CURRICULUM_FIELDS, 'curriculum');
      const students = await mcp.tool('/curriculums/{curriculumId}/students', true, {
        curriculumId: 600,
        onlyCompleted: true,
        completionStartDate: '2024-01-01',
        completionEndDate: '2024-12-31',
      });
      assert.deepEqual(
        students.data.map((s) => (s as { id: number }).id),
        [3],
      );
      hasFields(students.data, STUDENT_FIELDS, 'curriculum students');
    });

    it('content and usage', async () => {
      const content = await mcp.tool('/content', true, { order_by: 'title', direction: 'asc', search: 'Item Z' });
      hasFields(content.data, ['id', 'title', 'type_id', 'sub_type_id', 'tags'], 'content');
      const all = await mcp.tool('/content', true, {});
      assert.equal(all.data.length, 25, 'limit=100 honoured: one page has every item');
      const usage = await mcp.tool('/usage', false, {});
      const body = usage.data as unknown as { availableCalls: unknown; until: unknown };
      assert.equal(typeof body.availableCalls, 'number');
      assert.match(String(body.until), /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} [ap]m$/);
    });
  });
}
