/**
 * Bounded work per tick (issue 49; docs/RELIABILITY.md, "Bounded work per tick"): a long dataset import lets the
 * event loop run between its short transactions (a timer armed before the import fires while its values are
 * staged and not yet swapped in), and stays all or nothing: an import that fails midway leaves the old values and
 * no staged rows, and its retry replaces them whole, leaving nothing behind.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { Sqlite, sqlitePath } from '../../src/platform/db/database.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { upload } from '../support/people-assist.js';

/** Values in the big file: six staging batches (VALUES_PER_TURN, 1,000). */
const VALUES = 6000;
const names = (en: string) => [{ language_code: 'en-us', value: en }];
const bigCsv = () => `codes;codes:en-us\n${Array.from({ length: VALUES }, (_, i) => `v${i};Value ${i}`).join('\n')}\n`;

/** Another connection to the server's database, for facts the API does not show (rows by key, triggers). */
interface Peek {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function peek(server: TestServer): Promise<Peek> {
  if (server.dialect === 'sqlite') {
    const db = new Sqlite(sqlitePath(server.config.dataDir));
    db.pragma('busy_timeout = 5000');
    return {
      query: async <T>(text: string, params: unknown[] = []) => {
        const statement = db.prepare(text);
        if (statement.reader) return statement.all(...params) as T[];
        statement.run(...params);
        return [];
      },
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: server.env.DATABASE_URL });
  await client.connect();
  return {
    query: async <T>(text: string, params: unknown[] = []) => {
      let n = 0;
      return (
        await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as T[];
    },
    close: () => client.end(),
  };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const dialect of dialects()) {
  describe(`bounded work per tick: imports (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    let db: Peek;
    let client: string;

    /** The number of value rows stored under staging keys (`~<import id>`), and each dataset's values key. */
    const staged = async () =>
      Number(
        (
          await db.query<{ n: number }>(
            `select count(*) as n from hr_dataset_values where client_id = ? and dataset_id like '~%'`,
            [client],
          )
        )[0]?.n,
      );
    const keyOf = async (dataset: string) =>
      (
        await db.query<{ k: string }>('select values_key as k from hr_datasets where client_id = ? and id = ?', [
          client,
          dataset,
        ])
      )[0]?.k;
    const rowsUnder = async (key: string) =>
      Number(
        (
          await db.query<{ n: number }>(
            'select count(*) as n from hr_dataset_values where client_id = ? and dataset_id = ?',
            [client, key],
          )
        )[0]?.n,
      );
    const discards = async () =>
      Number(
        (
          await db.query<{ n: number }>('select count(*) as n from hr_dataset_value_discards where client_id = ?', [
            client,
          ])
        )[0]?.n,
      );
    const values = async (dataset: string) => {
      const res = await hr.call('GET', `/datasets/${dataset}/values?per_page=10`);
      assert.equal(res.status, 200);
      const found = (await (await hr.call('GET', `/datasets/${dataset}`)).json()) as { values_count: number };
      const key = await keyOf(dataset);
      assert.equal(await rowsUnder(key ?? ''), found.values_count, 'the count is the number of rows');
      return {
        total: found.values_count,
        ids: ((await res.json()) as { id: string }[]).map((v) => v.id),
      };
    };

    async function dataset(id: string): Promise<void> {
      const put = await hr.call('PUT', `/datasets/${id}`, {
        localized_names: names(id),
        dimensions: [{ id: 'codes', localized_names: [] }],
      });
      assert.equal(put.status, 201, await put.text());
      for (const v of ['old1', 'old2', 'old3']) {
        const res = await hr.call('PUT', `/datasets/${id}/values/${v}`, { localized_names: names(v) });
        assert.equal(res.status, 201, await res.text());
      }
    }

    async function startImport(id: string): Promise<string> {
      const uploadId = await upload(server, hr, Buffer.from(bigCsv()), `${id}.csv`);
      const res = await hr.call('POST', '/dataset_imports', { dataset_id: id, upload_id: uploadId });
      const text = await res.text();
      assert.equal(res.status, 201, text);
      return (JSON.parse(text) as { id: string }).id;
    }

    async function finished(importId: string): Promise<Record<string, unknown>> {
      let found: Record<string, unknown> = {};
      await until(async () => {
        found = (await (await hr.call('GET', `/dataset_imports/${importId}`)).json()) as Record<string, unknown>;
        return found.status === 'finished';
      }, 'the import to finish');
      return found;
    }

    before(async () => {
      server = await startServer(dialect, { ATRIUM_JOB_POLL_MS: '50' });
      hr = await hrCaller(server);
      client = hr.creds.client_id;
      db = await peek(server);
    });
    after(async () => {
      await db?.close();
      await server?.close();
    });

    it('lets the event loop run between its transactions: a timer armed before it sees values staged, not swapped', async () => {
      await dataset('big');
      /** What each turn of a timer chain armed before the import saw: rows staged, and whether the swap was in. */
      const seen: { staged: number; swapped: boolean }[] = [];
      let watching = true;
      const watch = async () => {
        if (!watching) return;
        seen.push({ staged: await staged(), swapped: (await keyOf('big')) !== 'big' });
        setImmediate(watch);
      };
      setImmediate(watch);
      const importId = await startImport('big');
      const done = await finished(importId);
      watching = false;
      assert.equal(done.result, 'success', JSON.stringify(done));
      assert.ok(
        seen.some((s) => s.staged > 0 && !s.swapped),
        `no turn of the timer ran while values were staged and not swapped in (${seen.length} turns)`,
      );
      assert.deepEqual(done.stats, {
        rows: VALUES,
        global_errors: 0,
        row_errors: 0,
        warnings: 0,
        internal_errors: 0,
        dimensions_created: 0,
        values_created: VALUES,
        values_updated: 0,
        values_deleted: 3,
      });
      const after = await values('big');
      assert.equal(after.total, VALUES);
      assert.ok(!after.ids.includes('old1'), 'the old values are gone');
      // The new values live under the import's key; the old rows and the discard list are gone.
      assert.equal(await keyOf('big'), `~${importId}`);
      await until(async () => (await rowsUnder('big')) === 0 && (await discards()) === 0, 'the old rows to go');
      assert.equal(await rowsUnder(`~${importId}`), VALUES);
    });

    it('an employee import stores its rows a batch per turn: a timer armed before it sees them partly stored', async () => {
      const ROWS = 3000;
      const csv = `external_id;firstname;lastname\n${Array.from({ length: ROWS }, (_, i) => `T${i};Tick;Row${i}`).join('\n')}\n`;
      const items = async () =>
        Number(
          (await db.query<{ n: number }>('select count(*) as n from hr_bulk_items where client_id = ?', [client]))[0]
            ?.n,
        );
      const seen: number[] = [];
      let watching = true;
      const watch = async () => {
        if (!watching) return;
        seen.push(await items());
        setImmediate(watch);
      };
      setImmediate(watch);
      const fileId = await upload(server, hr, Buffer.from(csv), 'employees.csv');
      const created = await hr.call('POST', '/imports', { type: 'employee', uploaded_file: { file_id: fileId } });
      const { id } = (await created.json()) as { id: string };
      assert.equal(created.status, 201);
      // Loaded: every row stored as an item (applying them, a turn each, is the bulk machinery's, tested there).
      await until(async () => {
        const [row] = await db.query<{ loaded: number | boolean }>(
          'select loaded from hr_imports where client_id = ? and id = ?',
          [client, id],
        );
        return Number(row?.loaded) === 1;
      }, 'the rows to be stored');
      watching = false;
      assert.ok(
        seen.some((n) => n > 0 && n < ROWS),
        `no turn of the timer ran while the rows were partly stored (${seen.length} turns)`,
      );
      assert.equal(await items(), ROWS);
    });

    it('is all or nothing: a batch that fails midway leaves the old values and no staged rows; the retry replaces them', async () => {
      await dataset('fail');
      // The fifth staged batch fails, as a full disk or a lost connection would.
      if (dialect === 'sqlite') {
        await db.query(
          `create trigger tick_fail before insert on hr_dataset_values when new.id = 'v4500'
           begin select raise(abort, 'injected failure'); end`,
        );
      } else {
        await db.query(`create function tick_fail() returns trigger language plpgsql as $$
          begin if new.id = 'v4500' then raise exception 'injected failure'; end if; return new; end $$`);
        await db.query(
          'create trigger tick_fail before insert on hr_dataset_values for each row execute function tick_fail()',
        );
      }
      const importId = await startImport('fail');
      const [job] = await db.query<{ job_id: number }>(
        'select job_id from hr_dataset_imports where client_id = ? and id = ?',
        [client, importId],
      );
      const jobId = Number(job?.job_id);
      await until(async () => {
        const [row] = await db.query<{ status: string; attempts: number }>(
          'select status, attempts from jobs where id = ?',
          [jobId],
        );
        return Number(row?.attempts) >= 1 && row?.status !== 'running';
      }, 'the first attempt to fail');
      const failed = (await (await hr.call('GET', `/dataset_imports/${importId}`)).json()) as { status: string };
      assert.notEqual(failed.status, 'finished');
      assert.deepEqual(await values('fail'), { total: 3, ids: ['old1', 'old2', 'old3'] });
      assert.equal(await keyOf('fail'), 'fail');
      assert.equal(await rowsUnder(`~${importId}`), 0, 'no staged rows are left behind');

      await db.query(dialect === 'sqlite' ? 'drop trigger tick_fail' : 'drop trigger tick_fail on hr_dataset_values');
      await db.query('update jobs set run_at = 0 where id = ? and status = ?', [jobId, 'pending']);
      const done = await finished(importId);
      assert.equal(done.result, 'success', JSON.stringify(done));
      assert.equal((await values('fail')).total, VALUES);
      await until(async () => (await rowsUnder('fail')) === 0 && (await discards()) === 0, 'the old rows to go');
      assert.equal(await rowsUnder(`~${importId}`), VALUES, 'each value once: the failed attempt’s rows were deleted');
    });
  });
}
