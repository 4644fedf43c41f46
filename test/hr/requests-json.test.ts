/**
 * The requests list's two read paths answer the same items (issue 23). Without `embed`, a page's items are JSON
 * built by the database (`requestItemJson`, src/hr/people-assist/requests/present-sql.ts); with one, and for
 * every GET, they are presented in JavaScript (`presentRequest`). A GET reads its files and names with its row in
 * one statement (`requestViewColumns`); the embedded list reads them apart, and the two are compared too. Here
 * requests of every shape — form files, a custom status and a missing one, a category named in another language
 * and one that is gone, closed and archived, a due date, text that JSON must escape — are read both ways on each
 * database and compared item by item, in several sorts and across a cursor.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { category, employee, json, upload } from '../support/people-assist.js';

type Item = Record<string, unknown> & { id: string };

for (const dialect of dialects()) {
  describe(`requests list: JSON built by the database equals the presenter's (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    const ids: string[] = [];

    /** Every request as `GET /requests/{id}` presents it (in JavaScript), without embeds. */
    const presented = async (): Promise<Map<string, Item>> => {
      const out = new Map<string, Item>();
      for (const id of ids) {
        // A GET adds the attachments a list item leaves out.
        const { attachments, ...item } = await json<Item>(await hr.call('GET', `/requests/${id}`), 200);
        assert.ok(Array.isArray(attachments));
        out.set(id, item as Item);
      }
      return out;
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      await json(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }), 201);
      await json(await hr.call('PUT', '/organizations/paris', { name: 'Paris', parent_id: 'hq' }), 201);
      const ada = await employee(hr, {
        firstname: 'Ada',
        lastname: 'Lovelace',
        registration_references: [
          { organization_id: 'hq', employee_number: 'A1' },
          { organization_id: 'paris', employee_number: 'P1' },
        ],
      });
      const payroll = await category(hr, 'Payroll');
      const other = await category(hr, 'Other');
      await json(
        await hr.call('PUT', '/request_forms/with-file', {
          name: 'With a file',
          category_id: payroll,
          formidable: {
            fields: [
              { slug: 'subject', label: 'Subject', type_id: 'text', required: true },
              { slug: 'proof', label: 'Proof', type_id: 'file' },
              { slug: 'more', label: 'More', type_id: 'file' },
            ],
          },
        }),
        200,
      );
      await json(
        await hr.call('PUT', '/request_forms/plain', {
          name: 'Plain',
          category_id: other,
          formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
        }),
        200,
      );
      await json(await hr.call('PUT', '/custom_status/waiting', { name: 'Waiting "on" HR', is_active: true }), 201);
      const subjects = ['Payslip', 'Quote " backslash \\ slash /', 'Ünïcödé ✓ 𝄞 emoji 🎉', '</script>'];
      for (const [i, subject] of subjects.entries()) {
        const proof = await upload(server, hr, Buffer.from(`proof ${i}`), `proof-${i}.txt`);
        const more = await upload(server, hr, Buffer.from(`more ${i}`), `more-${i}.txt`);
        const extra = await upload(server, hr, Buffer.from(`extra ${i}`), `extra-${i}.txt`);
        const created = await json<{ id: string }>(
          await hr.call('POST', '/requests', {
            form_id: 'with-file',
            employee_id: ada,
            attachment_upload_ids: [extra],
            form_data: [
              { field_id: 'subject', values: [subject] },
              { field_id: 'proof', values: [{ upload_id: proof }] },
              ...(i % 2 === 0 ? [{ field_id: 'more', values: [{ upload_id: more }] }] : []),
            ],
          }),
          201,
        );
        ids.push(created.id);
      }
      for (const subject of ['Leave', 'Badge']) {
        const created = await json<{ id: string }>(
          await hr.call('POST', '/requests', {
            form_id: 'plain',
            employee_id: ada,
            form_data: [{ field_id: 'subject', values: [subject] }],
          }),
          201,
        );
        ids.push(created.id);
      }
      const [first, second, third, fourth, fifth] = ids as [string, string, string, string, string];
      // Shapes the API reaches in more steps, or not at all any more, set in the database.
      const db = server.app.database.db;
      await sql`update pa_requests set custom_status_id = 'waiting', due_date = '2026-12-31', priority = 3 where id = ${first}`.execute(
        db,
      );
      await sql`update pa_requests set custom_status_id = 'deleted-status', name = ${'Tab\t newline\n nul-ish \u0001 end'}
        where id = ${second}`.execute(db);
      await sql`update pa_request_files set filename = ${'más "dos".txt'} where request_id = ${second} and kind = 'form_file'`.execute(
        db,
      );
      await sql`update pa_requests set status = 'closed', closed_at = 1790000000999, closed_by_id = ${ada} where id = ${third}`.execute(
        db,
      );
      await sql`update pa_requests set status = 'archived', closed_at = 1790000000000, archived_at = 1790000123456,
        read_by_employee = 1, visible_by_employee = 0, public_comment_count = 3, internal_comment_count = 2
        where id = ${fourth}`.execute(db);
      await sql`update pa_requests set category_id = 'no-such-category', organization_ids = '[]', employee_id = null where id = ${fifth}`.execute(
        db,
      );
      // A category named only in French (its original language), then one with no en-us name but a German first.
      await sql`update pa_kb_categories set original_language_code = 'fr-fr',
        localized_name = ${JSON.stringify([
          { language_code: 'de-de', value: 'Andere' },
          { language_code: 'fr-fr', value: 'Autre « é »' },
        ])} where id = ${other}`.execute(db);
    });
    after(() => server.close());

    it('answers every request of a page exactly as its GET presents it, on every sort', async () => {
      const expected = await presented();
      for (const sort of ['', '&sort=-updated_at', '&sort=name', '&sort=-priority,request_number', '&sort=status']) {
        const res = await hr.call('GET', `/requests?per_page=100${sort}`);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
        const page = (await res.json()) as Item[];
        assert.equal(page.length, ids.length, sort);
        for (const item of page) assert.deepEqual(item, expected.get(item.id), `${item.id} ${sort}`);
      }
      // A few of the shapes, stated: the presenter and the database could agree on a wrong answer.
      const byId = expected;
      const field = (id: string, name: string) => (byId.get(id) ?? ({} as Item))[name];
      const [first, second, third, fourth, fifth, sixth] = ids as [string, string, string, string, string, string];
      assert.deepEqual(byId.get(first)?.custom_status, { id: 'waiting', name: 'Waiting "on" HR' });
      assert.equal(byId.get(first)?.priority, '3');
      assert.equal(byId.get(first)?.due_date, '2026-12-31');
      assert.deepEqual(byId.get(second)?.custom_status, { id: 'deleted-status', name: 'deleted-status' });
      assert.equal(byId.get(third)?.closed_at, '2026-09-21T14:13:20+00:00');
      assert.equal(byId.get(fourth)?.archived_at, '2026-09-21T14:15:23+00:00');
      assert.equal(byId.get(fourth)?.read_only, true);
      assert.equal(byId.get(fourth)?.total_comment_count, 5);
      assert.deepEqual(byId.get(fifth)?.category, { id: 'no-such-category', name: 'no-such-category' });
      assert.deepEqual(byId.get(fifth)?.organization_ids, []);
      assert.equal(byId.get(fifth)?.employee_id, null);
      assert.equal((field(sixth, 'category') as { name: string }).name, 'Autre « é »');
      assert.equal((field(first, 'form_files') as unknown[]).length, 2);
      assert.equal((field(second, 'form_files') as unknown[]).length, 1);
      assert.deepEqual(byId.get(sixth)?.form_files, []);
    });

    it('a GET reads its files and names in one statement as the embedded list reads them apart', async () => {
      // With `embed`, a page is presented from the files, status names and category names read apart
      // (`views`, requests/views.ts); a GET reads them with the row in one statement (`requestViewColumns`).
      const listed = await json<Item[]>(await hr.call('GET', '/requests?per_page=100&embed=employee'), 200);
      assert.equal(listed.length, ids.length);
      for (const item of listed) {
        const got = await json<Item>(await hr.call('GET', `/requests/${item.id}?embed=employee`), 200);
        const { attachments, ...rest } = got;
        assert.deepEqual(rest, item, item.id);
        assert.ok(Array.isArray(attachments));
      }
      const [first, second, , , fifth, sixth] = ids as [string, string, string, string, string, string];
      const get = async (id: string, embed = '') => json<Item>(await hr.call('GET', `/requests/${id}${embed}`), 200);
      const one = await get(first, '?embed=employee,creator');
      assert.deepEqual(one.attachments, [{ id: (one.attachments as { id: string }[])[0]?.id, name: 'extra-0.txt' }]);
      assert.deepEqual(
        (one.form_files as { filename: string }[]).map((f) => f.filename),
        ['proof-0.txt', 'more-0.txt'],
      );
      assert.equal((one.employee as { firstname: string }).firstname, 'Ada');
      assert.equal('employee_id' in one, false);
      assert.equal((await get(first)).employee_id, (one.employee as { id: string }).id);
      assert.deepEqual((await get(second)).custom_status, { id: 'deleted-status', name: 'deleted-status' });
      assert.deepEqual((await get(fifth)).category, { id: 'no-such-category', name: 'no-such-category' });
      assert.equal(((await get(sixth)).category as { name: string }).name, 'Autre « é »');
      assert.deepEqual((await get(sixth)).attachments, []);
    });

    it('pages through a cursor and a filter with the same items and headers as before', async () => {
      const expected = await presented();
      const seen: string[] = [];
      let path: string | undefined = '/requests?per_page=2&sort=request_number';
      while (path) {
        const res = await hr.call('GET', path);
        assert.equal(res.status, 200);
        const page = (await res.json()) as Item[];
        for (const item of page) assert.deepEqual(item, expected.get(item.id));
        seen.push(...page.map((i) => i.id));
        const next = res.headers.get('next-cursor');
        if (next) assert.match(res.headers.get('link') ?? '', /rel="next"/);
        path = next ? `/requests?per_page=2&sort=request_number&cursor=${encodeURIComponent(next)}` : undefined;
      }
      assert.deepEqual(seen, ids);
      const closed = (await json<Item[]>(await hr.call('GET', '/requests?status=closed,archived'), 200)).map(
        (i) => i.id,
      );
      assert.deepEqual(closed.sort(), [ids[2], ids[3]].sort());
      assert.deepEqual(await json(await hr.call('GET', '/requests?status=pending'), 200), []);
    });
  });
}
