import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface Article {
  id: string;
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

for (const dialect of dialects()) {
  describe(`knowledge-base full-text search (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let category: string;
    const a: Record<string, string> = {};

    const put = (id: string, title: string, body: string, extra: Record<string, unknown> = {}, caller = hr) =>
      caller.call('PUT', `/kb_articles/${id}`, {
        categories_ids: [category],
        versions: [{ language_code: 'en-us', title, body }],
        ...extra,
      });
    const names = (list: Article[]) => list.map((x) => Object.entries(a).find(([, id]) => id === x.id)?.[0] ?? x.id);
    /** The matches of a query, in rank order. */
    const search = async (q: string, extra = '') =>
      names(
        await json<Article[]>(
          await hr.call('GET', `/kb_articles?per_page=100&q=${encodeURIComponent(q)}${extra}`),
          200,
        ),
      );
    const found = async (q: string) => (await search(q)).sort();

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      other = await hrCaller(server);
      category = randomUUID();
      await json(
        await hr.call('PUT', `/kb_categories/${category}`, {
          localized_name: [{ language_code: 'en-us', value: 'K' }],
        }),
        200,
      );
      const specs: [string, string, string, Record<string, unknown>?][] = [
        ['parental', 'Parental leave', '<p>How to ask for time off for a newborn.</p>'],
        [
          'car',
          'Company car',
          '<p>Cars, <strong>parental</strong> duties and more: leave the car keys at the desk.</p>',
        ],
        [
          'expenses',
          'Expenses',
          '<p>Submit your <em>receipts</em> &amp; invoices</p><script>var hidden = 1;</script>',
          { localized_search_keywords: [{ language_code: 'en-us', value: 'refund reimbursement' }] },
        ],
        ['cafe', 'Café policy', '<p>Crème brûlée on Fridays</p>', { status: 'published' }],
        ['link', 'Useful links', '<a href="https://intranet.example/handbook">the intranet</a> and<br>more'],
      ];
      for (const [name, title, body, extra] of specs) {
        a[name] = randomUUID();
        await json(await put(a[name] as string, title, body, extra), 201);
      }
    });
    after(() => server.close());

    it('finds whole words of titles, bodies without HTML, and keywords, ignoring case and accents', async () => {
      assert.deepEqual(await found('parental'), ['car', 'parental']);
      assert.deepEqual(await found('PARENTAL LEAVE'), ['car', 'parental'], 'every word, any case');
      assert.deepEqual(await found('newborn'), ['parental']);
      assert.deepEqual(await found('refund'), ['expenses'], 'search keywords');
      assert.deepEqual(await found('receipts invoices'), ['expenses'], '&amp; decoded, <em> removed');
      assert.deepEqual(await found('cafe'), ['cafe']);
      assert.deepEqual(await found('CAFÉ'), ['cafe']);
      assert.deepEqual(await found('creme brulee'), ['cafe']);
      assert.deepEqual(await found('intranet'), ['link']);
      assert.deepEqual(await found('and more'), ['car', 'link'], 'a tag is a word break');
    });

    it('never matches markup: tag names, attributes, scripts', async () => {
      assert.deepEqual(await found('strong'), []);
      assert.deepEqual(await found('href'), []);
      assert.deepEqual(await found('handbook'), [], 'inside an attribute');
      assert.deepEqual(await found('hidden'), [], 'inside a script');
      assert.deepEqual(await found('amp'), []);
    });

    it('whole words only: no prefixes, no partial words', async () => {
      assert.deepEqual(await found('paren'), []);
      assert.deepEqual(await found('leav'), []);
      assert.deepEqual(await found('parental zebra'), []);
    });

    it('ranks a title match above a body-only match', async () => {
      assert.deepEqual(await search('parental'), ['parental', 'car']);
      assert.deepEqual(await search('parental', '&sort=-title'), ['parental', 'car'], 'q ignores sort');
      assert.deepEqual(await search('car'), ['car']);
    });

    it('combines with the other filters', async () => {
      assert.deepEqual(await found('cafe parental'), []);
      assert.deepEqual(await search('policy', '&status=published'), ['cafe']);
      assert.deepEqual(await search('parental', '&status=published'), []);
    });

    it('sees updates and deletions at once', async () => {
      const id = randomUUID();
      a.temp = id;
      await json(await put(id, 'Gym membership', '<p>Ask for a discount</p>'), 201);
      assert.deepEqual(await found('gym'), ['temp']);
      await json(await put(id, 'Sports club', '<p>Ask for a discount</p>'), 200);
      assert.deepEqual(await found('gym'), []);
      assert.deepEqual(await found('sports club'), ['temp']);
      await json(
        await hr.call('PATCH', `/kb_articles/${id}`, {
          localized_search_keywords: [{ language_code: 'en-us', value: 'fitness' }],
        }),
        200,
      );
      assert.deepEqual(await found('fitness'), ['temp']);
      await json(
        await hr.call('PUT', `/kb_articles/${id}`, {
          categories_ids: [category],
          versions: [
            { language_code: 'en-us', title: 'Sports club', body: '' },
            { language_code: 'fr-fr', title: 'Club de sport', body: '<p>Réduction</p>' },
          ],
        }),
        200,
      );
      assert.deepEqual(await found('reduction'), ['temp'], 'a new version is searchable');
      assert.deepEqual(await found('fitness'), [], 'PUT replaced the keywords');
      assert.equal((await hr.call('DELETE', `/kb_articles/${id}`)).status, 204);
      assert.deepEqual(await found('sports'), []);
      assert.deepEqual(await found('reduction'), []);
      delete a.temp;
    });

    it("never finds another client's articles", async () => {
      const theirs = randomUUID();
      await json(
        await other.call('PUT', `/kb_categories/${theirs}`, {
          localized_name: [{ language_code: 'en-us', value: 'T' }],
        }),
        200,
      );
      const id = randomUUID();
      await json(
        await other.call('PUT', `/kb_articles/${id}`, {
          categories_ids: [theirs],
          versions: [{ language_code: 'en-us', title: 'Parental policy elsewhere', body: '' }],
        }),
        201,
      );
      assert.deepEqual(await found('parental'), ['car', 'parental']);
      const theirsFound = await json<Article[]>(await other.call('GET', '/kb_articles?q=parental'), 200);
      assert.deepEqual(
        theirsFound.map((x) => x.id),
        [id],
      );
    });

    it('pages through ranked results with cursors, forward and back', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const id = randomUUID();
        made.push(id);
        a[`hb${i}`] = id;
        await json(await put(id, `Handbook chapter ${i}`, '<p>chapter text</p>'), 201);
      }
      const all = await search('chapter');
      assert.equal(all.length, 5);
      const seen: string[] = [];
      let url = '/kb_articles?q=chapter&per_page=2';
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        const res = await hr.call('GET', url);
        seen.push(...names(await json<Article[]>(res, 200)));
        last = res;
        const next = res.headers.get('next-cursor');
        if (!next) break;
        assert.match(res.headers.get('link') ?? '', /rel="next"/);
        url = `/kb_articles?q=chapter&per_page=2&cursor=${next}`;
      }
      assert.deepEqual(seen, all, 'every match once, in rank order');
      const back = last?.headers.get('previous-cursor');
      assert.ok(back, 'the last page has a previous cursor');
      assert.deepEqual(
        names(await json<Article[]>(await hr.call('GET', `/kb_articles?q=chapter&per_page=2&cursor=${back}`), 200)),
        all.slice(2, 4),
      );
      const first = await hr.call('GET', '/kb_articles?q=chapter&per_page=2');
      assert.equal(first.headers.get('previous-cursor'), null, 'the first page has no previous');
      const cursor = first.headers.get('next-cursor');
      assert.equal(
        (await hr.call('GET', `/kb_articles?per_page=2&cursor=${cursor}`)).status,
        400,
        'a search cursor is not a list cursor',
      );
    });
  });
}
