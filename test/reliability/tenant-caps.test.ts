/**
 * Per-tenant caps (issue 49), on both databases: at each cap the next write is refused with its status and body,
 * writes nothing (row counts of every table it would touch, the client's jobs and audit events, before and after),
 * and leaves another client unaffected. Active webhooks (422 on `is_active`), deliveries waiting per webhook (the
 * oldest `dropped`, listed as such, never sent), and concurrent imports, dataset imports and campaigns (429
 * `rate_limited` with `Retry-After`). The job runner is stopped, so what is created stays running; it is started at
 * the end to show that dropped deliveries are not sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildDocx } from '../../src/platform/docgen/build-docx.js';
import { cancelJob } from '../../src/platform/jobs/index.js';
import { createTemplate, uploadTemplate } from '../support/docgen.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { type ErrorBody, json, upload } from '../support/people-assist.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

interface Attempt {
  delivery_id: string;
  event_id: string;
  attempt: number;
  status: string;
  delivery_status: string;
  error: string | null;
  response_code: number | null;
}

const TABLES = [
  'hr_webhooks',
  'hr_imports',
  'hr_bulk_operations',
  'hr_dataset_imports',
  'hr_docgen_campaigns',
  'hr_docgen_campaign_rows',
  'hr_events',
] as const;

for (const dialect of dialects()) {
  describe(`per-tenant caps (${dialect})`, () => {
    let server: TestServer;
    let receiver: Receiver;
    const db = () => server.app.database.db;

    /** The client's rows in every table a capped write touches, its jobs, and its consumed uploads. */
    const state = async (caller: HrCaller) => {
      const clientId = caller.creds.client_id;
      const counts: Record<string, number> = {};
      for (const table of TABLES) {
        const row = await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('client_id', '=', clientId)
          .executeTakeFirst();
        counts[table] = Number(row?.n ?? 0);
      }
      const jobs = await db()
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant', '=', clientId)
        .executeTakeFirst();
      counts.jobs = Number(jobs?.n ?? 0);
      const consumed = await db()
        .selectFrom('hr_uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('client_id', '=', clientId)
        .where('consumed_at', 'is not', null)
        .executeTakeFirst();
      counts.consumed_uploads = Number(consumed?.n ?? 0);
      return counts;
    };

    /** A 429 of a concurrency cap: `rate_limited`, the setting named, `Retry-After`. */
    const assertCapped = async (res: Response, setting: string) => {
      const body = await json<ErrorBody>(res, 429);
      assert.equal(body.code, 'rate_limited');
      assert.match(body.message, new RegExp(`${setting}=1`));
      assert.equal(res.headers.get('retry-after'), '10');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    };

    before(async () => {
      receiver = await startReceiver([200]);
      server = await startServer(dialect, {
        ATRIUM_MAX_ACTIVE_WEBHOOKS: '2',
        ATRIUM_MAX_PENDING_DELIVERIES: '3',
        ATRIUM_MAX_CONCURRENT_IMPORTS: '1',
        ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS: '1',
        ATRIUM_MAX_CONCURRENT_CAMPAIGNS: '1',
        ATRIUM_RATE_LIMIT: '0',
        ATRIUM_JOB_POLL_MS: '20',
      });
      // Nothing runs until the last test: what is created stays running, and deliveries stay waiting.
      await server.app.services.jobs.stop();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    const webhook = (caller: HrCaller, name: string, active: boolean) =>
      caller.call('POST', '/webhooks', {
        name,
        callback_url: `${receiver.url}/${name}`,
        events: ['organization.*'],
        is_active: active,
      });

    it('active webhooks: one more active is 422 on is_active, created or activated; inactive ones and others pass', async () => {
      const a = await hrCaller(server);
      const b = await hrCaller(server);
      const first = await json<{ id: string }>(await webhook(a, 'one', true), 201);
      await json(await webhook(a, 'two', true), 201);
      const before = await state(a);
      const refused = await webhook(a, 'three', true);
      const body = await json<ErrorBody>(refused, 422);
      assert.equal(body.code, 'validation_error');
      assert.equal(body.errors?.length, 1);
      assert.equal(body.errors?.[0]?.field, 'is_active');
      assert.equal(body.errors?.[0]?.code, 'too_many');
      assert.match(body.errors?.[0]?.message ?? '', /ATRIUM_MAX_ACTIVE_WEBHOOKS=2/);
      assert.deepEqual(await state(a), before, 'nothing written');
      // Inactive: created; activating it is refused in turn, and it stays inactive.
      const idle = await json<{ id: string }>(await webhook(a, 'idle', false), 201);
      const put = (id: string, name: string, active: boolean) =>
        a.call('PUT', `/webhooks/${id}`, {
          name,
          callback_url: `${receiver.url}/${name}`,
          events: ['organization.*'],
          is_active: active,
        });
      const activated = await json<ErrorBody>(await put(idle.id, 'idle', true), 422);
      assert.equal(activated.errors?.[0]?.field, 'is_active');
      const row = await db().selectFrom('hr_webhooks').select('is_active').where('id', '=', idle.id).executeTakeFirst();
      assert.equal(Number(row?.is_active), 0);
      // An active one stays active when updated (it takes no new place).
      await json(await put(first.id, 'one renamed', true), 200);
      // Another client is not affected.
      await json(await webhook(b, 'b-one', true), 201);
      await json(await webhook(b, 'b-two', true), 201);
      // One deactivated frees a place.
      await json(await put(first.id, 'one renamed', false), 200);
      await json(await put(idle.id, 'idle', true), 200);
    });

    it('active webhooks: created at once, as many as the cap allows and no more', async () => {
      const c = await hrCaller(server);
      const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => webhook(c, `race-${n}`, true)));
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 201, 422, 422, 422]);
      const active = await db()
        .selectFrom('hr_webhooks')
        .select('id')
        .where('client_id', '=', c.creds.client_id)
        .where('is_active', '=', 1)
        .execute();
      assert.equal(active.length, 2);
    });

    it('imports: one more while one runs is 429 and creates nothing; another client, or a cancelled job, frees it', async () => {
      const a = await hrCaller(server);
      const b = await hrCaller(server);
      const csv = Buffer.from('employee_number;firstname\nE1;Ada\n');
      const file = (caller: HrCaller) => upload(server, caller, csv, 'people.csv');
      const start = (caller: HrCaller, fileId: string) =>
        caller.call('POST', '/imports', { type: 'employee', uploaded_file: { file_id: fileId } });
      const first = await json<{ id: string }>(await start(a, await file(a)), 201);
      // The upload is made first: its own event is not the import's.
      const second = await file(a);
      const before = await state(a);
      await assertCapped(await start(a, second), 'ATRIUM_MAX_CONCURRENT_IMPORTS');
      const after = await state(a);
      assert.deepEqual(
        after,
        before,
        'nothing written: no import, bulk operation, job, event, nor the upload consumed',
      );
      await json(await start(b, await file(b)), 201);
      // An import whose job an operator cancelled holds no place.
      const job = await db().selectFrom('hr_imports').select('job_id').where('id', '=', first.id).executeTakeFirst();
      await cancelJob(db(), Number(job?.job_id));
      await json(await start(a, second), 201);
    });

    it('dataset imports: one more while one runs is 429 and creates nothing; another client is not affected', async () => {
      const a = await hrCaller(server);
      const b = await hrCaller(server);
      const csv = Buffer.from('countries;countries:en-us\nuk;UK\n');
      for (const caller of [a, b]) {
        await json(
          await caller.call('PUT', '/datasets/geo', {
            localized_names: [{ language_code: 'en-us', value: 'Geo' }],
            dimensions: [{ id: 'countries', localized_names: [] }],
          }),
          201,
        );
      }
      const file = (caller: HrCaller) => upload(server, caller, csv, 'geo.csv');
      const start = (caller: HrCaller, uploadId: string) =>
        caller.call('POST', '/dataset_imports', { dataset_id: 'geo', upload_id: uploadId });
      await json(await start(a, await file(a)), 201);
      const second = await file(a);
      const before = await state(a);
      await assertCapped(await start(a, second), 'ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS');
      assert.deepEqual(await state(a), before, 'nothing written');
      await json(await start(b, await file(b)), 201);
    });

    it('campaigns: one more while one runs is 429 and creates nothing; canceling one frees its place; others unaffected', async () => {
      const a = await hrCaller(server);
      const b = await hrCaller(server);
      const template = buildDocx([{ paragraph: 'Certificate for {$name}' }]);
      const templates = new Map<HrCaller, string>();
      for (const caller of [a, b]) {
        const id = (await createTemplate(caller)).id;
        await json(await uploadTemplate(server, caller, id, template), 201);
        templates.set(caller, id);
      }
      const start = (caller: HrCaller) =>
        caller.call('POST', '/document_generation_campaigns', {
          title: 'Certificates',
          document_generation_template_id: templates.get(caller),
          output_action: 'zip',
          data: [{ ref: 'r1', fields: [{ slug: 'name', value: 'Ada' }] }],
        });
      const first = await json<{ id: string }>(await start(a), 201);
      const before = await state(a);
      await assertCapped(await start(a), 'ATRIUM_MAX_CONCURRENT_CAMPAIGNS');
      assert.deepEqual(await state(a), before, 'nothing written: no campaign, row, job nor event');
      await json(await start(b), 201);
      await json(await a.call('POST', `/document_generation_campaigns/${first.id}/cancel`), 200);
      // Freed: of three at once, one is created.
      const answers = await Promise.all([start(a), start(a), start(a)]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [201, 429, 429]);
    });

    it('deliveries waiting per webhook: past the cap the oldest are dropped, listed `dropped`, and never sent', async () => {
      const a = await hrCaller(server);
      const b = await hrCaller(server);
      const hook = await json<{ id: string }>(await webhook(a, 'busy', true), 201);
      const quiet = await json<{ id: string }>(await webhook(b, 'quiet', true), 201);
      for (let n = 1; n <= 5; n++) await json(await a.call('PUT', `/organizations/o${n}`, { name: `O${n}` }), 201);
      for (let n = 1; n <= 3; n++) await json(await b.call('PUT', `/organizations/o${n}`, { name: `O${n}` }), 201);
      const deliveries = await db()
        .selectFrom('hr_webhook_deliveries')
        .select(['id', 'event_id', 'status', 'job_id'])
        .where('client_id', '=', a.creds.client_id)
        .where('webhook_id', '=', hook.id)
        .orderBy('pk')
        .execute();
      assert.deepEqual(
        deliveries.map((d) => d.status),
        ['dropped', 'dropped', 'pending', 'pending', 'pending'],
      );
      const jobs = await db()
        .selectFrom('jobs')
        .select(['id', 'status', 'last_error'])
        .where(
          'id',
          'in',
          deliveries.map((d) => Number(d.job_id)),
        )
        .orderBy('id')
        .execute();
      assert.deepEqual(
        jobs.map((j) => j.status),
        ['cancelled', 'cancelled', 'pending', 'pending', 'pending'],
      );
      assert.match(jobs[0]?.last_error ?? '', /ATRIUM_MAX_PENDING_DELIVERIES/);
      // Listed as dropped, with why, and no try.
      const listed = await json<Attempt[]>(await a.call('GET', `/webhooks/${hook.id}/deliveries`), 200);
      assert.equal(listed.length, 2);
      for (const entry of listed) {
        assert.equal(entry.status, 'dropped');
        assert.equal(entry.delivery_status, 'dropped');
        assert.equal(entry.attempt, 0);
        assert.equal(entry.response_code, null);
        assert.match(entry.error ?? '', /more than 3 deliveries were waiting.*ATRIUM_MAX_PENDING_DELIVERIES/);
      }
      assert.deepEqual(new Set(listed.map((e) => e.delivery_id)), new Set(deliveries.slice(0, 2).map((d) => d.id)));
      // Another client's webhook, under the cap, lost nothing.
      const others = await db()
        .selectFrom('hr_webhook_deliveries')
        .select('status')
        .where('client_id', '=', b.creds.client_id)
        .where('webhook_id', '=', quiet.id)
        .execute();
      assert.deepEqual(
        others.map((d) => d.status),
        ['pending', 'pending', 'pending'],
      );
      // Run: the three kept are sent, in order, and the dropped never (the other tests' work is let go of first).
      await db()
        .updateTable('jobs')
        .set({ status: 'cancelled' })
        .where('queue', '<>', 'webhook.delivery')
        .where('status', '=', 'pending')
        .execute();
      server.app.services.jobs.start();
      server.app.services.jobs.wake();
      const received = await receiver.waitFor(6, 60_000);
      const busy = received.filter(
        (r) => r.headers['x-event-id'] && deliveries.some((d) => d.event_id === r.headers['x-event-id']),
      );
      assert.deepEqual(
        busy.map((r) => r.headers['x-event-id']),
        deliveries.slice(2).map((d) => d.event_id),
      );
    });
  });
}
