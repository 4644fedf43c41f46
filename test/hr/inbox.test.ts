/**
 * The Document manager's inbox (reference §3c.7; docs/hr-api.md, "Inbox"): items created with their documents (the
 * uploads used up, in the same transaction), notifications to the outbox, every 422, the filters and pages, and
 * tenancy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectJson as json } from '../support/admin.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { upload as uploadFile } from '../support/people-assist.js';

interface Item {
  id: string;
  title: string;
  type: string;
  state: string;
  documents_count: number;
  to_users_ids: string[];
  to_inbox_id: string | null;
  send_notification: boolean;
  origin: string;
  creator_email: string | null;
}

interface ErrorBody {
  code: string;
  errors?: { field: string; code: string }[];
}

for (const dialect of dialects()) {
  describe(`inbox items (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let other: HrCaller;
    let userId: string;

    const upload = (text: string, filename: string, caller = hr) =>
      uploadFile(server, caller, Buffer.from(text), filename);
    const consumed = async (id: string) =>
      (
        await server.app.database.db
          .selectFrom('hr_uploads')
          .select('consumed_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).consumed_at !== null;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_RATE_LIMIT: '0' });
      hr = await hrCaller(server);
      other = await hrCaller(server);
      userId = (
        await json<{ id: string }>(
          await hr.call('POST', '/users', { firstname: 'Hedy', lastname: 'Lamarr', email: 'hedy@example.com' }),
          201,
        )
      ).id;
    });
    after(() => server.close());

    it('creates a list item with its documents, uses the uploads up and tells the recipients', async () => {
      const a = await upload('first', 'scan-1.txt');
      const b = await upload('second', 'scan-2.txt');
      const made = await json<Item>(
        await hr.call('POST', '/inbox_items', {
          title: 'Signed forms from Lyon',
          type: 'list',
          to_users_ids: [userId],
          creator_email: 'front-desk@example.com',
          options: { send_confirmation_email_to_creator: true },
          uploaded_files: [
            { filename: 'scan-1.txt', file_id: a },
            { filename: 'scan-2.txt', file_id: b },
          ],
        }),
        201,
      );
      assert.equal(made.state, 'pending');
      assert.equal(made.documents_count, 2);
      assert.equal(made.origin, 'api');
      assert.equal(made.send_notification, true, 'true by default');
      assert.deepEqual(made.to_users_ids, [userId]);
      assert.deepEqual(await json<Item>(await hr.call('GET', `/inbox_items/${made.id}`), 200), made);
      assert.ok((await consumed(a)) && (await consumed(b)), 'both uploads are used up');
      const mails = await json<{ kind: string; to_address: string }[]>(
        await hr.call('GET', `/outbox?related_id=${made.id}`),
        200,
      );
      assert.deepEqual(mails.map((m) => [m.kind, m.to_address]).sort(), [
        ['inbox.confirmation', 'front-desk@example.com'],
        ['inbox.notification', 'hedy@example.com'],
      ]);
      const files = await server.app.database.db
        .selectFrom('hr_inbox_item_files')
        .select(['filename', 'position'])
        .where('inbox_item_id', '=', made.id)
        .orderBy('position')
        .execute();
      assert.deepEqual(
        files.map((f) => f.filename),
        ['scan-1.txt', 'scan-2.txt'],
      );
    });

    it('refuses what breaks a rule (422), and then uses no upload', async () => {
      const kept = await upload('kept', 'kept.txt');
      const refused = await json<ErrorBody>(
        await hr.call('POST', '/inbox_items', {
          title: 'Wrong',
          type: 'list',
          to_users_ids: ['nobody'],
          options: { send_confirmation_email_to_creator: true },
          uploaded_files: [{ filename: 'kept.txt', file_id: kept }],
        }),
        422,
      );
      assert.deepEqual(refused.errors?.map((e) => [e.field, e.code]).sort(), [
        ['creator_email', 'required'],
        ['to_users_ids[0]', 'not_found'],
      ]);
      const group = await json<ErrorBody>(
        await hr.call('POST', '/inbox_items', {
          title: 'No inbox',
          type: 'group',
          options: { send_confirmation_email_to_creator: false },
          uploaded_files: [{ filename: 'kept.txt', file_id: kept }],
        }),
        422,
      );
      assert.deepEqual(
        group.errors?.map((e) => [e.field, e.code]),
        [['to_inbox_id', 'required']],
      );
      const gone = await json<ErrorBody>(
        await hr.call('POST', '/inbox_items', {
          title: 'Missing file',
          type: 'private',
          options: { send_confirmation_email_to_creator: false },
          uploaded_files: [
            { filename: 'kept.txt', file_id: kept },
            { filename: 'x', file_id: '00000000-0000-4000-8000-000000000000' },
          ],
        }),
        422,
      );
      assert.deepEqual(
        gone.errors?.map((e) => [e.field, e.code]),
        [['uploaded_files[1].file_id', 'not_found']],
      );
      assert.equal(await consumed(kept), false, 'nothing half-written: the first upload is still usable');
      const foreign = await upload('theirs', 'theirs.txt', other);
      const notTheirs = await json<ErrorBody>(
        await hr.call('POST', '/inbox_items', {
          title: 'Another client’s upload',
          type: 'private',
          options: { send_confirmation_email_to_creator: false },
          uploaded_files: [{ filename: 'theirs.txt', file_id: foreign }],
        }),
        422,
      );
      assert.equal(notTheirs.errors?.[0]?.code, 'not_found');
      assert.equal((await hr.call('POST', '/inbox_items', { title: 'x' })).status, 422);
    });

    it('lists newest first with filters and pages; another client sees none', async () => {
      for (const [title, type, inbox] of [
        ['Payroll batch', 'group', 'payroll'],
        ['Medical certificate', 'private', null],
        ['Payroll corrections', 'group', 'payroll'],
      ] as const) {
        const file = await upload(title, `${title}.txt`);
        const body = {
          title,
          type,
          ...(inbox ? { to_inbox_id: inbox } : {}),
          send_notification: false,
          options: { send_confirmation_email_to_creator: false },
          uploaded_files: [{ filename: `${title}.txt`, file_id: file }],
        };
        assert.equal((await hr.call('POST', '/inbox_items', body)).status, 201);
      }
      const payroll = await json<Item[]>(await hr.call('GET', '/inbox_items?shared_inbox_id=payroll'), 200);
      assert.deepEqual(
        payroll.map((i) => i.title),
        ['Payroll corrections', 'Payroll batch'],
      );
      const byFile = await json<Item[]>(await hr.call('GET', '/inbox_items?q=certificate.txt'), 200);
      assert.deepEqual(
        byFile.map((i) => i.title),
        ['Medical certificate'],
      );
      const first = await hr.call('GET', '/inbox_items?per_page=2');
      assert.equal((await json<Item[]>(first, 200)).length, 2);
      const next = first.headers.get('next-cursor');
      assert.ok(next);
      const page2 = await json<Item[]>(await hr.call('GET', '/inbox_items?per_page=2&page=2'), 200);
      assert.equal(page2.length, 2);
      assert.equal((await hr.call('GET', '/inbox_items?state=sleeping')).status, 400);
      assert.deepEqual(await json<Item[]>(await other.call('GET', '/inbox_items'), 200), []);
      assert.equal((await other.call('GET', `/inbox_items/${payroll[0]?.id}`)).status, 404);
    });
  });
}
