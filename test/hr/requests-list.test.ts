import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, sleep, startServer, type TestServer } from '../support/harness.js';
import { category, type ErrorBody, employee, hrUser, json, simpleForm } from '../support/people-assist.js';

interface Req {
  id: string;
  request_number: string;
  name: string;
  status: string;
  priority: string;
  employee_id?: string;
  employee?: { id: string; firstname: string; lastname: string };
  creator_id?: string;
  creator?: { id: string; firstname: string };
  form_id: string;
  category: { id: string };
  updated_at: string;
}

for (const dialect of dialects()) {
  describe(`GET /requests: keyset pages, filters, sort, embed, q (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let ada: string;
    let bob: string;
    let agent: string;
    let payroll: string;
    let travel: string;
    const all: Req[] = [];

    const list = async (query: string) => {
      const res = await hr.call('GET', `/requests${query}`);
      const items = await json<Req[]>(res, 200);
      return { items, res, next: res.headers.get('next-cursor'), previous: res.headers.get('previous-cursor') };
    };
    const ids = async (query: string) => (await list(query)).items.map((r) => r.id);
    const numbers = async (query: string) => (await list(query)).items.map((r) => Number(r.request_number));

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      await json(await hr.call('PUT', '/organizations/lyon', { name: 'Lyon', parent_organization_id: 'hq' }), 201);
      ada = await employee(hr, {
        firstname: 'Ada',
        lastname: 'Lovelace',
        external_id: 'EXT-ADA',
        registration_references: [{ organization_id: 'hq', employee_number: 'MAT-777' }],
      });
      bob = await employee(hr, {
        firstname: 'Bob',
        lastname: 'Stone',
        registration_references: [{ organization_id: 'lyon', employee_number: 'MAT-888' }],
      });
      agent = await hrUser(hr, 'Agent', 'AG-1');
      payroll = await category(hr, 'Payroll');
      travel = await category(hr, 'Travel');
      await simpleForm(hr, 'payslip', payroll);
      await simpleForm(hr, 'trip', travel);
      // 25 requests: alternating forms and employees; priorities 1..3.
      for (let i = 0; i < 25; i++) {
        const res = await hr.call('POST', '/requests', {
          form_id: i % 2 ? 'trip' : 'payslip',
          employee_id: i % 3 ? ada : bob,
          creator_id: i % 5 ? agent : undefined,
          priority: String((i % 3) + 1),
          form_data: [{ field_id: 'subject', values: [i === 7 ? 'Lost umbrella in Lyon' : `Question number ${i}`] }],
        });
        all.push(await json<Req>(res, 201));
      }
    });
    after(() => server.close());

    it('walks more than three pages forward and back under -updated_at, with updates, inserts and deletes between pages', async () => {
      // Keep updated_at distinct from the creates so the order is unambiguous.
      await sleep(5);
      const seen: string[] = [];
      let page = await list('?per_page=7');
      assert.equal(page.previous, null, 'the first page has no previous page');
      seen.push(...page.items.map((r) => r.id));
      const pages = [page.items.map((r) => r.id)];
      const deleted = all[2]?.id as string; // the oldest rows are on the last page
      let step = 0;
      while (page.next) {
        step++;
        if (step === 1) {
          // An already-seen request is updated: it moves to the head of the order, behind the walk.
          assert.equal((await hr.call('PATCH', `/requests/${seen[3]}`, { status: 'opened' })).status, 200);
          // A new request is newer than the walk: it appears before the first page, not in later ones.
          await json(
            await hr.call('POST', '/requests', {
              form_id: 'payslip',
              employee_id: ada,
              form_data: [{ field_id: 'subject', values: ['late'] }],
            }),
            201,
          );
        }
        if (step === 2) assert.equal((await hr.call('DELETE', `/requests/${deleted}`)).status, 204);
        assert.match(
          page.res.headers.get('link') ?? '',
          /^<\/api\/v2\/client\/requests\?per_page=7&cursor=\d+>; rel="next"/,
        );
        page = await list(`?per_page=7&cursor=${page.next}`);
        seen.push(...page.items.map((r) => r.id));
        pages.push(page.items.map((r) => r.id));
      }
      assert.ok(pages.length >= 4, `${pages.length} pages`);
      assert.equal(new Set(seen).size, seen.length, 'no request is listed twice');
      const expected = all
        .map((r) => r.id)
        .reverse()
        .filter((id) => id !== deleted);
      assert.deepEqual(seen, expected, 'every request once, in order, the deleted one left out');

      // Back from the last page: the same pages in reverse, through Previous-Cursor.
      const back: string[][] = [];
      let current = page;
      while (current.previous) {
        current = await list(`?per_page=7&cursor=${current.previous}`);
        back.unshift(current.items.map((r) => r.id));
      }
      const flat = back.flat();
      assert.equal(new Set(flat).size, flat.length, 'no duplicates going back');
      assert.equal(flat.length + (pages.at(-1)?.length ?? 0), 25, 'going back covers the other 24 plus the head');
    });

    it('keeps an immutable order stable when unseen requests change between pages', async () => {
      const seen: number[] = [];
      let page = await list('?per_page=6&sort=+request_number');
      seen.push(...page.items.map((r) => Number(r.request_number)));
      let touched = false;
      while (page.next) {
        if (!touched) {
          // Change a request the walk has not reached yet.
          const later = all[20] as Req;
          assert.equal((await hr.call('PATCH', `/requests/${later.id}`, { priority: '3' })).status, 200);
          touched = true;
        }
        page = await list(`?per_page=6&sort=+request_number&cursor=${page.next}`);
        seen.push(...page.items.map((r) => Number(r.request_number)));
      }
      assert.deepEqual(
        seen,
        [...seen].sort((a, b) => a - b),
        'ascending numbers',
      );
      assert.equal(new Set(seen).size, seen.length, 'no duplicates');
      assert.ok(seen.includes(Number(all[20]?.request_number)), 'the changed request is still listed');
    });

    it('filters by status, priority, form, category, people, organization and dates', async () => {
      const payslips = await ids('?form_id=payslip&per_page=100');
      assert.ok(payslips.length > 0, 'some payslip requests');
      for (const id of payslips)
        assert.equal((await json<Req>(await hr.call('GET', `/requests/${id}`), 200)).form_id, 'payslip');
      assert.deepEqual(
        (await ids(`?categories_ids=${travel}&per_page=100`)).sort(),
        (await ids('?form_id=trip&per_page=100')).sort(),
      );
      const both = await ids(`?categories_ids=${travel},${payroll}&per_page=100`);
      assert.equal(both.length, (await ids('?per_page=100')).length);
      const bobs = await list(`?employee_id=${bob}&per_page=100`);
      assert.ok(bobs.items.length > 0 && bobs.items.every((r) => r.employee_id === bob), 'only Bob’s requests');
      assert.deepEqual(
        await ids('?employee_external_id=EXT-ADA&per_page=100'),
        await ids(`?employee_id=${ada}&per_page=100`),
      );
      assert.deepEqual(await ids('?employee_external_id=nobody'), []);
      assert.deepEqual(
        await ids('?creator_external_id=AG-1&per_page=100'),
        await ids(`?creator_id=${agent}&per_page=100`),
      );
      assert.deepEqual(await ids(`?organization_id=lyon&per_page=100`), await ids(`?employee_id=${bob}&per_page=100`));
      const urgent = await list('?priority=3&per_page=100');
      assert.ok(urgent.items.length > 0 && urgent.items.every((r) => r.priority === '3'), 'only priority 3');
      const opened = await list('?status=opened,pending&per_page=100');
      assert.ok(
        opened.items.every((r) => ['opened', 'pending'].includes(r.status)),
        'status filter',
      );
      const today = new Date().toISOString().slice(0, 10);
      assert.equal((await ids(`?created_at_since=${today}&created_at_until=${today}&per_page=100`)).length, 25);
      assert.deepEqual(await ids('?created_at_until=2000-01-01'), []);
      assert.deepEqual(await ids(`?closed_at_since=${today}`), []);
      // One bound each, on either side: each its own statement, whichever was read first (the list's statements are
      // prepared per shape: src/platform/db/listing.ts).
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      assert.deepEqual(await ids(`?created_at_since=${tomorrow}`), [], 'nothing since tomorrow');
      assert.equal((await ids(`?created_at_until=${tomorrow}&per_page=100`)).length, 25, 'everything until tomorrow');
      for (const bad of [
        '?status=done',
        '?priority=4',
        '?created_at_since=2026-02-30',
        '?sort=+owner',
        '?embed=feedback',
      ]) {
        const body = await json<ErrorBody>(await hr.call('GET', `/requests${bad}`), 400);
        assert.equal(body.code, 'invalid_request', bad);
      }
    });

    it('sorts by any declared key and refuses a cursor of another order', async () => {
      const ascending = await numbers('?sort=+request_number&per_page=100');
      assert.deepEqual(
        ascending,
        [...ascending].sort((a, b) => a - b),
      );
      const byPriority = (await list('?sort=-priority,+request_number&per_page=100')).items;
      for (let i = 1; i < byPriority.length; i++) {
        const [a, b] = [byPriority[i - 1] as Req, byPriority[i] as Req];
        assert.ok(
          a.priority > b.priority || (a.priority === b.priority && Number(a.request_number) < Number(b.request_number)),
          `order at ${i}`,
        );
      }
      const first = await list('?sort=+name&per_page=3');
      assert.ok(first.next, 'a next page');
      const wrong = await hr.call('GET', `/requests?sort=-created_at&per_page=3&cursor=${first.next}`);
      assert.equal((await json<ErrorBody>(wrong, 400)).code, 'invalid_request');
    });

    it('searches words in answers, request numbers and employee numbers; embeds people', async () => {
      assert.deepEqual(await ids('?q=umbrella'), [all[7]?.id]);
      assert.deepEqual(await ids('?q=LYON umbrella'), [all[7]?.id], 'every word, any case');
      assert.ok(
        (await ids(`?q=${all[11]?.request_number}&per_page=100`)).includes(all[11]?.id as string),
        'by request number',
      );
      assert.deepEqual(
        (await ids('?q=MAT-888&per_page=100')).sort(),
        (await ids(`?employee_id=${bob}&per_page=100`)).sort(),
      );
      assert.deepEqual(await ids('?q=50%25_off'), [], 'LIKE wildcards are taken literally');
      const embedded = await list('?embed=employee,creator&per_page=100');
      const sample = embedded.items.find((r) => r.creator) as Req;
      assert.equal(sample.creator?.firstname, 'Agent');
      assert.equal(sample.creator_id, undefined);
      assert.ok(
        embedded.items.every((r) => r.employee && r.employee_id === undefined),
        'employee replaces employee_id',
      );
      const trailing = await hr.call('GET', '/requests/?per_page=2');
      assert.equal(trailing.status, 200, 'the spec’s /requests/ spelling');
      assert.match(
        trailing.headers.get('link') ?? '',
        /<\/api\/v2\/client\/requests\/\?per_page=2&cursor=\d+>; rel="next"/,
      );
    });
  });
}
