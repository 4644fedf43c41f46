/**
 * Builds a benchmark dataset of a stated size on a fresh database (SQLite in a temporary data directory, or a
 * fresh PostgreSQL database).
 *
 * One row of each kind is made through the API, as a client would (a request form and a request, an employee,
 * an in-class event, a 1 MiB employee document), so every template row is exactly what the product writes. The
 * bulk is then cloned from those templates in the database itself — `INSERT … SELECT` over a generated series,
 * 100k rows a statement — which loads 100k requests in seconds and a million in well under a minute.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { hrTenantId } from '../src/platform/db/tenant.js';
import type { ServerProcess } from './lib.js';

type AppModule = typeof import('../src/app.js');
type ConfigModule = typeof import('../src/platform/config.js');
type DatabaseModule = typeof import('../src/platform/db/database.js');
type MigrateModule = typeof import('../src/platform/db/migrate.js');
type CursorModule = typeof import('../src/hr/lists/cursor.js');
type SecretBoxModule = typeof import('../src/platform/security/secret-box.js');
type Db = import('../src/platform/db/database.js').Db;
type DialectName = import('../src/platform/db/database.js').DialectName;

const dist = new URL('../dist/', import.meta.url);
const load = <T>(file: string): Promise<T> => import(new URL(file, dist).href) as Promise<T>;

export interface DatasetSizes {
  requests: number;
  events: number;
  employees: number;
  /** Empty bundles (in a second academy) that addOffers rotates through. */
  bundles: number;
}

export interface HrCredentials {
  clientId: string;
  applicationId: string;
  secret: string;
  basic: string;
}

export interface Dataset {
  dialect: DialectName;
  sizes: DatasetSizes;
  /** Environment that points a server at this database. */
  env: Record<string, string>;
  hr: HrCredentials;
  /** A second HR client, for the webhooks pass (one client with a webhook, one without). */
  hrWebhooks: HrCredentials;
  academy: { acadId: number; apikey: string };
  bundleAcademy: { acadId: number; apikey: string };
  /** Spread across the table, so GETs do not all hit one row. */
  employeeIds: string[];
  eventIds: number[];
  bundleIds: number[];
  /** A cursor 90% of the way down the requests list (default sort). */
  deepCursor: string;
  document: { id: string; size: number; sha256: string };
  /** A copy of the document's bytes on disk, for the node:http streaming baseline. */
  documentFile: string;
  loadSeconds: number;
  drop(): Promise<void>;
}

const TAG = { employee: 0xbe0001, request: 0xbe0002 };

/** The UUID-shaped id the clone statements give row `i` of a kind. */
export function cloneId(tag: number, i: number): string {
  return `${tag.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

class Sql {
  constructor(readonly dialect: DialectName) {}

  uuid(tag: number, expr: string): string {
    return this.dialect === 'sqlite'
      ? `printf('%08x-0000-4000-8000-%012x', ${tag}, ${expr})`
      : `lpad(to_hex(${tag}), 8, '0') || '-0000-4000-8000-' || lpad(to_hex((${expr})::bigint), 12, '0')`;
  }

  /** `INSERT INTO table (columns) SELECT …` over i = from..to, with `tpl` the template row(s). */
  insertSeries(table: string, columns: string[], select: string, from: number, to: number, where: string): string {
    const cols = columns.map((c) => `"${c}"`).join(', ');
    return this.dialect === 'sqlite'
      ? `insert into "${table}" (${cols}) with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${to}) select ${select} from s, "${table}" as tpl where ${where}`
      : // bigint: PostgreSQL's integer would overflow in `i * 3600000` (an hour per event) past i = 596.
        `insert into "${table}" (${cols}) select ${select} from generate_series(${from}::bigint, ${to}::bigint) as s(i), "${table}" as tpl where ${where}`;
  }
}

const CHUNK = 100_000;

/** Clones the template row(s) of `table` matched by `where` (on `tpl`) `count` times, i = 1..count. */
async function cloneRows(
  db: Db,
  q: Sql,
  columnsOf: Map<string, string[]>,
  table: string,
  count: number,
  where: string,
  overrides: Record<string, string>,
  skip: string[] = [],
): Promise<void> {
  const columns = (columnsOf.get(table) ?? []).filter((c) => !skip.includes(c));
  if (!columns.length) throw new Error(`no columns known for ${table}`);
  const select = columns.map((c) => overrides[c] ?? `tpl."${c}"`).join(', ');
  for (let from = 1; from <= count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK - 1);
    await sql.raw(q.insertSeries(table, columns, select, from, to, where)).execute(db);
  }
}

async function check(res: Response, what: string, ...ok: number[]): Promise<unknown> {
  const text = await res.text();
  if (!ok.includes(res.status)) throw new Error(`${what}: HTTP ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A fresh database: a temporary SQLite data directory, or a new database on the PostgreSQL admin URL. */
async function freshDatabase(pgAdminUrl: string | undefined): Promise<{
  env: Record<string, string>;
  drop(): Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-'));
  if (!pgAdminUrl) {
    return {
      env: { ATRIUM_DATA_DIR: dataDir },
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `atrium_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    env: { ATRIUM_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: pgAdminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const t = (text: string) => {
  const [hm = '', meridian = 'AM'] = text.split(' ');
  const [hours = '9', minutes = '0'] = hm.split(':');
  return { hours: Number(hours), minutes: Number(minutes), meridian };
};

/**
 * Builds the dataset. `startServer` starts an Atrium server on the given environment (the templates are made
 * over HTTP); it is stopped before the bulk load.
 */
export async function buildDataset(
  sizes: DatasetSizes,
  options: { pgAdminUrl?: string; startServer: (env: Record<string, string>) => Promise<ServerProcess> },
): Promise<Dataset> {
  const started = performance.now();
  const { loadConfig } = await load<ConfigModule>('platform/config.js');
  const { openDatabase } = await load<DatabaseModule>('platform/db/database.js');
  const { migrateToLatest } = await load<MigrateModule>('platform/db/migrate.js');
  const { createServices } = await load<AppModule>('app.js');
  const fresh = await freshDatabase(options.pgAdminUrl);
  const env = { ...fresh.env };
  const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });

  // 1. Tenants and credentials, as the CLI makes them.
  let database = openDatabase(config);
  await migrateToLatest(database);
  const dialect = database.dialect;
  const services = await createServices(database, config);
  const { client_id: clientId } = await services.tenants.createClient('Bench client');
  const app = await services.tenants.createApplication(hrTenantId(clientId), 'bench', false);
  const { client_id: webhookClientId } = await services.tenants.createClient('Bench client with webhooks');
  const webhookApp = await services.tenants.createApplication(hrTenantId(webhookClientId), 'bench', false);
  const academy = await services.academies.create('Bench academy');
  const bundleAcademy = await services.academies.create('Bench bundles');
  await database.close();
  const basic = `Basic ${Buffer.from(`${app.application_id}:${app.application_secret}`).toString('base64')}`;

  // 2. One row of each kind through the API.
  const server = await options.startServer(env);
  let templates: { employeeId: string; requestId: string; eventId: number; document: Dataset['document'] };
  const documentFile = path.join(fresh.env.ATRIUM_DATA_DIR as string, 'bench-document.bin');
  try {
    const base = `${server.url}/api/v2/client`;
    const tokenRes = await fetch(`${base}/tokens`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'client', client_id: clientId }),
    });
    const { access_token: token } = (await check(tokenRes, 'token', 200)) as { access_token: string };
    const call = (method: string, p: string, body?: unknown) =>
      fetch(`${base}${p}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    await check(
      await call('PUT', '/organizations/bench-org', { name: 'Bench organization' }),
      'organization',
      200,
      201,
    );
    const employee = (await check(
      await call('POST', '/employees', {
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@example.com',
        external_id: 'bench-e0',
        registration_references: [{ organization_id: 'bench-org', employee_number: 'B0' }],
      }),
      'employee',
      201,
    )) as { id: string };
    const categoryId = cloneId(0xbe0003, 1);
    await check(
      await call('PUT', `/kb_categories/${categoryId}`, {
        localized_name: [{ language_code: 'en-us', value: 'Payroll' }],
      }),
      'category',
      200,
      200,
    );
    await check(
      await call('PUT', '/request_forms/payslip-question', {
        name: 'Payslip question',
        category_id: categoryId,
        formidable: {
          fields: [{ slug: 'question', label: 'Your question', type_id: 'paragraph', required: true }],
        },
      }),
      'request form',
      200,
      201,
    );
    const request = (await check(
      await call('POST', '/requests', {
        form_id: 'payslip-question',
        employee_id: employee.id,
        form_data: [{ field_id: 'question', values: ['Why is my bonus missing from the March payslip?'] }],
      }),
      'request',
      201,
    )) as { id: string };
    await check(
      await call('PUT', '/employee_document_types/contract', {
        localized_labels: [{ language_code: 'en', value: 'Contract' }],
      }),
      'document type',
      200,
      201,
    );
    const bytes = randomBytes(1024 * 1024);
    fs.writeFileSync(documentFile, bytes);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'contract.bin');
    const uploaded = (await check(
      await fetch(`${base}/document`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }),
      'upload',
      200,
      201,
    )) as Record<string, unknown>;
    const doc = (await check(
      await call('POST', '/employee_documents', {
        employee_id: employee.id,
        document_type_id: 'contract',
        uploaded_file: uploaded,
      }),
      'document',
      201,
    )) as { id: string };
    const event = (await check(
      await fetch(`${server.url}/v1/events/ilt?acadId=${academy.acadId}&apikey=${academy.apikey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Workshop',
          description: 'Hands-on training',
          timeOffset: 2,
          registrationDeadline: 24,
          based: 2,
          days: [{ topic: 'Day 1', date: '06/15/2031', from: t('9:00 AM'), to: t('5:00 PM') }],
          location: 'Paris',
          marker: { coords: { latitude: 48.8566, longitude: 2.3522 } },
        }),
      }),
      'event',
      201,
    )) as { id: number };
    const { createHash } = await import('node:crypto');
    templates = {
      employeeId: employee.id,
      requestId: request.id,
      eventId: event.id,
      document: { id: doc.id, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') },
    };
  } finally {
    await server.stop();
  }

  // 3. The bulk, cloned from the templates.
  database = openDatabase(config);
  const db = database.db;
  const q = new Sql(dialect);
  const columnsOf = new Map(
    (await db.introspection.getTables()).map((table) => [table.name, table.columns.map((c) => c.name)]),
  );
  const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const m = Math.max(1, sizes.employees - 1);
  await cloneRows(
    db,
    q,
    columnsOf,
    'hr_employees',
    sizes.employees - 1,
    `tpl.id = ${lit(templates.employeeId)}`,
    {
      id: q.uuid(TAG.employee, 'i'),
      external_id: `'bench-e' || i`,
      email: `'e' || i || '@example.com'`,
      firstname: `'First' || i`,
      lastname: `'Last' || i`,
      created_at: 'tpl.created_at - i',
      updated_at: 'tpl.updated_at - i',
    },
    ['pk'],
  );
  await cloneRows(
    db,
    q,
    columnsOf,
    'hr_employee_registrations',
    sizes.employees - 1,
    `tpl.employee_id = ${lit(templates.employeeId)}`,
    { employee_id: q.uuid(TAG.employee, 'i'), employee_number: `'B' || i` },
  );
  await cloneRows(
    db,
    q,
    columnsOf,
    'pa_requests',
    sizes.requests - 1,
    `tpl.id = ${lit(templates.requestId)}`,
    {
      id: q.uuid(TAG.request, 'i'),
      request_number: 'tpl.request_number + i',
      name: `'Request ' || i`,
      priority: '1 + i % 3',
      employee_id: sizes.employees > 1 ? q.uuid(TAG.employee, `1 + i % ${m}`) : 'tpl.employee_id',
      search_text: `i || ' payslip question ' || i`,
      created_at: `tpl.created_at - ${sizes.requests} * 1000 + i * 1000`,
      updated_at: `tpl.updated_at - ${sizes.requests} * 1000 + i * 1000`,
    },
    ['pk'],
  );
  await sql`update pa_request_counters set last_number = ${sizes.requests} where client_id = ${clientId}`.execute(db);
  const eventClone = (academyId: number, count: number) =>
    cloneRows(
      db,
      q,
      columnsOf,
      'academy_events',
      count,
      `tpl.id = ${templates.eventId}`,
      {
        academy_id: String(academyId),
        title: `'Workshop ' || i`,
        start_at: 'tpl.start_at + i * 3600000',
        end_at: 'tpl.end_at + i * 3600000',
      },
      ['id'],
    );
  const instructorClone = (academyId: number) =>
    sql
      .raw(
        `insert into academy_event_instructors (event_id, user_id, is_primary, position)
         select e.id, x.user_id, x.is_primary, x.position from academy_events e, academy_event_instructors x
         where e.academy_id = ${academyId} and e.id <> ${templates.eventId} and x.event_id = ${templates.eventId}`,
      )
      .execute(db);
  await eventClone(academy.acadId, sizes.events - 1);
  await instructorClone(academy.acadId);
  await eventClone(bundleAcademy.acadId, sizes.bundles);
  await instructorClone(bundleAcademy.acadId);
  await sql`update academy_events set bundle_id = id, can_multi = 'no' where academy_id = ${bundleAcademy.acadId}`.execute(
    db,
  );
  if (dialect === 'postgres') await sql`analyze`.execute(db);

  // Samples and the deep cursor.
  const step = Math.max(1, Math.floor(sizes.employees / 1000));
  const employeeIds = [templates.employeeId];
  for (let i = step; i < sizes.employees && employeeIds.length < 1000; i += step)
    employeeIds.push(cloneId(TAG.employee, i));
  const eventStep = Math.max(1, Math.floor(sizes.events / 1000));
  const eventIds = (
    await sql<{
      id: number;
    }>`select id from academy_events where academy_id = ${academy.acadId} and id % ${eventStep} = 0 order by id limit 1000`.execute(
      db,
    )
  ).rows.map((r) => Number(r.id));
  const bundleIds = (
    await sql<{
      id: number;
    }>`select id from academy_events where academy_id = ${bundleAcademy.acadId} order by id`.execute(db)
  ).rows.map((r) => Number(r.id));
  const deep = (
    await sql<{ updated_at: number; pk: number }>`select updated_at, pk from pa_requests where client_id = ${clientId}
      order by updated_at desc, pk desc limit 1 offset ${Math.floor(sizes.requests * 0.9)}`.execute(db)
  ).rows[0];
  if (!deep) throw new Error('no deep request row');
  const { CursorCodec } = await load<CursorModule>('hr/lists/cursor.js');
  const sealed = (await sql<{ value: string }>`select value from settings where key = 'cursor_secret'`.execute(db))
    .rows[0]?.value;
  if (!sealed) throw new Error('the cursor secret should exist');
  // Stored sealed by the master key (docs/security.md): the dataset's data directory holds the key file.
  const { loadSecretBox } = await load<SecretBoxModule>('platform/security/secret-box.js');
  const secret = loadSecretBox(config).open('setting:cursor_secret', sealed);
  const deepCursor = new CursorCodec(secret).encode(
    { keys: [Number(deep.updated_at), Number(deep.pk)], direction: 'after', inclusive: false },
    `${clientId}:requests:-updated_at`,
  );
  await database.close();
  return {
    dialect,
    sizes,
    env,
    hr: { clientId, applicationId: app.application_id, secret: app.application_secret, basic },
    hrWebhooks: {
      clientId: webhookClientId,
      applicationId: webhookApp.application_id,
      secret: webhookApp.application_secret,
      basic: `Basic ${Buffer.from(`${webhookApp.application_id}:${webhookApp.application_secret}`).toString('base64')}`,
    },
    academy: { acadId: academy.acadId, apikey: academy.apikey },
    bundleAcademy: { acadId: bundleAcademy.acadId, apikey: bundleAcademy.apikey },
    employeeIds,
    eventIds,
    bundleIds,
    deepCursor,
    document: templates.document,
    documentFile,
    loadSeconds: (performance.now() - started) / 1000,
    drop: fresh.drop,
  };
}
