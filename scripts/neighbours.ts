/**
 * `npm run neighbours [-- --pg] [--phase-seconds N] [--scale F] [--only dataset,previews,…] [--out FILE]`: does one tenant's heavy but valid work slow
 * another tenant down? (docs/RELIABILITY.md, "Noisy neighbours"). Not part of `npm test`; measure nothing else
 * meanwhile.
 *
 * It starts the built server (`dist/cli/main.js serve`, run `npm run build` first) on 127.0.0.1, on SQLite in a
 * temporary data directory, or with --pg on a throwaway PostgreSQL 15 cluster (or DATABASE_URL, an admin URL). Two
 * HR clients: B runs a steady mix (four loops of a list read, an employee read and an organization write, each at
 * most one call per 100 ms: 40 calls a second; with one webhook on a receiver of this script) while A does, one after another:
 *
 * 1. a dataset import of 300,000 values (the documented maximum), until it has finished;
 * 2. an employee import of 100,000 rows, until it has finished;
 * 3. an employee import whose CSV has 200,000 header columns, until it has finished;
 * 4. 40 webhooks (as many as A may have) on a receiver that accepts and never answers, and 25 writes;
 * 5. hostile previews: five of a PDF drawing eight million lines, five of a 6,000 × 6,000 PNG at the largest size;
 * 6. 60 idle sockets from 127.0.0.2 (B comes from 127.0.0.1), held for the phase.
 *
 * For each phase, and for B alone first (idle), it reports B's p99 latency, B's worst webhook delay (from its write's
 * answer to the receiver's receipt), the worst wait of a `GET /healthz` probed every 50 ms (the event loop's delay,
 * seen from outside, plus one round trip), the server's own worst event-loop delay when its metrics show one, and
 * the server's RSS (the server process, and its process tree with the previews' renderer) at the end of the phase,
 * 5 s after A's work ended. Targets (issue 49): p99 ≤ 3×
 * idle, delivery ≤ 5 s, no delay over 250 ms, RSS under 250 MB after the previews.
 */

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { processRss, type ServerProcess, serverNodeFlags, startProcess } from '../bench/lib.js';
import { drawingBomb } from '../test/support/pdf.js';
import { type Cluster, postgresAvailable, startCluster } from '../test/support/postgres.js';

const { values: args } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    'phase-seconds': { type: 'string', default: '15' },
    /** Multiplies the sizes of A's imports (a quick check of the script: `--scale 0.01`). */
    scale: { type: 'string', default: '1' },
    out: { type: 'string' },
    /** Only these of A's phases (comma-separated: dataset, employees, columns, webhooks, previews, sockets). */
    only: { type: 'string' },
    /** Writes the server's CPU profile (node --cpu-prof) into this directory. */
    'cpu-prof': { type: 'string' },
  },
});
const ONLY = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : undefined;
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const IDLE_MS = Number(args['phase-seconds']) * 1000;
const SCALE = Number(args.scale);
/** Each of B's four loops makes at most one call per this many ms: 40 calls a second, a third of them writes. */
const PACE_MS = 100;
const scaled = (n: number) => Math.max(1, Math.round(n * SCALE));
const say = (line: string) => process.stderr.write(`${line}\n`);

interface Tenant {
  clientId: string;
  call: (method: string, p: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function cli(env: NodeJS.ProcessEnv, ...cliArgs: string[]): string {
  return execFileSync(process.execPath, [CLI, ...cliArgs], { cwd: ROOT, env, encoding: 'utf8' });
}

async function tenant(base: string, env: NodeJS.ProcessEnv, name: string): Promise<Tenant> {
  const { client_id: clientId } = JSON.parse(cli(env, 'hr', 'create-client', '--name', name, '--json')) as {
    client_id: string;
  };
  const app = JSON.parse(cli(env, 'hr', 'create-application', '--client-id', clientId, '--name', name, '--json')) as {
    application_id: string;
    application_secret: string;
  };
  const basic = Buffer.from(`${app.application_id}:${app.application_secret}`).toString('base64');
  const res = await fetch(`${base}/api/v2/client/tokens`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&scope=client&client_id=${clientId}`,
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  return {
    clientId,
    call: (method, p, body, headers = {}) =>
      fetch(`${base}/api/v2/client${p}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined || Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
        signal: AbortSignal.timeout(120_000),
      }),
  };
}

async function ok<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

async function uploadFile(t: Tenant, bytes: Buffer, filename: string, type: string): Promise<string> {
  const res = await t.call('POST', '/uploads', bytes, {
    'content-type': type,
    'content-disposition': `attachment; filename="${filename}"`,
  });
  return (await ok<{ id: string }>(res, `upload ${filename}`)).id;
}

async function until(check: () => Promise<boolean>, what: string, limitMs = 900_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const p99 = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] as number;
};

/** B's webhook receiver: when each organization's event arrived. */
function receiver(): Promise<{ url: string; arrived: Map<string, number>; close: () => void }> {
  const arrived = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      try {
        const event = JSON.parse(body) as { data?: { id?: string } };
        if (event.data?.id) arrived.set(event.data.id, performance.now());
      } catch {
        // A test event or another shape.
      }
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/b`,
        arrived,
        close: () => server.close(),
      }),
    ),
  );
}

/** A receiver that accepts every call and never answers. */
function hangingReceiver(): Promise<{ url: string; close: () => void }> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer(() => {});
  server.on('connection', (s) => sockets.add(s));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hang`,
        close: () => {
          for (const s of sockets) s.destroy();
          server.close();
        },
      }),
    ),
  );
}

interface PhaseResult {
  phase: string;
  bCalls: number;
  bErrors: number;
  bP99Ms: number;
  bWorstDeliveryMs: number | null;
  healthzWorstMs: number;
  loopDelayMaxMs: number | null;
  /** The server process's RSS, and its process tree's (the previews' renderer included). */
  rssMb: number;
  treeRssMb: number;
  /** From the server's metrics: V8's heap in use and held, and memory outside the heap Node.js knows of (MB). */
  heapUsedMb: number | null;
  heapTotalMb: number | null;
  externalMb: number | null;
  note: string;
}

/** Gauges of the server's metrics, by name (no labels), in MB. */
async function memoryGauges(metricsUrl: string): Promise<Record<string, number>> {
  try {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const found: Record<string, number> = {};
    for (const name of [
      'nodejs_heap_size_used_bytes',
      'nodejs_heap_size_total_bytes',
      'nodejs_external_memory_bytes',
    ]) {
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      if (line) found[name] = Math.round(Number(line.split(' ').pop()) / 2 ** 20);
    }
    return found;
  } catch {
    return {};
  }
}

/** The largest event-loop delay the server's metrics report, in ms, if they have one. */
async function loopDelayMax(metricsUrl: string): Promise<number | null> {
  try {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const line = text.split('\n').find((l) => /^[a-z_]*event_loop[a-z_]*max[a-z_]*(\{[^}]*\})? /.test(l));
    if (!line) return null;
    const value = Number(line.split(' ').pop());
    return Math.round(/seconds/.test(line) ? value * 1000 : value);
  } catch {
    return null;
  }
}

/** Runs B's steady mix and a /healthz probe while `work` runs (and at least `minMs`), then measures. */
async function phase(
  name: string,
  server: ServerProcess,
  metricsUrl: string,
  b: Tenant,
  hook: { arrived: Map<string, number> },
  employeeId: string,
  work: () => Promise<string>,
  minMs = IDLE_MS,
): Promise<PhaseResult> {
  say(`phase: ${name}`);
  const latencies: number[] = [];
  const writes = new Map<string, number>();
  let errors = 0;
  let running = true;
  let n = 0;
  const loop = async () => {
    while (running) {
      const kind = n++ % 3;
      const started = performance.now();
      const next = started + PACE_MS;
      try {
        const id = `b-${randomUUID().slice(0, 8)}`;
        const res =
          kind === 0
            ? await b.call('GET', '/organizations?per_page=20')
            : kind === 1
              ? await b.call('GET', `/employees/${employeeId}`)
              : await b.call('PUT', `/organizations/${id}`, { name: `B ${id}` });
        await res.arrayBuffer();
        if (res.status >= 400) errors += 1;
        else if (kind === 2) writes.set(id, performance.now());
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - started);
      // A steady mix, not a flood: each loop makes one call per PACE_MS at most.
      const wait = next - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  };
  let healthzWorst = 0;
  const probe = async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(60_000) })).arrayBuffer();
      } catch {
        // Counted by its time.
      }
      healthzWorst = Math.max(healthzWorst, performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await loopDelayMax(metricsUrl); // The histogram may reset when read: read it once before.
  const loops = [loop(), loop(), loop(), loop(), probe()];
  const started = performance.now();
  const note = await work().catch((error: Error) => `A's work failed: ${error.message}`);
  const left = minMs - (performance.now() - started);
  if (left > 0) await new Promise((r) => setTimeout(r, left));
  running = false;
  await Promise.all(loops);
  await new Promise((r) => setTimeout(r, 5000));
  let worstDelivery = 0;
  let missing = 0;
  for (const [id, at] of writes) {
    const got = hook.arrived.get(id);
    if (got === undefined) missing += 1;
    else worstDelivery = Math.max(worstDelivery, got - at);
  }
  const result: PhaseResult = {
    phase: name,
    bCalls: latencies.length,
    bErrors: errors,
    bP99Ms: Math.round(p99(latencies)),
    bWorstDeliveryMs: missing > 0 ? null : Math.round(worstDelivery),
    healthzWorstMs: Math.round(healthzWorst),
    loopDelayMaxMs: await loopDelayMax(metricsUrl),
    ...(await memoryGauges(metricsUrl).then((m) => ({
      heapUsedMb: m.nodejs_heap_size_used_bytes ?? null,
      heapTotalMb: m.nodejs_heap_size_total_bytes ?? null,
      externalMb: m.nodejs_external_memory_bytes ?? null,
    }))),
    rssMb: Math.round(processRss(server.pid) / 2 ** 20),
    treeRssMb: Math.round(server.rss() / 2 ** 20),
    note: missing > 0 ? `${note}; ${missing} of B's events not delivered 5 s after the phase` : note,
  };
  say(`  ${JSON.stringify(result)}`);
  return result;
}

/** A CSV of `count` values of one dimension, `codes`. */
function datasetCsv(count: number): Buffer {
  const lines = ['codes;codes:en-us'];
  for (let i = 0; i < count; i++) lines.push(`c${i};Value ${i}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

function employeesCsv(count: number): Buffer {
  const lines = ['external_id;firstname;lastname;email;organization_id;employee_number'];
  for (let i = 0; i < count; i++) lines.push(`A-${i};First${i};Last${i};a${i}@example.com;a-org;${100000 + i}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

function wideCsv(columns: number): Buffer {
  const header = ['external_id', 'firstname', 'lastname'];
  for (let i = header.length; i < columns; i++) header.push(`extra_${i}`);
  return Buffer.from(`${header.join(';')}\nW-1;Wide;Header${';'.repeat(columns - 3)}\n`);
}

async function finished(a: Tenant, p: string, done: (body: { status: string }) => boolean, what: string) {
  await until(async () => done(await ok<{ status: string }>(await a.call('GET', p), what)), what);
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first');
  let cluster: Cluster | undefined;
  let databaseUrl = '';
  if (args.pg) {
    if (process.env.DATABASE_URL) databaseUrl = process.env.DATABASE_URL;
    else if (postgresAvailable()) {
      cluster = await startCluster();
      databaseUrl = cluster.url;
    } else throw new Error('--pg: set DATABASE_URL to an admin URL, or install PostgreSQL 15');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-neighbours-'));
  const metricsPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ATRIUM_DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    ATRIUM_METRICS_PORT: String(metricsPort),
    ATRIUM_RATE_LIMIT: '0',
    LOG_LEVEL: 'warn',
  };
  cli(env, 'migrate');
  const cpuProf = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : [];
  const server = await startProcess(
    process.execPath,
    [...serverNodeFlags(ROOT), ...cpuProf, CLI, 'serve', '--port', '0', '--host', '127.0.0.1'],
    env,
    {
      log: path.join(dir, 'server.log'),
    },
  );
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  const results: PhaseResult[] = [];
  const hook = await receiver();
  const hang = await hangingReceiver();
  try {
    const a = await tenant(server.url, env, 'A');
    const b = await tenant(server.url, env, 'B');
    await ok(await b.call('PUT', '/organizations/b-org', { name: 'B' }), 'B org');
    await ok(await a.call('PUT', '/organizations/a-org', { name: 'A' }), 'A org');
    const employeeId = (
      await ok<{ id: string }>(
        await b.call('POST', '/employees', {
          firstname: 'Bea',
          lastname: 'Steady',
          email: 'bea@example.com',
          registration_references: [{ organization_id: 'b-org', employee_number: 'B1' }],
        }),
        'B employee',
      )
    ).id;
    await ok(
      await b.call('POST', '/webhooks', {
        name: 'b',
        events: ['organization.created'],
        is_active: true,
        callback_url: hook.url,
      }),
      'B webhook',
    );
    const run = async (name: string, work: () => Promise<string>, key?: string) => {
      if (key && ONLY && !ONLY.has(key)) return;
      results.push(await phase(name, server, metricsUrl, b, hook, employeeId, work));
    };

    // The hostile PNG is drawn before B's loops start: encoding it would block this script's own event loop.
    const png = Buffer.from(await createCanvas(6000, 6000).encode('png'));
    await run('idle (B alone)', async () => '');
    await run(
      'A: dataset import, 300,000 values',
      async () => {
        await ok(
          await a.call('PUT', '/datasets/big', {
            localized_names: [{ language_code: 'en-us', value: 'Big' }],
            dimensions: [{ id: 'codes', localized_names: [] }],
          }),
          'dataset',
        );
        const csv = datasetCsv(scaled(300_000));
        const upload = await uploadFile(a, csv, 'values.csv', 'text/csv');
        const { id } = await ok<{ id: string }>(
          await a.call('POST', '/dataset_imports', { dataset_id: 'big', upload_id: upload }),
          'dataset import',
        );
        await finished(a, `/dataset_imports/${id}`, (x) => x.status === 'finished', 'the dataset import');
        const body = await ok<{ result: string }>(await a.call('GET', `/dataset_imports/${id}`), 'dataset import');
        return `${(csv.length / 2 ** 20).toFixed(1)} MB, result ${body.result}`;
      },
      'dataset',
    );
    const employeeImport = async (csv: Buffer, what: string) => {
      const upload = await uploadFile(a, csv, 'employees.csv', 'text/csv');
      const res = await a.call('POST', '/imports', { type: 'employee', uploaded_file: { file_id: upload } });
      if (res.status >= 300) return `${what}: refused ${res.status} ${(await res.text()).slice(0, 200)}`;
      const { id } = (await res.json()) as { id: string };
      await finished(a, `/imports/${id}`, (x) => !['created', 'in_progress', 'queued'].includes(x.status), what);
      const body = await ok<{ status: string }>(await a.call('GET', `/imports/${id}`), what);
      return `${(csv.length / 2 ** 20).toFixed(1)} MB, ${body.status}`;
    };
    await run(
      'A: employee import, 100,000 rows',
      () => employeeImport(employeesCsv(scaled(100_000)), 'the import'),
      'employees',
    );
    await run(
      'A: CSV of 200,000 columns',
      () => employeeImport(wideCsv(Math.max(4, scaled(200_000))), 'the wide import'),
      'columns',
    );
    await run(
      'A: 40 hung webhooks',
      async () => {
        let created = 0;
        let refused = '';
        for (let i = 0; i < 40; i++) {
          const res = await a.call('POST', '/webhooks', {
            name: `hang-${i}`,
            events: ['*'],
            is_active: true,
            callback_url: hang.url,
          });
          if (res.status === 201) created += 1;
          else refused ||= `${res.status} ${(await res.text()).slice(0, 120)}`;
          await res.body?.cancel().catch(() => {});
        }
        for (let i = 0; i < 25; i++) await ok(await a.call('PUT', `/organizations/a-${i}`, { name: `A ${i}` }), 'A');
        return `${created} created${refused ? `, then refused: ${refused}` : ''}`;
      },
      'webhooks',
    );
    await run(
      'A: hostile previews',
      async () => {
        const type = await a.call('PUT', '/employee_document_types/contract', {
          localized_labels: [{ language_code: 'en', value: 'Contract' }],
        });
        await type.arrayBuffer();
        const employee = await ok<{ id: string }>(
          await a.call('POST', '/employees', {
            firstname: 'Ann',
            lastname: 'Heavy',
            email: 'ann@example.com',
            registration_references: [{ organization_id: 'a-org', employee_number: 'A1' }],
          }),
          'A employee',
        );
        const ids: string[] = [];
        for (const [bytes, name, kind] of [
          [drawingBomb(), 'bomb.pdf', 'application/pdf'],
          [png, 'huge.png', 'image/png'],
        ] as const) {
          const file = await uploadFile(a, bytes, name, kind);
          const doc = await ok<{ id: string }>(
            await a.call('POST', '/employee_documents', {
              employee_id: employee.id,
              document_type_id: 'contract',
              uploaded_file: { filename: name, file_id: file },
            }),
            'A document',
          );
          ids.push(doc.id);
        }
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          for (const id of ids) {
            // Another width each time, so that no answer comes from the cache.
            const res = await a.call('GET', `/employee_documents/${id}/preview?page=1&size=large&crop_rate=0.${9 - i}`);
            await res.arrayBuffer();
            statuses.push(res.status);
          }
        }
        return `previews answered ${statuses.join(',')}`;
      },
      'previews',
    );
    await run(
      'A: 60 idle sockets from 127.0.0.2',
      async () => {
        const port = Number(new URL(server.url).port);
        const sockets: net.Socket[] = [];
        let closed = 0;
        for (let i = 0; i < 60; i++) {
          const s = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
          s.on('error', () => {});
          s.on('close', () => {
            closed += 1;
          });
          sockets.push(s);
        }
        await new Promise((r) => setTimeout(r, IDLE_MS));
        for (const s of sockets) s.destroy();
        return `${closed} of 60 closed by the server while held`;
      },
      'sockets',
    );
  } finally {
    hook.close();
    hang.close();
    await server.stop();
    cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  report(results);
}

function report(results: PhaseResult[]): void {
  const idle = results[0]?.bP99Ms ?? Number.NaN;
  const rows = results.map((r) => ({
    ...r,
    p99Ratio: Math.round((r.bP99Ms / idle) * 10) / 10,
    met: {
      p99: r.bP99Ms <= 3 * idle,
      delivery: r.bWorstDeliveryMs !== null && r.bWorstDeliveryMs <= 5000,
      loop: (r.loopDelayMaxMs ?? r.healthzWorstMs) <= 250,
      rss: r.rssMb < 250 && r.treeRssMb < 250,
    },
  }));
  const dialect = args.pg ? 'postgres' : 'sqlite';
  process.stdout.write(
    `\nneighbours (${dialect})\n| phase | B calls | B errors | B p99 ms (× idle) | B worst delivery ms | /healthz worst ms | loop max ms | RSS MB (server / tree) | heap MB (used / held), external MB | note |\n|---|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const r of rows) {
    const mark = (okay: boolean) => (okay ? '' : ' ✗');
    process.stdout.write(
      `| ${r.phase} | ${r.bCalls} | ${r.bErrors} | ${r.bP99Ms} (${r.p99Ratio}×)${mark(r.met.p99)} | ${r.bWorstDeliveryMs ?? 'missing'}${mark(r.met.delivery)} | ${r.healthzWorstMs} | ${r.loopDelayMaxMs ?? '–'}${mark(r.met.loop)} | ${r.rssMb} / ${r.treeRssMb}${mark(r.met.rss)} | ${r.heapUsedMb ?? '–'} / ${r.heapTotalMb ?? '–'}, ${r.externalMb ?? '–'} | ${r.note} |\n`,
    );
  }
  if (args.out) fs.writeFileSync(args.out, `${JSON.stringify({ dialect, rows }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`neighbours: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
