/**
 * The audit events of the Document manager and of the knowledge base (docs/hr-api.md, "Audit events"): every
 * successful write of document types, documents, knowledge-base categories and articles records one event, in its
 * transaction, whose `data` is the resource as its GET shows it right after the write (right before, for a
 * deletion); a rejected write records none; the declarations show in `/events/filters/actions`.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { uploadFile } from '../support/tenants.js';

interface AuditEvent {
  id: string;
  type: string;
  name: string | null;
  actor: { type: string };
  data: Record<string, unknown>;
}

type Body = Record<string, unknown>;

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

const PDF = () => Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(600)]);

/** What every area's test needs: a server, a caller, its events and their count. */
function auditHarness() {
  const h = {
    server: undefined as unknown as TestServer,
    hr: undefined as unknown as HrCaller,
    /** The client's rows of `hr_events`. */
    async count(): Promise<number> {
      const rows = await h.server.app.database.db.selectFrom('hr_events').select('client_id').execute();
      return rows.filter((r) => r.client_id === h.hr.creds.client_id).length;
    },
    /** The resource's events of the type, newest first. */
    async events(resourceId: string, type: string): Promise<AuditEvent[]> {
      const all = await json<AuditEvent[]>(
        await h.hr.call('GET', `/events?resource_id=${encodeURIComponent(resourceId)}&per_page=100`),
        200,
      );
      return all.filter((e) => e.type === type);
    },
    /**
     * Runs the write, then checks that it recorded exactly one event (of `type`, named `name`, made by the
     * application) whose data is `expected()` (the GET after the write, or what was read before a deletion).
     */
    async expectEvent(
      write: () => Promise<unknown>,
      resourceId: string,
      type: string,
      name: string | null,
      expected: () => Promise<Body>,
    ): Promise<AuditEvent> {
      const before = await h.count();
      const earlier = (await h.events(resourceId, type)).length;
      await write();
      assert.equal(await h.count(), before + 1, `one event for ${type}`);
      const found = await h.events(resourceId, type);
      assert.equal(found.length, earlier + 1, `an event ${type} for ${resourceId}`);
      const event = found[0] as AuditEvent;
      assert.equal(event.type, type);
      assert.equal(event.name, name);
      assert.equal(event.actor.type, 'application');
      assert.deepEqual(event.data, await expected());
      return event;
    },
    /** Runs rejected writes and checks that none of them recorded anything. */
    async expectNoEvent(writes: [() => Promise<Response>, number][]): Promise<void> {
      const before = await h.count();
      for (const [write, status] of writes) {
        const res = await write();
        assert.equal(res.status, status, await res.text());
      }
      assert.equal(await h.count(), before);
    },
    async actions(): Promise<Map<string, string[]>> {
      const [app] = await json<{ resources: { resource_name: string; actions: string[] }[] }[]>(
        await h.hr.call('GET', '/events/filters/actions'),
        200,
      );
      return new Map((app?.resources ?? []).map((r) => [r.resource_name, r.actions]));
    },
  };
  return h;
}

for (const dialect of dialects()) {
  describe(`audit events of the Document manager (${dialect})`, () => {
    const h = auditHarness();
    let employeeId: string;
    const get = async (path: string) => json<Body>(await h.hr.call('GET', path), 200);
    const upload = async (filename: string) => ({
      file_id: await uploadFile(h.server, h.hr, PDF(), filename),
      filename,
    });

    before(async () => {
      h.server = await startServer(dialect);
      h.hr = await hrCaller(h.server);
      await json(await h.hr.call('PUT', '/organizations/paris', { name: 'Paris' }), 201);
      await json(await h.hr.call('PUT', '/organizations/lyon', { name: 'Lyon' }), 201);
      const employee = await json<{ id: string }>(
        await h.hr.call('POST', '/employees', {
          firstname: 'Ada',
          lastname: 'Lovelace',
          email: 'ada@example.com',
          registration_references: [{ organization_id: 'paris', employee_number: 'A1' }],
        }),
        201,
      );
      employeeId = employee.id;
    });
    after(() => h.server.close());

    for (const kind of ['employee', 'company'] as const) {
      const typeId = `${kind}-contract`;
      const typePath = `/${kind}_document_types/${typeId}`;

      it(`records ${kind}_document_type.created and .updated (PUT, PATCH), nothing for rejected writes`, async () => {
        const type = `${kind}_document_type`;
        await h.expectEvent(
          async () =>
            json(
              await h.hr.call('PUT', typePath, {
                label: 'Contract',
                localized_labels: [{ language_code: 'en', value: 'Contract' }],
                folder_id: 'default',
                metadata: [{ code: 'ref', type: 'text', localized_labels: [], is_required: false }],
              }),
              201,
            ),
          typeId,
          `${type}.created`,
          'Contract',
          () => get(typePath),
        );
        await h.expectEvent(
          async () =>
            json(
              await h.hr.call('PUT', typePath, {
                localized_labels: [{ language_code: 'en', value: 'Contracts' }],
                metadata: [{ code: 'ref', type: 'text', localized_labels: [], is_required: false }],
              }),
              200,
            ),
          typeId,
          `${type}.updated`,
          'Contract',
          () => get(typePath),
        );
        await h.expectEvent(
          async () => json(await h.hr.call('PATCH', typePath, { file_type_restrictions: ['pdf'] }), 200),
          typeId,
          `${type}.updated`,
          'Contract',
          () => get(typePath),
        );
        await h.expectNoEvent([
          [
            () =>
              h.hr.call('PUT', `/${kind}_document_types/nowhere`, {
                localized_labels: [{ language_code: 'en', value: 'Nowhere' }],
                folder_id: 'no-such-folder',
              }),
            422,
          ],
          [() => h.hr.call('PATCH', typePath, { folder_id: 'no-such-folder' }), 422],
          [() => h.hr.call('PATCH', `/${kind}_document_types/missing`, { file_type_restrictions: [] }), 404],
        ]);
      });

      it(`records every write of a ${kind} document, as its GET shows it`, async () => {
        const type = `${kind}_document`;
        const base = `/${kind}_documents`;
        const owner = kind === 'employee' ? { employee_id: employeeId } : { organization_ids: ['paris'] };
        const create = async (filename: string) =>
          json<{ id: string }>(
            await h.hr.call('POST', base, {
              ...owner,
              document_type_id: typeId,
              title: 'Contract',
              uploaded_file: await upload(filename),
            }),
            201,
          );
        // The id is known only once created: the event is looked up by it afterwards. The upload records its own
        // event (upload.created) before the count is taken.
        const file = await upload('contract.pdf');
        const count = await h.count();
        const { id } = await json<{ id: string }>(
          await h.hr.call('POST', base, { ...owner, document_type_id: typeId, title: 'Contract', uploaded_file: file }),
          201,
        );
        assert.equal(await h.count(), count + 1);
        const [event] = await h.events(id, `${type}.created`);
        assert.ok(event, `${type}.created`);
        assert.equal(event.name, 'contract.pdf');
        assert.equal(event.actor.type, 'application');
        assert.deepEqual(event.data, await get(`${base}/${id}`));

        const path = `${base}/${id}`;
        const after = () => get(path);
        await h.expectEvent(
          async () => json(await h.hr.call('PATCH', path, { title: 'Signed contract' }), 200),
          id,
          `${type}.updated`,
          'contract.pdf',
          after,
        );
        await h.expectEvent(
          async () =>
            json(
              await h.hr.call('PUT', path, {
                document_type_id: typeId,
                title: 'Contract v2',
                metadata: [{ code: 'ref', value: 'C-2' }],
                ...(kind === 'company' ? { organization_ids: ['paris', 'lyon'] } : {}),
              }),
              200,
            ),
          id,
          `${type}.updated`,
          'contract.pdf',
          after,
        );
        await h.expectEvent(
          async () => json(await h.hr.call('PUT', `${path}/expiration/update`, { expiration_date: '2030-01-31' }), 204),
          id,
          `${type}.updated`,
          'contract.pdf',
          after,
        );
        await h.expectEvent(
          async () => json(await h.hr.call('PUT', `${path}/expire`, { expiry_date: '2031-12-31' }), 204),
          id,
          `${type}.expired`,
          'contract.pdf',
          after,
        );
        await h.expectEvent(
          async () => json(await h.hr.call('PUT', `${path}/trash`), 200),
          id,
          `${type}.trashed`,
          'contract.pdf',
          async () => {
            const doc = await after();
            assert.equal(doc.trashed, true);
            return doc;
          },
        );
        await h.expectEvent(
          async () => json(await h.hr.call('PUT', `${path}/untrash`), 200),
          id,
          `${type}.restored`,
          'contract.pdf',
          after,
        );
        // Rejected writes, and a restore of a document that is not in the trash (nothing written).
        const rejectedFile = await upload('rejected.pdf');
        await h.expectNoEvent([
          [() => h.hr.call('PUT', `${path}/untrash`), 200],
          [() => h.hr.call('PATCH', path, { document_type_id: 'no-such-type' }), 422],
          [() => h.hr.call('PATCH', `${base}/${randomUUID()}`, { title: 'x' }), 404],
          [() => h.hr.call('PUT', `${base}/${randomUUID()}/trash`), 404],
          [() => h.hr.call('DELETE', `${base}/${randomUUID()}`), 404],
          [() => h.hr.call('PUT', `${path}/expire`, { expiry_date: 'soon' }), 422],
          [
            () => h.hr.call('POST', base, { ...owner, document_type_id: 'no-such-type', uploaded_file: rejectedFile }),
            422,
          ],
        ]);

        const beforeDelete = await get(path);
        await h.expectEvent(
          async () => json(await h.hr.call('DELETE', path), 204),
          id,
          `${type}.deleted`,
          'contract.pdf',
          async () => beforeDelete,
        );
        assert.equal((await h.hr.call('GET', path)).status, 404);

        // Emptying the trash records the deletion of each document it deletes.
        const trashed = await Promise.all([create('one.pdf'), create('two.pdf')]);
        for (const doc of trashed) await json(await h.hr.call('PUT', `${base}/${doc.id}/trash`), 200);
        const kept = await create('kept.pdf');
        const shown = await Promise.all(trashed.map((d) => get(`${base}/${d.id}`)));
        const beforeEmptying = await h.count();
        await json(await h.hr.call('DELETE', `${base}/trash`), 204);
        assert.equal(await h.count(), beforeEmptying + 2);
        for (const [i, doc] of trashed.entries()) {
          const [deleted] = await h.events(doc.id, `${type}.deleted`);
          assert.ok(deleted, `${type}.deleted for ${doc.id}`);
          assert.equal(deleted.name, i === 0 ? 'one.pdf' : 'two.pdf');
          assert.equal(deleted.actor.type, 'application');
          assert.deepEqual(deleted.data, shown[i]);
        }
        assert.deepEqual(await h.events(kept.id, `${type}.deleted`), []);
      });
    }

    it('lists the Document manager’s event types in /events/filters/actions', async () => {
      const actions = await h.actions();
      for (const kind of ['employee', 'company']) {
        assert.deepEqual(actions.get(`${kind}_document_type`), ['created', 'updated']);
        assert.deepEqual(actions.get(`${kind}_document`), [
          'created',
          'deleted',
          'expired',
          'restored',
          'trashed',
          'updated',
        ]);
      }
    });
  });

  describe(`audit events of the knowledge base (${dialect})`, () => {
    const h = auditHarness();
    const get = async (path: string) => json<Body>(await h.hr.call('GET', path), 200);
    const version = (title: string, language_code = 'en-us') => ({ language_code, title, body: `<p>${title}</p>` });

    before(async () => {
      h.server = await startServer(dialect);
      h.hr = await hrCaller(h.server);
    });
    after(() => h.server.close());

    it('records kb_category.created, .updated (PUT, PATCH) and .deleted, nothing for rejected writes', async () => {
      const id = randomUUID();
      const path = `/kb_categories/${id}`;
      await h.expectEvent(
        async () =>
          json(
            await h.hr.call('PUT', path, {
              localized_name: [
                { language_code: 'fr-fr', value: 'Paie' },
                { language_code: 'en-us', value: 'Pay' },
              ],
              original_language_code: 'en-us',
            }),
            200,
          ),
        id,
        'kb_category.created',
        'Pay',
        () => get(path),
      );
      await h.expectEvent(
        async () =>
          json(await h.hr.call('PUT', path, { localized_name: [{ language_code: 'en-us', value: 'Payroll' }] }), 200),
        id,
        'kb_category.updated',
        'Payroll',
        () => get(path),
      );
      await h.expectEvent(
        async () => json(await h.hr.call('PATCH', path, { order: 7.5 }), 200),
        id,
        'kb_category.updated',
        'Payroll',
        () => get(path),
      );
      // A category an article links to is not deleted.
      const articleId = randomUUID();
      await json(
        await h.hr.call('PUT', `/kb_articles/${articleId}`, { categories_ids: [id], versions: [version('Linked')] }),
        201,
      );
      await h.expectNoEvent([
        [() => h.hr.call('DELETE', path), 400],
        [() => h.hr.call('PATCH', `/kb_categories/${randomUUID()}`, { order: 1 }), 404],
        [() => h.hr.call('DELETE', `/kb_categories/${randomUUID()}`), 404],
        [
          () =>
            h.hr.call('PUT', path, {
              localized_name: [
                { language_code: 'en-us', value: 'A' },
                { language_code: 'en-us', value: 'B' },
              ],
            }),
          422,
        ],
      ]);
      await json(await h.hr.call('DELETE', `/kb_articles/${articleId}`), 204);
      const shown = await get(path);
      await h.expectEvent(
        async () => json(await h.hr.call('DELETE', path), 204),
        id,
        'kb_category.deleted',
        'Payroll',
        async () => shown,
      );
    });

    it('records kb_article.created, .updated, .published, .unpublished and .deleted, nothing for rejected writes', async () => {
      const category = randomUUID();
      await json(
        await h.hr.call('PUT', `/kb_categories/${category}`, {
          localized_name: [{ language_code: 'en-us', value: 'Leave' }],
        }),
        200,
      );
      const id = randomUUID();
      const path = `/kb_articles/${id}`;
      await h.expectEvent(
        async () =>
          json(
            await h.hr.call('PUT', path, {
              categories_ids: [category],
              versions: [version('Holiday policy'), version('Congés', 'fr-fr')],
              localized_tags: [{ language_code: 'en-us', values: ['leave'] }],
            }),
            201,
          ),
        id,
        'kb_article.created',
        'Holiday policy',
        () => get(path),
      );
      await h.expectEvent(
        async () =>
          json(
            await h.hr.call('PUT', path, {
              categories_ids: [category],
              versions: [version('Leave policy')],
              localized_tags: [{ language_code: 'en-us', values: ['leave', 'holidays'] }],
              localized_search_keywords: [{ language_code: 'en-us', value: 'vacation' }],
            }),
            200,
          ),
        id,
        'kb_article.updated',
        'Leave policy',
        () => get(path),
      );
      await h.expectEvent(
        async () => json(await h.hr.call('PATCH', path, { status: 'published' }), 200),
        id,
        'kb_article.published',
        'Leave policy',
        async () => {
          const article = await get(path);
          assert.equal(article.status, 'published');
          return article;
        },
      );
      await h.expectEvent(
        async () =>
          json(
            await h.hr.call('PATCH', path, { localized_tags: [{ language_code: 'en-us', values: ['time off'] }] }),
            200,
          ),
        id,
        'kb_article.updated',
        'Leave policy',
        () => get(path),
      );
      await h.expectEvent(
        async () => json(await h.hr.call('PATCH', path, { status: 'draft' }), 200),
        id,
        'kb_article.unpublished',
        'Leave policy',
        () => get(path),
      );
      await h.expectNoEvent([
        [() => h.hr.call('PUT', path, { categories_ids: [randomUUID()], versions: [version('Nowhere')] }), 422],
        [() => h.hr.call('PATCH', path, { last_updater_id: randomUUID() }), 422],
        [() => h.hr.call('PATCH', `/kb_articles/${randomUUID()}`, { status: 'published' }), 404],
        [() => h.hr.call('DELETE', `/kb_articles/${randomUUID()}`), 404],
      ]);
      const shown = await get(path);
      await h.expectEvent(
        async () => json(await h.hr.call('DELETE', path), 204),
        id,
        'kb_article.deleted',
        'Leave policy',
        async () => shown,
      );
    });

    it('lists the knowledge base’s event types in /events/filters/actions', async () => {
      const actions = await h.actions();
      assert.deepEqual(actions.get('kb_category'), ['created', 'deleted', 'updated']);
      assert.deepEqual(actions.get('kb_article'), ['created', 'deleted', 'published', 'unpublished', 'updated']);
    });
  });
}
