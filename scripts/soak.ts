/**
 * `npm run soak -- --minutes N [--dialect sqlite|postgres] [--concurrency C]`: the built server (`atrium serve`)
 * under a mixed read/write workload on loopback for N minutes (default 2), with the default settings but the
 * Academy API's per-minute limit (1200/min) off. Reports throughput, errors (must be 0), p50/p99 latency and RSS
 * over time (must stay flat), then checks the invariants that concurrency could break: no duplicate
 * request_number, seats never oversold, offers never over 6000, stored counters equal a recount from rows.
 * Exits 1 when any check fails (`--smoke`: a run too short to judge memory, whose RSS check does not count). PostgreSQL: DATABASE_URL (an admin URL) or the throwaway cluster of the tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { createServices } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import { migrateToLatest } from '../src/platform/db/migrate.js';
import { hrTenantId } from '../src/platform/db/tenant.js';
import { type Cluster, postgresAvailable, startCluster } from '../test/support/postgres.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    dialect: { type: 'string', default: 'sqlite' },
    concurrency: { type: 'string', default: '16' },
    json: { type: 'string' },
    /** Too short to judge memory: the RSS check is reported but does not fail the run. */
    smoke: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(values.minutes);
const CONCURRENCY = Number(values.concurrency);
if (!(MINUTES > 0) || !(CONCURRENCY > 0)) throw new Error('--minutes and --concurrency must be positive numbers');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SEATS = 25;
const OFFER_CAP = 6000;

// ----------------------------------------------------------------------------------------------------------
// Database and server

let cluster: Cluster | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-soak-'));
const env: Record<string, string> = { ATRIUM_DATA_DIR: dataDir, ATRIUM_ACADEMY_RATE_LIMIT: '0', LOG_LEVEL: 'warn' };
let dropDatabase = async () => {};
if (values.dialect === 'postgres') {
  let admin = process.env.DATABASE_URL;
  if (!admin) {
    if (!postgresAvailable()) throw new Error('no DATABASE_URL and no PostgreSQL binaries');
    cluster = await startCluster();
    admin = cluster.url;
  }
  const name = `atrium_soak_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  dropDatabase = async () => {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`drop database if exists ${name} with (force)`);
    await d.end();
  };
}

const config = loadConfig(env);
const database = openDatabase(config);
await migrateToLatest(database);
const services = await createServices(database, config);
const client = await services.tenants.createClient('Soak');
const app = await services.tenants.createApplication(hrTenantId(client.client_id), 'soak', false);
const academy = await services.academies.create('Soak academy');
await database.db
  .insertInto('academy_venues')
  .values({
    academy_id: academy.acadId,
    id: 700,
    name: 'Hall',
    seats: SEATS,
    address: '',
    city: '',
    latitude: 0,
    longitude: 0,
  })
  .execute();
const USERS = 3000;
for (let from = 1; from <= USERS; from += 500) {
  await database.db
    .insertInto('academy_users')
    .values(
      // Ids from 2: the academy's super administrator is user 1.
      Array.from({ length: 500 }, (_, i) => ({
        academy_id: academy.acadId,
        id: from + i + 1,
        firstname: `U${from + i + 1}`,
        lastname: 'Soak',
        middlename: null,
        preferred_name: null,
        email: `u${from + i + 1}@example.test`,
        role: 'employee',
        active: 1,
        external_id: null,
        hired_date: null,
        joined_date: null,
        image: null,
        units: '[]',
        created_at: Date.now(),
        updated_at: Date.now(),
      })),
    )
    .execute();
}

const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), 'serve', '--port', '0'], {
  cwd: ROOT,
  env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
    const m = /listening on (http:\/\/[^ ]+) /.exec(out);
    if (m) resolve(m[1] as string);
  });
  child.on('exit', () => reject(new Error(`server exited: ${out}`)));
});

// ----------------------------------------------------------------------------------------------------------
// Fixtures

async function call(
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${p}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined
      ? { body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) }
      : {}),
  });
}
async function ok<T = Record<string, unknown>>(res: Response): Promise<T> {
  const text = await res.text();
  if (res.status >= 300) throw new Error(`fixture: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
const tokenRes = await call(
  'POST',
  '/api/v2/client/tokens',
  `grant_type=client_credentials&scope=client&client_id=${client.client_id}`,
  {
    authorization: `Basic ${Buffer.from(`${app.application_id}:${app.application_secret}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
  },
);
const bearer = { authorization: `Bearer ${(await ok<{ access_token: string }>(tokenRes)).access_token}` };
const hr = (method: string, p: string, body?: unknown) => call(method, `/api/v2/client${p}`, body, bearer);
const v1 = (method: string, p: string, body?: unknown) =>
  call(method, `/v1${p}${p.includes('?') ? '&' : '?'}acadId=${academy.acadId}&apikey=${academy.apikey}`, body);

await ok(await hr('PUT', '/organizations/hq', { name: 'HQ' }));
const employee = await ok<{ id: string }>(
  await hr('POST', '/employees', {
    firstname: 'Ada',
    lastname: 'L',
    email: 'ada@example.com',
    registration_references: [{ organization_id: 'hq', employee_number: 'A1' }],
  }),
);
await ok(
  await hr('PUT', '/employee_document_types/payslip', {
    label: 'Payslip',
    localized_labels: [{ language_code: 'en', value: 'Payslip' }],
    folder_id: 'payroll.payslips',
  }),
);
const category = '6f4d9a51-1111-4a8e-9d8e-0123456789ab';
await ok(await hr('PUT', `/kb_categories/${category}`, { localized_name: [{ language_code: 'en-us', value: 'C' }] }));
await ok(
  await hr('PUT', '/request_forms/question', {
    name: 'Question',
    category_id: category,
    formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
  }),
);
const requestBody = () => ({
  form_id: 'question',
  employee_id: employee.id,
  form_data: [{ field_id: 'subject', values: [`s ${randomBytes(4).toString('hex')}`] }],
});
const agent = await ok<{ id: string }>(
  await hr('POST', '/users', { firstname: 'Agent', lastname: 'Soak', email: 'agent@example.com' }),
);
const hot: string[] = [];
for (let i = 0; i < 5; i++) hot.push((await ok<{ id: string }>(await hr('POST', '/requests', requestBody()))).id);
const time = (h: number) => ({ hours: h, minutes: 0, meridian: 'AM' });
const capped = await ok<{ id: number }>(
  await v1('POST', '/events/ilt', {
    title: 'Capped',
    description: 'Seats are few',
    timeOffset: 0,
    registrationDeadline: 0,
    based: 2,
    attendees: SEATS,
    autoApproved: true,
    days: [{ topic: 'Day', date: '04/19/2031', from: time(9), to: time(11) }],
    venue: 700,
    venueSeats: SEATS,
  }),
);
const bundle = await ok<{ id: number }>(
  await v1('POST', '/events/ilt', {
    title: 'Bundle',
    description: 'Many offers',
    timeOffset: 0,
    registrationDeadline: 0,
    based: 2,
    days: [{ topic: 'Day', date: '04/19/2031', from: time(9), to: time(11) }],
    venue: 700,
    venueSeats: SEATS,
  }),
);
await ok(
  await v1('PUT', `/events/ilt/${bundle.id}/convertToBundle`, {
    canMulti: 'no',
    customOffers: [{ date: '01/01/2032' }],
  }),
);

// ----------------------------------------------------------------------------------------------------------
// Workload

interface Op {
  name: string;
  weight: number;
  /** Statuses that are a correct answer (a full event's 409 is one). */
  expect: number[];
  run: () => Promise<Response>;
}
let day = 0;
const offerDates = (n: number) =>
  Array.from({ length: n }, () => {
    day += 1;
    const d = new Date(Date.UTC(2032, 0, 2) + day * 86_400_000);
    return {
      date: `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`,
    };
  });
let nextUser = 0;
const pdf = () => new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2048)]));
const ops: Op[] = [
  { name: 'GET /requests', weight: 20, expect: [200], run: () => hr('GET', '/requests?per_page=20') },
  { name: 'GET /requests/{id}', weight: 10, expect: [200], run: () => hr('GET', `/requests/${hot[day % hot.length]}`) },
  { name: 'POST /requests', weight: 12, expect: [201], run: () => hr('POST', '/requests', requestBody()) },
  {
    name: 'POST /requests/{id}/comments',
    weight: 8,
    expect: [200, 201],
    run: () =>
      hr('POST', `/requests/${hot[Math.floor(Math.random() * hot.length)]}/comments`, {
        content: 'soak',
        creator_id: agent.id,
      }),
  },
  {
    name: 'GET /employee_documents',
    weight: 8,
    expect: [200],
    run: () => hr('GET', '/employee_documents?per_page=20'),
  },
  {
    name: 'upload + POST /employee_documents',
    weight: 4,
    expect: [201],
    run: async () => {
      const up = await call('POST', '/api/v2/client/uploads', pdf(), {
        ...bearer,
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="f.pdf"',
      });
      if (up.status !== 201) return up;
      const { id } = (await up.json()) as { id: string };
      return hr('POST', '/employee_documents', {
        employee_id: employee.id,
        document_type_id: 'payslip',
        uploaded_file: { file_id: id, filename: 'f.pdf' },
      });
    },
  },
  { name: 'GET /v1/events/ilt', weight: 10, expect: [200], run: () => v1('GET', '/events/ilt?limit=20') },
  { name: 'GET /v1/events/ilt/{id}', weight: 12, expect: [200], run: () => v1('GET', `/events/ilt/${capped.id}`) },
  {
    name: 'POST /v1/events/ilt/{id}/users',
    weight: 10,
    expect: [201, 409],
    run: () => v1('POST', `/events/ilt/${capped.id}/users`, { userIds: [(nextUser++ % USERS) + 2] }),
  },
  {
    name: 'PUT /v1/events/ilt/{id}/addOffers (60)',
    weight: 6,
    expect: [200, 409],
    run: () => v1('PUT', `/events/ilt/${bundle.id}/addOffers`, { customOffers: offerDates(60) }),
  },
];
const totalWeight = ops.reduce((s, o) => s + o.weight, 0);
const pick = (): Op => {
  let r = Math.random() * totalWeight;
  for (const op of ops) {
    r -= op.weight;
    if (r < 0) return op;
  }
  return ops[0] as Op;
};

const latencies: number[] = [];
const errors: string[] = [];
const perOp = new Map<string, number>();
const rss: { at: number; mb: number }[] = [];
const rssOf = (): number => {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};
const started = Date.now();
const until = started + MINUTES * 60_000;
const sampler = setInterval(() => rss.push({ at: Date.now() - started, mb: rssOf() }), 2000);
process.stdout.write(`soak: ${MINUTES} min, ${CONCURRENCY} clients, ${values.dialect}, server ${base}\n`);
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < until) {
      const op = pick();
      const t0 = performance.now();
      try {
        const res = await op.run();
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        perOp.set(op.name, (perOp.get(op.name) ?? 0) + 1);
        if (!op.expect.includes(res.status)) errors.push(`${op.name}: ${res.status}`);
      } catch (err) {
        errors.push(`${op.name}: ${(err as Error).message}`);
      }
    }
  }),
);
clearInterval(sampler);
const seconds = (Date.now() - started) / 1000;

// ----------------------------------------------------------------------------------------------------------
// Invariants, straight from the database

const checks: [string, boolean, string][] = [];
const db = database.db;
const dupes = await db
  .selectFrom('pa_requests')
  .select(['client_id', 'request_number', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy(['client_id', 'request_number'])
  .having((eb) => eb.fn.countAll(), '>', 1)
  .execute();
checks.push(['no duplicate request_number', dupes.length === 0, `${dupes.length} duplicates`]);
const numbers = await db
  .selectFrom('pa_requests')
  .select([(eb) => eb.fn.max('request_number').as('max'), (eb) => eb.fn.countAll<number>().as('n')])
  .where('client_id', '=', client.client_id)
  .executeTakeFirstOrThrow();
const counter = await db
  .selectFrom('pa_request_counters')
  .select('last_number')
  .where('client_id', '=', client.client_id)
  .executeTakeFirstOrThrow();
checks.push([
  'request counter = max(request_number) = number of requests',
  Number(counter.last_number) === Number(numbers.max) && Number(numbers.max) === Number(numbers.n),
  `counter ${counter.last_number}, max ${numbers.max}, rows ${numbers.n}`,
]);
const seated = await db
  .selectFrom('academy_registrations')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('event_id', '=', capped.id)
  .where('state', 'in', ['registered', 'absent', 'completed'])
  .executeTakeFirstOrThrow();
const detail = (await (await v1('GET', `/events/ilt/${capped.id}`)).json()) as Record<string, unknown>;
checks.push(['seats never oversold', Number(seated.n) <= SEATS, `${seated.n} seated of ${SEATS}`]);
checks.push([
  'seat counters = recount',
  Number(detail.registered) === Number(seated.n) &&
    Number(detail.available_seats ?? detail.seatsAvailable) === SEATS - Number(seated.n),
  `registered ${String(detail.registered)}, available ${String(detail.available_seats ?? detail.seatsAvailable)}, rows ${seated.n}`,
]);
const offers = await db
  .selectFrom('academy_events')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('bundle_id', '=', bundle.id)
  .where('id', '!=', bundle.id)
  .executeTakeFirstOrThrow();
checks.push(['offers never over 6000', Number(offers.n) <= OFFER_CAP, `${offers.n} offers`]);
const { rows: commentCounts } = await sql<{ id: string; stored: number; counted: number }>`
  select r.id, r.public_comment_count + r.internal_comment_count as stored,
    (select count(*) from pa_request_comments c where c.request_id = r.id and c.client_id = r.client_id) as counted
  from pa_requests r where r.client_id = ${client.client_id}`.execute(db);
const wrong = commentCounts.filter((r) => Number(r.stored) !== Number(r.counted));
checks.push(['comment counters = recount', wrong.length === 0, `${wrong.length} requests off`]);

// RSS: after a warm-up third, the last third's median against the middle third's.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const third = Math.floor(rss.length / 3);
const middle = median(rss.slice(third, 2 * third).map((r) => r.mb));
const last = median(rss.slice(2 * third).map((r) => r.mb));
const growth = middle > 0 ? (last - middle) / middle : 0;
checks.push([
  'RSS flat (last third within 25% of the middle third)',
  growth < 0.25,
  `${middle.toFixed(0)} → ${last.toFixed(0)} MB`,
]);
checks.push([
  'no errors',
  errors.length === 0,
  `${errors.length} errors${errors.length ? `: ${[...new Set(errors)].slice(0, 5).join('; ')}` : ''}`,
]);

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const report = {
  dialect: values.dialect,
  minutes: MINUTES,
  concurrency: CONCURRENCY,
  requests: latencies.length,
  throughput: Math.round(latencies.length / seconds),
  errors: errors.length,
  p50ms: Math.round(pct(0.5)),
  p99ms: Math.round(pct(0.99)),
  rssMb: {
    first: Math.round(rss[0]?.mb ?? 0),
    middle: Math.round(middle),
    last: Math.round(last),
    max: Math.round(Math.max(...rss.map((r) => r.mb))),
  },
  offers: Number(offers.n),
  seated: Number(seated.n),
  requestsCreated: Number(numbers.n),
  perOp: Object.fromEntries(perOp),
  checks: checks.map(([name, pass, detail]) => ({ name, pass, detail })),
};
process.stdout.write(
  `${report.requests} requests in ${seconds.toFixed(0)} s: ${report.throughput} req/s, ${report.errors} errors, p50 ${report.p50ms} ms, p99 ${report.p99ms} ms, RSS ${report.rssMb.first} → ${report.rssMb.middle} → ${report.rssMb.last} MB (max ${report.rssMb.max})\n`,
);
for (const [name, pass, detail] of checks) process.stdout.write(`  ${pass ? 'ok  ' : 'FAIL'} ${name}: ${detail}\n`);
if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);

child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
await database.close();
await dropDatabase();
cluster?.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(checks.every(([name, pass]) => pass || (values.smoke && name.startsWith('RSS'))) ? 0 : 1);
