import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

interface PageResult {
  status: number;
  ids: string[];
  next: string | null;
  previous: string | null;
  link: string | null;
}

async function page(caller: HrCaller, path: string): Promise<PageResult> {
  const res = await caller.call('GET', path);
  const body = (await res.json()) as { id: string }[];
  assert.equal(res.status, 200, JSON.stringify(body));
  return {
    status: res.status,
    ids: body.map((o) => o.id),
    next: res.headers.get('next-cursor'),
    previous: res.headers.get('previous-cursor'),
    link: res.headers.get('link'),
  };
}

function links(link: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (link ?? '').split(',').filter(Boolean)) {
    const m = /^\s*<([^>]+)>;\s*rel="(next|previous)"\s*$/.exec(part);
    assert.ok(m, `malformed Link entry: ${part}`);
    out[m[2] as string] = m[1] as string;
  }
  return out;
}

const code = (i: number) => `org-${String(i).padStart(3, '0')}`;

for (const dialect of dialects()) {
  describe(`cursor pagination (${dialect})`, () => {
    let server: TestServer;
    let caller: HrCaller;
    before(async () => {
      server = await startServer(dialect);
      caller = await hrCaller(server);
      for (let i = 1; i <= 25; i++) {
        const res = await caller.call('PUT', `/organizations/${code(i)}`, { name: `Organization ${i}` });
        assert.equal(res.status, 201);
      }
    });
    after(() => server.close());

    it('defaults to 20 per page; the last page has no next cursor or link', async () => {
      const first = await page(caller, '/organizations');
      assert.equal(first.ids.length, 20);
      assert.equal(first.previous, null);
      assert.match(first.next ?? '', /^[0-9]+$/);
      assert.deepEqual(Object.keys(links(first.link)), ['next']);
      const second = await page(caller, `/organizations?cursor=${first.next}`);
      assert.deepEqual(second.ids, [21, 22, 23, 24, 25].map(code));
      assert.equal(second.next, null);
      assert.deepEqual(Object.keys(links(second.link)), ['previous']);
    });

    it('walks forward to the end and back to the start through Link URLs that keep other parameters', async () => {
      const seen: string[] = [];
      let path = '/api/v2/client/organizations?per_page=7&q=org';
      const pages: PageResult[] = [];
      for (;;) {
        const p = await page(caller, path);
        pages.push(p);
        seen.push(...p.ids);
        const l = links(p.link);
        if (p.next) {
          assert.equal(l.next, `/api/v2/client/organizations?per_page=7&q=org&cursor=${p.next}`);
        } else {
          assert.equal(l.next, undefined);
          break;
        }
        path = l.next;
      }
      assert.deepEqual(
        seen,
        Array.from({ length: 25 }, (_, i) => code(i + 1)),
      );
      assert.deepEqual(
        pages.map((p) => p.ids.length),
        [7, 7, 7, 4],
      );
      // And back, page by page, through rel="previous".
      const back: string[][] = [];
      let last = pages[pages.length - 1] as PageResult;
      while (last.previous) {
        const l = links(last.link);
        assert.equal(l.previous, `/api/v2/client/organizations?per_page=7&q=org&cursor=${last.previous}`);
        last = await page(caller, l.previous as string);
        back.unshift(last.ids);
      }
      assert.deepEqual(
        back,
        pages.slice(0, -1).map((p) => p.ids),
      );
      assert.equal(last.previous, null);
    });

    it('neither repeats nor skips rows inserted or deleted between pages', async () => {
      const first = await page(caller, '/organizations?per_page=10');
      assert.deepEqual(
        first.ids,
        Array.from({ length: 10 }, (_, i) => code(i + 1)),
      );
      // Delete the boundary row and a row of the next page; insert a new row.
      const db = server.app.database.db;
      const clientId = caller.creds.client_id;
      await db
        .deleteFrom('hr_organizations')
        .where('client_id', '=', clientId)
        .where('id', 'in', [code(10), code(12)])
        .execute();
      assert.equal((await caller.call('PUT', '/organizations/org-new', { name: 'New' })).status, 201);
      const second = await page(caller, `/organizations?per_page=10&cursor=${first.next}`);
      assert.deepEqual(second.ids, [11, 13, 14, 15, 16, 17, 18, 19, 20, 21].map(code));
      const third = await page(caller, `/organizations?per_page=10&cursor=${second.next}`);
      assert.deepEqual(third.ids, [...[22, 23, 24, 25].map(code), 'org-new']);
      assert.equal(third.next, null);
      // Backwards from the third page still lands on the rows that remain.
      const back = await page(caller, `/organizations?per_page=10&cursor=${third.previous}`);
      assert.deepEqual(back.ids, second.ids);
      const start = await page(caller, `/organizations?per_page=10&cursor=${back.previous}`);
      assert.deepEqual(start.ids, [1, 2, 3, 4, 5, 6, 7, 8, 9].map(code));
      assert.equal(start.previous, null);
      assert.ok(start.next, 'the first page has a next cursor');
    });

    it('a page emptied by deletes still links back', async () => {
      const db = server.app.database.db;
      const p = await page(caller, '/organizations?per_page=100');
      const tail = await page(
        caller,
        `/organizations?per_page=2&cursor=${(await page(caller, `/organizations?per_page=${p.ids.length - 2}`)).next}`,
      );
      assert.equal(tail.ids.length, 2);
      const prev = await page(caller, `/organizations?per_page=${p.ids.length - 2}`);
      await db
        .deleteFrom('hr_organizations')
        .where('client_id', '=', caller.creds.client_id)
        .where('id', 'in', tail.ids)
        .execute();
      const empty = await page(caller, `/organizations?per_page=2&cursor=${prev.next}`);
      assert.deepEqual(empty.ids, []);
      assert.equal(empty.next, null);
      assert.ok(empty.previous, 'an emptied page still points back');
      const before = await page(caller, `/organizations?per_page=2&cursor=${empty.previous}`);
      assert.deepEqual(before.ids, p.ids.slice(-4, -2));
    });

    it('a cursor page links back, or forward when read backwards, only while rows remain on that side', async () => {
      const db = server.app.database.db;
      const clientId = caller.creds.client_id;
      const remove = (ids: string[]) =>
        db.deleteFrom('hr_organizations').where('client_id', '=', clientId).where('id', 'in', ids).execute();
      for (const prefix of ['fw', 'bw']) {
        for (let i = 1; i <= 6; i++) {
          const res = await caller.call('PUT', `/organizations/${prefix}-${i}`, { name: `${prefix} ${i}` });
          assert.equal(res.status, 201);
        }
      }
      // Forwards: the second page points back while the first page's rows exist, and not once they are gone.
      const fw1 = await page(caller, '/organizations?per_page=3&q=fw-');
      assert.deepEqual(fw1.ids, ['fw-1', 'fw-2', 'fw-3']);
      const fw2 = await page(caller, `/organizations?per_page=3&q=fw-&cursor=${fw1.next}`);
      assert.deepEqual(fw2.ids, ['fw-4', 'fw-5', 'fw-6']);
      assert.ok(fw2.previous, 'rows before the second page: a previous cursor');
      await remove(['fw-1', 'fw-2', 'fw-3']);
      const fw2again = await page(caller, `/organizations?per_page=3&q=fw-&cursor=${fw1.next}`);
      assert.deepEqual(fw2again.ids, ['fw-4', 'fw-5', 'fw-6'], 'the same rows');
      assert.equal(fw2again.previous, null, 'nothing before them any more: no previous cursor');
      assert.deepEqual(Object.keys(links(fw2again.link)), [], 'and no link at all');
      // Backwards: the page read through a previous cursor points forward while rows remain after it.
      const bw1 = await page(caller, '/organizations?per_page=3&q=bw-');
      const bw2 = await page(caller, `/organizations?per_page=3&q=bw-&cursor=${bw1.next}`);
      const back = await page(caller, `/organizations?per_page=3&q=bw-&cursor=${bw2.previous}`);
      assert.deepEqual(back.ids, ['bw-1', 'bw-2', 'bw-3']);
      assert.ok(back.next, 'rows after it: a next cursor');
      assert.equal(back.previous, null, 'nothing before the first row');
      await remove(['bw-4', 'bw-5', 'bw-6']);
      const backAgain = await page(caller, `/organizations?per_page=3&q=bw-&cursor=${bw2.previous}`);
      assert.deepEqual(backAgain.ids, ['bw-1', 'bw-2', 'bw-3'], 'the same rows');
      assert.equal(backAgain.next, null, 'nothing after them any more: no next cursor');
      await remove(['fw-4', 'fw-5', 'fw-6', 'bw-1', 'bw-2', 'bw-3']);
    });

    it('never puts an access_token sent in the query into a Link; following the link with the header works', async () => {
      const owner = await hrCaller(server);
      for (const n of [1, 2, 3]) {
        assert.equal((await owner.call('PUT', `/organizations/lnk-${n}`, { name: `Link ${n}` })).status, 201);
      }
      for (const tokenParam of ['access_token', 'access%5Ftoken']) {
        const first = await fetch(
          `${server.url}/api/v2/client/organizations?per_page=1&${tokenParam}=${owner.token}&q=lnk`,
          { headers: { accept: 'application/json' } },
        );
        assert.equal(first.status, 200, tokenParam);
        assert.deepEqual(
          ((await first.json()) as { id: string }[]).map((o) => o.id),
          ['lnk-1'],
        );
        const link = first.headers.get('link') ?? '';
        assert.doesNotMatch(link, /access(_|%5F)token/i, 'the token must not leak into Link');
        assert.ok(!link.includes(owner.token), 'the token value must not appear in Link');
        const next = links(link).next as string;
        assert.equal(next, `/api/v2/client/organizations?per_page=1&q=lnk&cursor=${first.headers.get('next-cursor')}`);
        const second = await page(owner, next);
        assert.deepEqual(second.ids, ['lnk-2']);
        assert.deepEqual(Object.keys(links(second.link)).sort(), ['next', 'previous']);
        assert.doesNotMatch(second.link ?? '', /access(_|%5F)token/i, 'no token in the second page links either');
      }
    });

    it('serves the list path with and without a trailing slash', async () => {
      const a = await page(caller, '/organizations?per_page=3');
      const b = await page(caller, '/organizations/?per_page=3');
      assert.deepEqual(a.ids, b.ids);
      assert.equal(links(b.link).next, `/api/v2/client/organizations/?per_page=3&cursor=${b.next}`);
    });

    it('400 invalid_request for per_page below 1 or not a number, and for unknown, altered or foreign cursors', async () => {
      for (const q of ['per_page=0', 'per_page=abc', 'per_page=-1', 'per_page=1e3', 'cursor=abc', 'cursor=12345']) {
        const res = await caller.call('GET', `/organizations?${q}`);
        const body = (await res.json()) as { code: string; message: string };
        assert.equal(res.status, 400, q);
        assert.equal(body.code, 'invalid_request');
        assert.match(body.message, new RegExp(q.split('=')[0] as string));
      }
      const first = await page(caller, '/organizations?per_page=2');
      const next = first.next as string;
      const altered = next.slice(0, 3) + ((Number(next[3]) + 1) % 10) + next.slice(4);
      const other = await hrCaller(server);
      for (const [who, cursor] of [
        [caller, altered],
        [other, next],
      ] as const) {
        const res = await who.call('GET', `/organizations?per_page=2&cursor=${cursor}`);
        assert.equal(res.status, 400);
        assert.equal(((await res.json()) as { code: string }).code, 'invalid_request');
      }
      assert.equal((await caller.call('GET', `/organizations?per_page=100`)).status, 200);
    });
  });
}
