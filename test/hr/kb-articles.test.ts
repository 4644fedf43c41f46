import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Version {
  id: string;
  language_code: string;
  title: string;
  body?: string;
  creator_id: string | null;
  updator_id: string | null;
  created_at: string;
  updated_at: string;
}
interface Article {
  id: string;
  slug: string;
  author_id: string | null;
  last_hits: number;
  total_hits: number;
  last_updated_at: string;
  last_updater_id: string | null;
  created_at: string;
  updated_at: string;
  featured_on_employee_homepage: boolean;
  once_on_employee_homepage: boolean;
  permanent_on_employee_homepage: boolean;
  versions: Version[];
  categories_ids: string[];
  expiration_date: string | null;
  scheduled_publication_date: string | null;
  status: string;
  accessible_by_hr: boolean;
  accessible_by_employee: boolean;
  employees_perimeters: {
    operator: string;
    organization_id: string | null;
    organization_group_id: string | null;
    custom_field_filters: { custom_field_id: string; operator: string; value: string }[];
  }[];
  role_restrictions: { role_id: string; role_name: string }[];
  localized_search_keywords: { language_code: string; value: string }[];
  localized_tags: { language_code: string; values: string[] }[];
}
interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function fieldErrors(res: Response): Promise<[string, string][]> {
  const body = await json<ErrorBody>(res, 422);
  assert.equal(body.code, 'validation_error');
  return (body.errors ?? []).map((e) => [e.field, e.code]);
}

const version = (title: string, body = `<p>${title}</p>`, language_code = 'en-us') => ({ language_code, title, body });

for (const dialect of dialects()) {
  describe(`knowledge-base articles and tags (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let cat1: string;
    let cat2: string;
    let author: string;

    const put = (id: string, body: Record<string, unknown>, caller = hr) =>
      caller.call('PUT', `/kb_articles/${id}`, body);
    const article = (extra: Record<string, unknown> = {}) => ({
      categories_ids: [cat1],
      versions: [version('Holiday policy')],
      ...extra,
    });
    const ids = async (path: string, caller = hr) =>
      (await json<Article[]>(await caller.call('GET', path), 200)).map((a) => a.id);

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      cat1 = randomUUID();
      cat2 = randomUUID();
      for (const id of [cat1, cat2]) {
        await json(
          await hr.call('PUT', `/kb_categories/${id}`, { localized_name: [{ language_code: 'en-us', value: id }] }),
          200,
        );
      }
      await json(
        await hr.call('PUT', `/kb_categories/${cat2}`, {
          localized_name: [{ language_code: 'fr-fr', value: 'Deux' }],
        }),
        200,
      );
      author = (
        await json<{ id: string }>(
          await hr.call('POST', '/users', { firstname: 'Ada', lastname: 'Writer', email: 'ada@example.com' }),
          201,
        )
      ).id;
      await json(await hr.call('PUT', '/roles/editors', { id: 'editors', name: 'Editors' }), 201);
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      await json(await hr.call('PUT', '/organization_groups/g1', { name: 'G1', organizations_ids: ['hq'] }), 201);
    });
    after(() => server.close());

    it('PUT creates (201), GET reads, PUT updates versions by language (200), PATCH publishes, DELETE deletes', async () => {
      const id = randomUUID();
      const created = await json<Article>(
        await put(id, {
          categories_ids: [cat1, cat2],
          author_id: author,
          versions: [
            version('Holiday policy', '<p>Take <strong>25</strong> days</p>'),
            version('Congés', '<p>25 jours</p>', 'fr-fr'),
          ],
          featured_on_employee_homepage: true,
          expiration_date: '2999-12-31',
          employees_perimeters: [{ operator: '<=', organization_id: 'hq', custom_field_filters: [] }],
          role_restrictions: [{ role_id: 'editors', role_name: 'ignored' }],
          localized_search_keywords: [{ language_code: 'en-us', value: 'vacation leave' }],
          localized_tags: [
            { language_code: 'en-us', values: ['Leave', 'time-off'] },
            { language_code: 'fr-fr', values: ['congé'] },
          ],
        }),
        201,
      );
      assert.equal(created.id, id);
      assert.equal(created.slug, 'holiday-policy');
      assert.equal(created.author_id, author);
      assert.equal(created.status, 'draft', 'draft by default');
      assert.equal(created.last_hits, 0);
      assert.equal(created.total_hits, 0);
      assert.match(created.last_updated_at, DATETIME);
      assert.equal(created.featured_on_employee_homepage, true);
      assert.equal(created.permanent_on_employee_homepage, false);
      assert.equal(created.accessible_by_hr, true);
      assert.equal(created.accessible_by_employee, true);
      assert.deepEqual(created.categories_ids, [cat1, cat2]);
      assert.equal(created.expiration_date, '2999-12-31');
      assert.equal(created.scheduled_publication_date, null);
      assert.deepEqual(created.employees_perimeters, [
        { operator: '<=', organization_id: 'hq', organization_group_id: null, custom_field_filters: [] },
      ]);
      assert.deepEqual(created.role_restrictions, [{ role_id: 'editors', role_name: 'Editors' }]);
      assert.deepEqual(created.localized_tags, [
        { language_code: 'en-us', values: ['Leave', 'time-off'] },
        { language_code: 'fr-fr', values: ['congé'] },
      ]);
      assert.deepEqual(
        created.versions.map((v) => [v.language_code, v.title, v.body, v.creator_id]),
        [
          ['en-us', 'Holiday policy', '<p>Take <strong>25</strong> days</p>', author],
          ['fr-fr', 'Congés', '<p>25 jours</p>', author],
        ],
      );
      for (const v of created.versions) assert.match(v.id, UUID);
      assert.deepEqual(await json<Article>(await hr.call('GET', `/kb_articles/${id}`), 200), created);

      const updated = await json<Article>(
        await put(id, {
          categories_ids: [cat2],
          versions: [version('Política', '<p>25 días</p>', 'es-es'), version('Holiday policy', '<p>Take 30 days</p>')],
          status: 'published',
        }),
        200,
      );
      assert.equal(updated.author_id, author, 'author kept when left out');
      assert.equal(updated.status, 'published');
      assert.deepEqual(updated.categories_ids, [cat2]);
      assert.deepEqual(
        updated.versions.map((v) => v.language_code),
        ['es-es', 'en-us'],
      );
      const en = updated.versions.find((v) => v.language_code === 'en-us');
      assert.equal(en?.id, created.versions[0]?.id, 'same language keeps its version id');
      assert.equal(en?.body, '<p>Take 30 days</p>');
      assert.deepEqual(updated.employees_perimeters, [], 'PUT replaces');
      assert.deepEqual(updated.localized_tags, []);
      assert.equal(updated.featured_on_employee_homepage, false);

      const drafted = await json<Article>(
        await hr.call('PATCH', `/kb_articles/${id}`, {
          status: 'draft',
          employee_perimeters: [{ operator: '=', organization_group_id: 'g1', custom_field_filters: [] }],
          localized_tags: [{ language_code: 'en-us', values: ['Patched'] }],
          accessible_by_hr: false,
          last_updater_id: author,
        }),
        200,
      );
      assert.equal(drafted.status, 'draft');
      assert.equal(drafted.accessible_by_hr, false);
      assert.equal(drafted.last_updater_id, author);
      assert.deepEqual(drafted.employees_perimeters, [
        { operator: '=', organization_id: null, organization_group_id: 'g1', custom_field_filters: [] },
      ]);
      assert.deepEqual(drafted.localized_tags, [{ language_code: 'en-us', values: ['Patched'] }]);
      assert.deepEqual(drafted.versions, updated.versions, 'PATCH leaves versions alone');
      const spelled = await json<Article>(
        await hr.call('PATCH', `/kb_articles/${id}`, { employees_perimeters: [], status: 'published' }),
        200,
      );
      assert.deepEqual(spelled.employees_perimeters, [], 'the base spelling is accepted too');
      assert.equal(spelled.status, 'published');
      assert.deepEqual(await json<Article>(await hr.call('GET', `/kb_articles/${id}`), 200), spelled);

      assert.equal((await hr.call('DELETE', `/kb_articles/${id}`)).status, 204);
      assert.equal((await hr.call('GET', `/kb_articles/${id}`)).status, 404);
      assert.equal((await hr.call('DELETE', `/kb_articles/${id}`)).status, 404);
      assert.equal((await hr.call('PATCH', `/kb_articles/${id}`, { status: 'draft' })).status, 404);
    });

    it('a scheduled article needs its date and counts as published from that day', async () => {
      const id = randomUUID();
      assert.deepEqual(await fieldErrors(await put(id, article({ status: 'scheduled' }))), [
        ['scheduled_publication_date', 'required'],
      ]);
      const future = await json<Article>(
        await put(id, article({ status: 'scheduled', scheduled_publication_date: '2999-01-01' })),
        201,
      );
      assert.equal(future.status, 'scheduled');
      assert.ok((await ids('/kb_articles?status=scheduled&per_page=100')).includes(id), 'listed as scheduled');
      const past = await json<Article>(
        await put(id, article({ status: 'scheduled', scheduled_publication_date: '2000-01-01' })),
        200,
      );
      assert.equal(past.status, 'published');
      assert.ok((await ids('/kb_articles?status=published&per_page=100')).includes(id), 'listed as published');
      assert.ok(!(await ids('/kb_articles?status=scheduled&per_page=100')).includes(id), 'not as scheduled');
      await json(await hr.call('DELETE', `/kb_articles/${id}`), 204);
    });

    it('validation: every rule is a clear 4xx and writes nothing', async () => {
      const id = randomUUID();
      assert.equal((await hr.call('GET', '/kb_articles/nope')).status, 404);
      assert.equal((await put('nope', article())).status, 404);
      assert.deepEqual(await fieldErrors(await put(id, { versions: [version('T')] })), [
        ['categories_ids', 'required'],
      ]);
      assert.deepEqual(await fieldErrors(await put(id, { categories_ids: [cat1] })), [['versions', 'required']]);
      const unknown = randomUUID();
      assert.deepEqual(await fieldErrors(await put(id, article({ categories_ids: [cat1, unknown] }))), [
        ['categories_ids.1', 'not_found'],
      ]);
      const foreign = randomUUID();
      await json(
        await other.call('PUT', `/kb_categories/${foreign}`, {
          localized_name: [{ language_code: 'en-us', value: 'X' }],
        }),
        200,
      );
      assert.deepEqual(await fieldErrors(await put(id, article({ categories_ids: [foreign] }))), [
        ['categories_ids.0', 'not_found'],
      ]);
      assert.deepEqual(
        await fieldErrors(
          await put(id, article({ versions: [version('A'), version('B', 'x', 'fr-fr'), version('C')] })),
        ),
        [['versions.2.language_code', 'duplicate_items']],
      );
      assert.deepEqual(await fieldErrors(await put(id, article({ author_id: randomUUID() }))), [
        ['author_id', 'not_found'],
      ]);
      assert.deepEqual(await fieldErrors(await put(id, article({ role_restrictions: [{ role_id: 'nobody' }] }))), [
        ['role_restrictions.0.role_id', 'not_found'],
      ]);
      assert.deepEqual(
        (
          await fieldErrors(
            await put(
              id,
              article({ employees_perimeters: [{ operator: '<', organization_id: 'hq', custom_field_filters: [] }] }),
            ),
          )
        ).map(([f]) => f),
        ['employees_perimeters.0.operator'],
      );
      assert.deepEqual(
        await fieldErrors(
          await put(
            id,
            article({
              employees_perimeters: [
                { operator: '<=', organization_group_id: 'g1', custom_field_filters: [] },
                { operator: '=', organization_id: 'nowhere', custom_field_filters: [] },
                { operator: '=', custom_field_filters: [{ custom_field_id: 'nofield', operator: '=', value: 'x' }] },
              ],
            }),
          ),
        ),
        [
          ['employees_perimeters.0.operator', 'not_allowed'],
          ['employees_perimeters.1.organization_id', 'not_found'],
          ['employees_perimeters.2.custom_field_filters.0.custom_field_id', 'not_found'],
        ],
      );
      assert.deepEqual(
        await fieldErrors(
          await put(id, article({ localized_tags: [{ language_code: 'en-us', values: ['Pay', 'pay'] }] })),
        ),
        [['localized_tags.0.values.1', 'duplicate_items']],
      );
      assert.deepEqual(
        (await fieldErrors(await put(id, article({ status: 'archived' })))).map(([f]) => f),
        ['status'],
      );
      assert.deepEqual(
        (await fieldErrors(await put(id, article({ expiration_date: '2024-02-30' })))).map(([f]) => f),
        ['expiration_date'],
      );
      assert.equal((await hr.call('GET', `/kb_articles/${id}`)).status, 404, 'nothing written');

      await json(await put(id, article()), 201);
      assert.deepEqual(
        (await fieldErrors(await hr.call('PATCH', `/kb_articles/${id}`, { status: 'scheduled' }))).map(([f]) => f),
        ['status'],
        'scheduled is refused on PATCH',
      );
      assert.deepEqual(
        await fieldErrors(
          await hr.call('PATCH', `/kb_articles/${id}`, {
            employee_perimeters: [],
            employees_perimeters: [],
          }),
        ),
        [['employees_perimeters', 'not_allowed']],
      );
      assert.deepEqual(
        await fieldErrors(
          await hr.call('PATCH', `/kb_articles/${id}`, {
            employee_perimeters: [{ operator: '<=', organization_group_id: 'g1', custom_field_filters: [] }],
          }),
        ),
        [['employee_perimeters.0.operator', 'not_allowed']],
      );
      assert.equal((await json<Article>(await hr.call('GET', `/kb_articles/${id}`), 200)).status, 'draft');

      for (const q of ['sort=-views', 'sort=title,title', 'q=ab', 'status=archived', 'embed=versions']) {
        const res = await json<ErrorBody>(await hr.call('GET', `/kb_articles?${q}`), 400);
        assert.equal(res.code, 'invalid_request', q);
      }
      assert.equal(
        (await json<ErrorBody>(await hr.call('GET', '/kb_articles?q=%21%21%21'), 400)).code,
        'invalid_request',
      );
      assert.deepEqual(await fieldErrors(await hr.call('GET', '/kb_articles?organization_id=nowhere')), [
        ['organization_id', 'not_found'],
      ]);
      assert.deepEqual(await fieldErrors(await hr.call('GET', `/kb_articles?employee_id=${randomUUID()}`)), [
        ['employee_id', 'not_found'],
      ]);
      await json(await hr.call('DELETE', `/kb_articles/${id}`), 204);
    });

    it('lists: bodies only with embed, filters, sorts and pages', async () => {
      const caller = await hrCaller(server);
      const cat = randomUUID();
      const catFr = randomUUID();
      await json(
        await caller.call('PUT', `/kb_categories/${cat}`, { localized_name: [{ language_code: 'en-us', value: 'A' }] }),
        200,
      );
      await json(
        await caller.call('PUT', `/kb_categories/${catFr}`, {
          localized_name: [{ language_code: 'fr-fr', value: 'B' }],
        }),
        200,
      );
      await json(await caller.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      const made: Record<string, string> = {};
      const titles = ['delta', 'Alpha', 'charlie', 'bravo', 'echo'];
      for (const [i, title] of titles.entries()) {
        const id = randomUUID();
        made[title] = id;
        await json(
          await put(
            id,
            {
              categories_ids: i % 2 ? [catFr] : [cat],
              versions: i === 2 ? [version(title), version(`${title} fr`, '<p>fr</p>', 'fr-fr')] : [version(title)],
              status: i < 3 ? 'published' : 'draft',
              featured_on_employee_homepage: i === 0,
              permanent_on_employee_homepage: i === 1,
              expiration_date: i === 4 ? '2999-01-01' : null,
              localized_tags: [{ language_code: i === 3 ? 'fr-fr' : 'en-us', values: [`tag${i % 2}`] }],
              employees_perimeters: i === 4 ? [{ operator: '=', organization_id: 'hq', custom_field_filters: [] }] : [],
            },
            caller,
          ),
          201,
        );
      }
      const list = (q: string) => ids(`/kb_articles?per_page=100&${q}`, caller);
      const plain = await json<Article[]>(await caller.call('GET', '/kb_articles'), 200);
      assert.equal(plain.length, 5);
      assert.ok(
        plain.every((a) => a.versions.every((v) => v.body === undefined)),
        'no bodies without embed',
      );
      const embedded = await json<Article[]>(await caller.call('GET', '/kb_articles?embed=versions.body'), 200);
      assert.ok(
        embedded.every((a) => a.versions.every((v) => typeof v.body === 'string')),
        'bodies with embed',
      );
      assert.deepEqual(
        plain.map((a) => a.id),
        ['echo', 'bravo', 'charlie', 'Alpha', 'delta'].map((t) => made[t]),
        'default -updated_at',
      );
      assert.deepEqual(
        await list('sort=title'),
        ['Alpha', 'bravo', 'charlie', 'delta', 'echo'].map((t) => made[t]),
      );
      assert.deepEqual(
        await list('sort=-title'),
        ['echo', 'delta', 'charlie', 'bravo', 'Alpha'].map((t) => made[t]),
      );
      assert.deepEqual(
        await list('sort=%2Bcreated_at'),
        titles.map((t) => made[t]),
      );
      assert.deepEqual(
        await list('sort=-expiration_date,title'),
        ['echo', 'Alpha', 'bravo', 'charlie', 'delta'].map((t) => made[t]),
      );
      assert.deepEqual(
        await list('status=published&sort=title'),
        ['Alpha', 'charlie', 'delta'].map((t) => made[t]),
      );
      assert.deepEqual(
        await list('status=draft&sort=title'),
        ['bravo', 'echo'].map((t) => made[t]),
      );
      assert.deepEqual(
        await list(`categories_ids=${catFr}&sort=title`),
        ['Alpha', 'bravo'].map((t) => made[t]),
      );
      assert.deepEqual(
        await list(`categories_ids=${catFr},${cat}&sort=title`),
        ['Alpha', 'bravo', 'charlie', 'delta', 'echo'].map((t) => made[t]),
      );
      assert.deepEqual(
        await list('category_original_language_code=fr-fr&sort=title'),
        ['Alpha', 'bravo'].map((t) => made[t]),
      );
      assert.deepEqual(await list('featured_on_employee_homepage=true'), [made.delta]);
      assert.deepEqual(await list('permanent_on_employee_homepage=true'), [made.Alpha]);
      assert.deepEqual(await list('with_expiration_date=true'), [made.echo]);
      assert.deepEqual(
        await list('with_expiration_date=yes&sort=title'),
        await list('sort=title'),
        'other values ignored',
      );
      assert.deepEqual(await list('version_language_code=fr-fr'), [made.charlie]);
      assert.deepEqual(
        await list('tags=TAG1&sort=title'),
        ['Alpha', 'bravo'].map((t) => made[t]),
      );
      assert.deepEqual(await list('tags=tag1&tags_language_code=en-us'), [made.Alpha]);
      assert.deepEqual(await list('organization_id=hq'), [made.echo]);

      // Pages of two, by title, then back.
      const seen: string[] = [];
      let url = '/kb_articles?per_page=2&sort=title';
      let previous: string | null = null;
      for (let i = 0; i < 5; i++) {
        const res = await caller.call('GET', url);
        const page = await json<Article[]>(res, 200);
        seen.push(...page.map((a) => a.id));
        const next = res.headers.get('next-cursor');
        if (!next) {
          previous = res.headers.get('previous-cursor');
          break;
        }
        url = `/kb_articles?per_page=2&sort=title&cursor=${next}`;
      }
      assert.deepEqual(
        seen,
        ['Alpha', 'bravo', 'charlie', 'delta', 'echo'].map((t) => made[t]),
      );
      assert.ok(previous, 'the last page has a previous cursor');
      assert.deepEqual(
        await ids(`/kb_articles?per_page=2&sort=title&cursor=${previous}`, caller),
        ['charlie', 'delta'].map((t) => made[t]),
      );
      const first = await caller.call('GET', '/kb_articles?per_page=2&sort=title');
      const cursor = first.headers.get('next-cursor');
      assert.equal(
        (await caller.call('GET', `/kb_articles?per_page=2&sort=-title&cursor=${cursor}`)).status,
        400,
        'a cursor is bound to its sort',
      );

      // once_on_employee_homepage: the oldest published one to show once.
      assert.deepEqual(await list('once_on_employee_homepage=true'), []);
      await json(await caller.call('PATCH', `/kb_articles/${made.bravo}`, { status: 'published' }), 200);
      await json(
        await put(
          made.bravo as string,
          {
            categories_ids: [catFr],
            versions: [version('bravo')],
            status: 'published',
            once_on_employee_homepage: true,
          },
          caller,
        ),
        200,
      );
      const once = await json<Article[]>(
        await caller.call('GET', '/kb_articles?once_on_employee_homepage=true&status=draft'),
        200,
      );
      assert.deepEqual(
        once.map((a) => a.id),
        [made.bravo],
      );
      assert.equal(once[0]?.versions[0]?.body, '<p>bravo</p>', 'with its body');
    });

    it('GET /kb_tags: distinct tags, alphabetical, by language, q of at least 3 characters, paged', async () => {
      const caller = await hrCaller(server);
      const cat = randomUUID();
      await json(
        await caller.call('PUT', `/kb_categories/${cat}`, { localized_name: [{ language_code: 'en-us', value: 'A' }] }),
        200,
      );
      await json(
        await put(
          randomUUID(),
          {
            categories_ids: [cat],
            versions: [version('one')],
            localized_tags: [
              { language_code: 'en-us', values: ['payroll', 'Benefits', 'leave'] },
              { language_code: 'fr-fr', values: ['paie'] },
            ],
          },
          caller,
        ),
        201,
      );
      await json(
        await put(
          randomUUID(),
          {
            categories_ids: [cat],
            versions: [version('two')],
            localized_tags: [{ language_code: 'en-us', values: ['benefits', 'zeta'] }],
          },
          caller,
        ),
        201,
      );
      const tags = await json<{ language_code: string; label: string }[]>(await caller.call('GET', '/kb_tags'), 200);
      assert.deepEqual(tags, [
        { language_code: 'en-us', label: 'Benefits' },
        { language_code: 'en-us', label: 'leave' },
        { language_code: 'fr-fr', label: 'paie' },
        { language_code: 'en-us', label: 'payroll' },
        { language_code: 'en-us', label: 'zeta' },
      ]);
      const fr = await json<{ label: string }[]>(await caller.call('GET', '/kb_tags?language_code=fr-fr'), 200);
      assert.deepEqual(
        fr.map((t) => t.label),
        ['paie'],
      );
      const q = await json<{ label: string }[]>(await caller.call('GET', '/kb_tags?q=PAY'), 200);
      assert.deepEqual(
        q.map((t) => t.label),
        ['payroll'],
      );
      assert.equal((await json<ErrorBody>(await caller.call('GET', '/kb_tags?q=pa'), 400)).code, 'invalid_request');
      const page1 = await caller.call('GET', '/kb_tags?per_page=3');
      assert.equal((await json<unknown[]>(page1, 200)).length, 3);
      const next = page1.headers.get('next-cursor');
      const page2 = await json<{ label: string }[]>(
        await caller.call('GET', `/kb_tags?per_page=3&cursor=${next}`),
        200,
      );
      assert.deepEqual(
        page2.map((t) => t.label),
        ['payroll', 'zeta'],
      );
      assert.deepEqual(
        await json(await other.call('GET', '/kb_tags'), 200),
        [],
        "another client's tags are not listed",
      );
    });

    it("another client's articles are 404 and never listed", async () => {
      const id = randomUUID();
      await json(await put(id, article({ localized_tags: [{ language_code: 'en-us', values: ['secret'] }] })), 201);
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { status: 'published' }],
        ['DELETE', undefined],
      ] as const) {
        assert.equal((await other.call(method, `/kb_articles/${id}`, body)).status, 404, method);
      }
      assert.ok(!(await ids('/kb_articles?per_page=100', other)).includes(id), 'not listed');
      // Another client's PUT at the same UUID needs its own category, and makes its own article.
      const theirs = randomUUID();
      await json(
        await other.call('PUT', `/kb_categories/${theirs}`, {
          localized_name: [{ language_code: 'en-us', value: 'T' }],
        }),
        200,
      );
      await json(await put(id, { categories_ids: [theirs], versions: [version('Theirs')] }, other), 201);
      const mine = await json<Article>(await hr.call('GET', `/kb_articles/${id}`), 200);
      assert.equal(mine.versions[0]?.title, 'Holiday policy');
      assert.equal(
        (await json<Article>(await other.call('GET', `/kb_articles/${id}`), 200)).versions[0]?.title,
        'Theirs',
      );
    });
  });
}
