/** `GET /requests/{id}/comments` is paged like every list, its first page shaped as before (issue 16, item 12). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { category, hrUser, json, simpleForm } from '../support/people-assist.js';

interface Comment {
  id: string;
  content: string;
}

for (const dialect of dialects()) {
  describe(`request comments, paged (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let requestId: string;
    const COUNT = 130;

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      const agent = await hrUser(hr, 'Agent');
      await simpleForm(hr, 'anything', await category(hr, 'Payroll'), { employee_organization_mandatory: false });
      requestId = (
        await json<{ id: string }>(
          await hr.call('POST', '/requests', {
            form_id: 'anything',
            form_data: [{ field_id: 'subject', values: ['Many comments'] }],
          }),
          201,
        )
      ).id;
      for (let i = 0; i < COUNT; i++) {
        await json(
          await hr.call('POST', `/requests/${requestId}/comments`, { content: `comment ${i}`, creator_id: agent }),
          200,
        );
      }
    });
    after(() => server.close());

    it('the first page is the array it was, newest first, 100 by default, with the next cursor', async () => {
      const res = await hr.call('GET', `/requests/${requestId}/comments`);
      const first = await json<Comment[]>(res, 200);
      assert.equal(first.length, 100);
      assert.equal(first[0]?.content, `comment ${COUNT - 1}`, 'newest first');
      assert.equal(first[99]?.content, `comment ${COUNT - 100}`);
      const next = res.headers.get('next-cursor');
      assert.ok(next, 'Next-Cursor');
      assert.match(res.headers.get('link') ?? '', /rel="next"/);
      const rest = await json<Comment[]>(await hr.call('GET', `/requests/${requestId}/comments?cursor=${next}`), 200);
      assert.deepEqual(
        rest.map((c) => c.content),
        Array.from({ length: COUNT - 100 }, (_, i) => `comment ${COUNT - 101 - i}`),
      );
      const ids = new Set([...first, ...rest].map((c) => c.id));
      assert.equal(ids.size, COUNT, 'every comment once');
    });

    it('per_page pages by any size; a cursor of another request is refused', async () => {
      const res = await hr.call('GET', `/requests/${requestId}/comments?per_page=7&embed=creator`);
      assert.equal((await json<Comment[]>(res, 200)).length, 7);
      const cursor = res.headers.get('next-cursor') as string;
      const other = (
        await json<{ id: string }>(
          await hr.call('POST', '/requests', {
            form_id: 'anything',
            form_data: [{ field_id: 'subject', values: ['Another'] }],
          }),
          201,
        )
      ).id;
      assert.equal((await hr.call('GET', `/requests/${other}/comments?cursor=${cursor}`)).status, 400);
      const clamped = await hr.call('GET', `/requests/${requestId}/comments?per_page=101`);
      assert.equal(clamped.status, 200, 'a per_page above 100 is clamped');
      assert.match(clamped.headers.get('link') ?? '', /per_page=100&/, 'to 100');
    });
  });
}
