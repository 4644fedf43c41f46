import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/platform/config.js';
import { type DialectName, openDatabase, sqlitePath } from '../../src/platform/db/database.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { loggerOptions } from '../../src/platform/logger.js';
import { recordParityHits } from './parity-hits.js';
import { PG_TEMPLATE, SQLITE_TEMPLATE } from './templates.js';

/** The databases this run can test against: SQLite always, PostgreSQL when the runner provides one. */
export function dialects(): DialectName[] {
  return process.env.ATRIUM_TEST_PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  dialect: DialectName;
  /** Settings that point at this database: a fresh data dir, and DATABASE_URL for PostgreSQL. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh database of the given dialect: empty, or with `migrated`, a copy of the run's migrated template
 * (test/support/templates.ts) when test/run.ts made one, else empty too (the server then migrates it).
 */
export async function freshDatabase(dialect: DialectName, options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-test-'));
  if (dialect === 'sqlite') {
    const template = options.migrated ? process.env[SQLITE_TEMPLATE] : undefined;
    if (template) {
      fs.copyFileSync(template, sqlitePath(dataDir));
      fs.chmodSync(sqlitePath(dataDir), 0o600);
    }
    return {
      dialect,
      env: { ATRIUM_DATA_DIR: dataDir },
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const admin = process.env.ATRIUM_TEST_PG_URL;
  if (!admin) throw new Error('ATRIUM_TEST_PG_URL is not set');
  const name = `atrium_t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const template = options.migrated ? process.env[PG_TEMPLATE] : undefined;
  await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    dialect,
    env: { ATRIUM_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestServer {
  dialect: DialectName;
  url: string;
  app: App;
  config: Config;
  env: Record<string, string>;
  /** Every log line the server wrote, parsed. */
  logs: string[];
  /** A second server process-equivalent on the same database (another App instance). */
  sibling(): Promise<TestServer>;
  close(): Promise<void>;
}

async function listen(
  dialect: DialectName,
  env: Record<string, string>,
  drop: () => Promise<void>,
): Promise<TestServer> {
  const config = loadConfig({
    ...env,
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    ATRIUM_AUTH_REFRESH_MS: env.ATRIUM_AUTH_REFRESH_MS ?? '200',
  });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = pino(loggerOptions(config.logLevel), stream);
  const app = await buildApp(config, { logger, database: openDatabase(config) });
  // With ATRIUM_PARITY_HITS (a whole run), the operations this server answers count for the parity page.
  recordParityHits(app.server);
  const address = await app.server.listen({ port: 0, host: '127.0.0.1' });
  const siblings: TestServer[] = [];
  return {
    dialect,
    url: address,
    app,
    config,
    env,
    logs,
    async sibling() {
      const s = await listen(dialect, env, async () => {});
      siblings.push(s);
      return s;
    },
    async close() {
      for (const s of siblings) await s.close();
      await app.close();
      await drop();
    },
  };
}

/** Starts a server on a fresh database of this dialect, with extra settings. */
export async function startServer(dialect: DialectName, extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const database = await freshDatabase(dialect, { migrated: true });
  return listen(dialect, { ...database.env, ...extraEnv }, () => database.drop());
}

export interface Credentials {
  client_id: string;
  application_id: string;
  application_secret: string;
}

/** A new client with one application. */
export async function createCredentials(
  server: TestServer,
  options: { readOnly?: boolean } = {},
): Promise<Credentials> {
  const { client_id } = await server.app.services.tenants.createClient(`client ${randomBytes(3).toString('hex')}`);
  return server.app.services.tenants.createApplication(hrTenantId(client_id), 'test app', options.readOnly ?? false);
}

export function basic(creds: Pick<Credentials, 'application_id' | 'application_secret'>): string {
  return `Basic ${Buffer.from(`${creds.application_id}:${creds.application_secret}`).toString('base64')}`;
}

export async function requestToken(server: TestServer, creds: Credentials): Promise<Response> {
  return fetch(`${server.url}/api/v2/client/tokens`, {
    method: 'POST',
    headers: {
      authorization: basic(creds),
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'client', client_id: creds.client_id }),
  });
}

export async function getToken(server: TestServer, creds: Credentials): Promise<string> {
  const res = await requestToken(server, creds);
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** An authenticated HR API caller: a client, an application and a token. */
export interface HrCaller {
  creds: Credentials;
  token: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

export async function hrCaller(server: TestServer, options: { readOnly?: boolean } = {}): Promise<HrCaller> {
  const creds = await createCredentials(server, options);
  const token = await getToken(server, creds);
  return {
    creds,
    token,
    call(method, p, body, headers = {}) {
      return fetch(`${server.url}${p.startsWith('/api') ? '' : '/api/v2/client'}${p}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** An `hr_organizations` row with every optional column empty, for tests that write rows directly. */
export function organizationRow(clientId: string, id: string, name: string, parent: string | null, at: number) {
  return {
    client_id: clientId,
    id,
    name,
    description: null,
    parent_organization_id: parent,
    corporate_name: null,
    address1: null,
    address2: null,
    zip_code: null,
    city: null,
    country: null,
    contact_firstname: null,
    contact_lastname: null,
    contact_email: null,
    contact_phone_number: null,
    created_at: at,
    updated_at: at,
  };
}
