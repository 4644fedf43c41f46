/**
 * `GET /events/export` streams (docs/hr-api.md, "Audit events"): the built server, its heap capped at 128 MB,
 * exports 100,000 events (over 100 MB) as JSON and as CSV, and its peak resident memory (`VmHWM`, read from /proc)
 * grows by far less than the export's size. Memory is measured, time is not.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createServices } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { serve } from '../support/cli.js';
import { dialects, freshDatabase, type TestDatabase } from '../support/harness.js';

const EVENTS = Number(process.env.EXPORT_EVENTS ?? 100_000);
const MB = 2 ** 20;
/**
 * The server's old-space cap, in MB: under the export's size plus the server's own heap. That heap is about 50 MB at
 * rest (the compiled validators and serialisers of every route, the modules); the export adds a few MB to it. A cap
 * of 64 MB left so little room that on a loaded machine, its concurrent marking late, the server ran out of heap.
 */
const HEAP_MB = 128;

function peakRss(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Reads a response to its end without keeping it: its size and its line count. */
async function drain(res: Response): Promise<{ bytes: number; lines: number; head: string }> {
  let bytes = 0;
  let lines = 0;
  let head = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    const text = decoder.decode(chunk, { stream: true });
    if (head.length < 400) head += text.slice(0, 400 - head.length);
    for (const c of text) if (c === '\n') lines++;
  }
  return { bytes, lines, head };
}

for (const dialect of dialects()) {
  describe(`audit event export in flat memory (${dialect})`, () => {
    let db: TestDatabase;
    let child: ChildProcess | undefined;
    let output: () => string = () => '';
    let exited: Promise<unknown> = Promise.resolve();
    let url = '';
    let bearer = '';

    before(async () => {
      db = await freshDatabase(dialect);
      const env: Record<string, string> = { ...db.env, ATRIUM_RATE_LIMIT: '0' };
      const config = loadConfig(env);
      const database = openDatabase(config);
      await migrateToLatest(database);
      const services = await createServices(database, config);
      const client = await services.tenants.createClient('Export');
      const app = await services.tenants.createApplication(hrTenantId(client.client_id), 'export', false);
      // 100,000 events with names of about 1 KB (the export's bulk), written straight into the table.
      const data = JSON.stringify({ id: 'x', name: 'An organization with a name', note: 'y'.repeat(400) });
      const series =
        dialect === 'sqlite'
          ? sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${EVENTS}) select i from s`
          : sql`select i from generate_series(1, ${EVENTS}) as s(i)`;
      const text = dialect === 'sqlite' ? sql`cast(i as text)` : sql`i::text`;
      const uuid =
        dialect === 'sqlite'
          ? sql`printf('00000000-0000-4000-8000-%012d', i)`
          : sql`'00000000-0000-4000-8000-' || lpad(i::text, 12, '0')`;
      await sql`insert into hr_events (client_id, id, type, resource_type, action, resource_id, name, actor_type,
          actor_id, actor_name, actor_data, data, created_at)
        select ${client.client_id}, ${uuid}, 'organization.created', 'organization', 'created', ${text},
          'Organization ' || ${text} || ${' with a long name'.repeat(60)}, 'application', ${app.application_id}, 'export', '{}', ${data},
          cast(${Date.UTC(2026, 0, 1)} as bigint) + i * 1000
        from (${series}) as n`.execute(database.db);
      // The planner's statistics, as autovacuum would leave them on a table that grew over time. Without them,
      // PostgreSQL plans each page of 500 for the 500 rows it guesses the tenant has (a bitmap scan of all
      // 100,000, then a sort) rather than walking the index: 8 times the export's time here, and past a minute
      // of it under CI's load.
      if (dialect === 'postgres') await sql`analyze hr_events`.execute(database.db);
      await database.close();

      // The server's heap is capped far below the export's size: an export held in memory could not finish.
      const served = await serve({
        ...env,
        LOG_LEVEL: 'error',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_MB}`.trim(),
      });
      child = served.child;
      output = served.output;
      exited = served.exited;
      url = served.url;
      const token = await fetch(`${url}/api/v2/client/tokens`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${app.application_id}:${app.application_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `grant_type=client_credentials&scope=client&client_id=${client.client_id}`,
      });
      bearer = ((await token.json()) as { access_token: string }).access_token;
    });
    after(async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child?.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await db.drop();
    });

    it('exports 100,000 events as JSON and as CSV under a heap cap, its peak memory barely moving', async () => {
      try {
        await exportsInFlatMemory();
      } catch (err) {
        // A cut stream says nothing of why: the server's state and what it printed do (given 2 s to exit).
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
        const state = `server exit code ${child?.exitCode}, signal ${child?.signalCode}`;
        throw new Error(`${(err as Error).message}; ${state}; its output:\n${output().slice(-4000)}`, { cause: err });
      }
    });

    async function exportsInFlatMemory(): Promise<void> {
      const pid = child?.pid as number;
      const exportOf = (query: string, accept: string) =>
        fetch(`${url}/api/v2/client/events/export?${query}`, {
          headers: { authorization: `Bearer ${bearer}`, accept },
        });
      // Warm up on a small export (code paths, statement caches), then take the peak as the base.
      const small = await drain(await exportOf('created_at_until=2026-01-01T00:16:40Z', 'text/csv'));
      assert.equal(small.lines, 1001, 'a header and 1,000 lines');
      const base = peakRss(pid);

      const json = await exportOf('', 'application/json');
      assert.equal(json.status, 200);
      const whole = await drain(json);
      assert.ok(whole.head.startsWith('[{"Trigger Type":"application","Trigger":"export","Action":"created"'));
      const csv = await exportOf('resource_type=organization', 'text/csv');
      assert.equal(csv.status, 200);
      const lines = await drain(csv);
      assert.equal(lines.lines, EVENTS + 1);
      const grown = peakRss(pid) - base;
      console.log(
        `export (${dialect}): ${(whole.bytes / MB).toFixed(1)} MB of JSON and ${(lines.bytes / MB).toFixed(1)} MB of CSV; peak RSS ${(base / MB).toFixed(0)} MB before, grew by ${(grown / MB).toFixed(1)} MB`,
      );
      assert.ok(whole.bytes > 100 * MB, 'the export is far larger than the bound');
      assert.ok(grown < 64 * MB, `peak RSS grew by ${(grown / MB).toFixed(1)} MB`);
    }
  });
}
