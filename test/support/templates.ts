/**
 * Migrated template databases for a test run, made once by test/run.ts: each server a test starts then begins
 * from a copy (a file copy on SQLite, `create database … template` on PostgreSQL) instead of applying every
 * migration again, which cost about 0.15 s of the test process's CPU and more of PostgreSQL's, some 460 times a
 * run. Migrations themselves are tested on empty databases (`freshDatabase`), which stay the default.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase, sqlitePath } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';

export const SQLITE_TEMPLATE = 'ATRIUM_TEST_SQLITE_TEMPLATE';
export const PG_TEMPLATE = 'ATRIUM_TEST_PG_TEMPLATE';

export interface Templates {
  /** The variables that name the templates, for the test processes' environment. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function migrate(env: Record<string, string>): Promise<void> {
  const database = openDatabase(loadConfig(env));
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
}

/** Makes the templates: SQLite always, PostgreSQL on the admin URL when there is one. */
export async function prepareTemplates(pgAdminUrl: string | undefined): Promise<Templates> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-template-'));
  await migrate({ ATRIUM_DATA_DIR: dir });
  const env: Record<string, string> = { [SQLITE_TEMPLATE]: sqlitePath(dir) };
  let name: string | undefined;
  if (pgAdminUrl) {
    name = `atrium_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(pgAdminUrl);
    url.pathname = `/${name}`;
    // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
    await migrate({ ATRIUM_DATA_DIR: dir, DATABASE_URL: url.toString() });
    env[PG_TEMPLATE] = name;
  }
  return {
    env,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
      if (!name || !pgAdminUrl) return;
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
