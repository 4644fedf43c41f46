import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Category {
  id: string;
  slug: string;
  order: number;
  original_language_code: string;
  icon_class: string | null;
  disable_default_form: boolean;
  default_form_id: string | null;
  visible_to_employee: boolean;
  localized_name: { language_code: string; value: string }[];
  localized_description: { language_code: string; value: string }[];
  created_at: string;
  updated_at: string;
}
interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

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

const name = (value: string, language_code = 'en-us') => ({ language_code, value });

for (const dialect of dialects()) {
  describe(`knowledge-base categories (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
    });
    after(() => server.close());

    const put = (id: string, body: Record<string, unknown>, caller = hr) =>
      caller.call('PUT', `/kb_categories/${id}`, body);

    it('PUT creates (200, an array, as the reference declares), GET reads, PUT updates (200), PATCH reorders, DELETE deletes', async () => {
      const id = randomUUID();
      const created = await json<Category[]>(
        await put(id, {
          localized_name: [name('Pay & Benefits'), name('Paie', 'fr-fr')],
          localized_description: [name('Salary questions')],
          icon_class: 'icon-money',
          default_form_id: 'pay-question',
          order: 2.5,
        }),
        200,
      );
      assert.ok(Array.isArray(created) && created.length === 1, 'PUT answers an array');
      const c = created[0] as Category;
      assert.equal(c.id, id);
      assert.equal(c.slug, 'pay-benefits');
      assert.equal(c.order, 2.5);
      assert.equal(c.original_language_code, 'en-us');
      assert.equal(c.icon_class, 'icon-money');
      assert.equal(c.disable_default_form, false);
      assert.equal(c.default_form_id, 'pay-question');
      assert.equal(c.visible_to_employee, true);
      assert.deepEqual(c.localized_name, [name('Pay & Benefits'), name('Paie', 'fr-fr')]);
      assert.deepEqual(c.localized_description, [name('Salary questions')]);
      assert.match(c.created_at, DATETIME);
      assert.deepEqual(await json<Category>(await hr.call('GET', `/kb_categories/${id}`), 200), c);
      assert.deepEqual(await json<Category>(await hr.call('GET', `/kb_categories/${id}?icon_type=ignite`), 200), c);

      const updated = await json<Category[]>(
        await put(id, {
          localized_name: [name('Pay')],
          original_language_code: 'fr-fr',
          visible_to_employee: false,
          disable_default_form: true,
        }),
        200,
      );
      const u = updated[0] as Category;
      assert.equal(u.order, 2.5, 'order kept when left out');
      assert.equal(u.slug, 'pay-benefits', 'slug kept when left out');
      assert.equal(u.original_language_code, 'fr-fr');
      assert.equal(u.icon_class, null, 'PUT replaces: icon_class cleared');
      assert.equal(u.default_form_id, null);
      assert.equal(u.visible_to_employee, false);
      assert.equal(u.disable_default_form, true);
      assert.deepEqual(u.localized_description, []);

      const patched = await json<Category>(await hr.call('PATCH', `/kb_categories/${id}`, { order: -1.25 }), 200);
      assert.equal(patched.order, -1.25);
      assert.equal((await json<Category>(await hr.call('GET', `/kb_categories/${id}`), 200)).order, -1.25);

      assert.equal((await hr.call('DELETE', `/kb_categories/${id}`)).status, 204);
      assert.equal((await hr.call('GET', `/kb_categories/${id}`)).status, 404);
      assert.equal((await hr.call('DELETE', `/kb_categories/${id}`)).status, 404);
      assert.equal((await hr.call('PATCH', `/kb_categories/${id}`, { order: 1 })).status, 404);
    });

    it('validation: bad uuid, missing or duplicate names, bad language codes, bad order', async () => {
      assert.equal((await hr.call('GET', '/kb_categories/not-a-uuid')).status, 404);
      assert.equal((await put('not-a-uuid', { localized_name: [name('X')] })).status, 404);
      const id = randomUUID();
      assert.deepEqual(await fieldErrors(await put(id, {})), [['localized_name', 'required']]);
      assert.deepEqual(await fieldErrors(await put(id, { localized_name: [] })), [['localized_name', 'too_few']]);
      assert.deepEqual(await fieldErrors(await put(id, { localized_name: [name('A'), name('B')] })), [
        ['localized_name.1.language_code', 'duplicate_items'],
      ]);
      const badLanguage = await fieldErrors(await put(id, { localized_name: [name('A', 'EN_US')] }));
      assert.deepEqual(
        badLanguage.map(([f]) => f),
        ['localized_name.0.language_code'],
      );
      const badOrder = await fieldErrors(await put(id, { localized_name: [name('A')], order: 'first' }));
      assert.deepEqual(
        badOrder.map(([f]) => f),
        ['order'],
      );
      assert.deepEqual(
        (await fieldErrors(await hr.call('PATCH', `/kb_categories/${randomUUID()}`, {}))).map(([f]) => f),
        ['order'],
      );
      assert.equal((await hr.call('GET', `/kb_categories/${id}`)).status, 404, 'nothing written');
      const badQuery = await json<ErrorBody>(await hr.call('GET', '/kb_categories?icon_type=svg'), 400);
      assert.equal(badQuery.code, 'invalid_request');
      assert.equal((await hr.call('GET', '/kb_categories?color=red')).status, 200, 'an unknown parameter is ignored');
      assert.equal((await put(id, { localized_name: [name('A')] }, hr)).status, 200);
      assert.equal(
        (await hr.call('PUT', `/kb_categories/${id}?force_replicate=true`, { localized_name: [name('A')] })).status,
        200,
        'force_replicate is accepted',
      );
    });

    it('lists always in order (then creation), paginated with cursors, with filters', async () => {
      const caller = await hrCaller(server);
      const ids: string[] = [];
      const orders = [3, 1, 2, 1, -5, 10.5];
      for (const [i, order] of orders.entries()) {
        const id = randomUUID();
        ids.push(id);
        await json(await put(id, { localized_name: [name(`C${i}`, i % 2 ? 'fr-fr' : 'en-us')], order }, caller), 200);
      }
      const expected = [4, 1, 3, 2, 0, 5].map((i) => ids[i]);
      const all = await json<Category[]>(await caller.call('GET', '/kb_categories?per_page=100'), 200);
      assert.deepEqual(
        all.map((c) => c.id),
        expected,
      );
      const seen: string[] = [];
      let url = '/kb_categories?per_page=4';
      for (let i = 0; i < 5; i++) {
        const res = await caller.call('GET', url);
        const page = await json<Category[]>(res, 200);
        seen.push(...page.map((c) => c.id));
        const next = res.headers.get('next-cursor');
        if (!next) break;
        assert.match(res.headers.get('link') ?? '', /rel="next"/);
        url = `/kb_categories?per_page=4&cursor=${next}`;
      }
      assert.deepEqual(seen, expected);
      // A category without order goes last.
      const last = randomUUID();
      const made = await json<Category[]>(await put(last, { localized_name: [name('Last')] }, caller), 200);
      assert.equal(made[0]?.order, 11.5);
      const fr = await json<Category[]>(await caller.call('GET', '/kb_categories?original_language_code=fr-fr'), 200);
      assert.deepEqual(
        fr.map((c) => c.id),
        [1, 3, 5].map((i) => ids[i]),
      );
      assert.equal(
        (await json<Category[]>(await caller.call('GET', '/kb_categories?multilingual=true&per_page=100'), 200)).length,
        7,
      );
    });

    it('deletion is refused while an article links the category, then allowed', async () => {
      const id = randomUUID();
      await json(await put(id, { localized_name: [name('Linked')] }), 200);
      const article = randomUUID();
      await json(
        await hr.call('PUT', `/kb_articles/${article}`, {
          categories_ids: [id],
          versions: [{ language_code: 'en-us', title: 'Hello', body: '<p>x</p>' }],
        }),
        201,
      );
      const refused = await json<ErrorBody>(await hr.call('DELETE', `/kb_categories/${id}`), 400);
      assert.equal(refused.code, 'invalid_request');
      assert.deepEqual(
        refused.errors?.map((e) => e.code),
        ['category_has_linked_articles'],
      );
      assert.equal((await hr.call('GET', `/kb_categories/${id}`)).status, 200, 'still there');
      assert.equal((await hr.call('DELETE', `/kb_articles/${article}`)).status, 204);
      assert.equal((await hr.call('DELETE', `/kb_categories/${id}`)).status, 204);
    });

    it("another client's categories are 404 and never listed", async () => {
      const id = randomUUID();
      await json(await put(id, { localized_name: [name('Mine')] }), 200);
      assert.equal((await other.call('GET', `/kb_categories/${id}`)).status, 404);
      assert.equal((await other.call('PATCH', `/kb_categories/${id}`, { order: 3 })).status, 404);
      assert.equal((await other.call('DELETE', `/kb_categories/${id}`)).status, 404);
      const listed = await json<Category[]>(await other.call('GET', '/kb_categories?per_page=100'), 200);
      assert.ok(!listed.some((c) => c.id === id), 'not listed for another client');
      // The other client may use the same UUID for its own category.
      await json(await put(id, { localized_name: [name('Theirs')] }, other), 200);
      const mine = await json<Category>(await hr.call('GET', `/kb_categories/${id}`), 200);
      assert.deepEqual(mine.localized_name, [name('Mine')]);
    });
  });
}
