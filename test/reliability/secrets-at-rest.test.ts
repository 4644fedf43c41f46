/**
 * Issue 16, item 2: reversible secrets (HR signing keys, the cursor MAC secret) are stored sealed by the master key
 * (AES-256-GCM); the master key is ATRIUM_MASTER_KEY or a 0600 key file; a wrong key fails at start; secrets an
 * earlier release stored in plain text are sealed on start; the data directory is made 0700 and the database files
 * 0600; `atrium doctor` and the start-up check report looser permissions.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.js';
import { doctor } from '../../src/cli/doctor.js';
import { loadConfig } from '../../src/platform/config.js';
import { sqlitePath } from '../../src/platform/db/database.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { loggerOptions } from '../../src/platform/logger.js';
import { isSealed, MasterKeyError } from '../../src/platform/security/secret-box.js';
import { dialects, freshDatabase, getToken, type TestDatabase } from '../support/harness.js';
import { ROOT } from '../support/root.js';

const CLI = path.join(ROOT, 'dist/cli/main.js');

function atrium(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const mode = (p: string): number => fs.statSync(p).mode & 0o777;

interface Running {
  app: App;
  url: string;
  logs: string[];
}

async function start(env: Record<string, string>): Promise<Running> {
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const config = loadConfig({ ...env, LOG_LEVEL: 'info' });
  const app = await buildApp(config, { logger: pino(loggerOptions('info'), stream) });
  const url = await app.server.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, logs };
}

for (const dialect of dialects()) {
  describe(`secrets at rest (${dialect})`, () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    let dataDir: string;

    before(async () => {
      database = await freshDatabase(dialect);
      // A data directory that does not exist yet: the server creates it.
      dataDir = path.join(database.env.ATRIUM_DATA_DIR as string, 'data');
      env = { ...database.env, ATRIUM_DATA_DIR: dataDir };
    });
    after(() => database.drop());

    let creds: { client_id: string; application_id: string; application_secret: string };
    let token: string;

    it('signing keys and the cursor secret are stored sealed: no key bytes in clear in the rows (or the SQLite file)', async () => {
      const s = await start(env);
      try {
        const { client_id } = await s.app.services.tenants.createClient('at rest');
        creds = await s.app.services.tenants.createApplication(hrTenantId(client_id), 'app', false);
        token = await getToken({ url: s.url } as never, creds as never);
        const db = s.app.database.db;
        const keys = await db.selectFrom('signing_keys').selectAll().execute();
        assert.ok(keys.length >= 1, 'a signing key exists');
        const box = s.app.services.secretBox;
        const clear: string[] = [];
        for (const row of keys) {
          assert.ok(isSealed(row.secret), `signing key ${row.kid} is sealed`);
          clear.push(box.open(`signing_key:${row.kid}`, row.secret));
        }
        const cursor = await db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'cursor_secret')
          .executeTakeFirst();
        assert.ok(cursor && isSealed(cursor.value), 'the cursor secret is sealed');
        clear.push(box.open('setting:cursor_secret', cursor.value));
        for (const secret of clear) {
          for (const row of keys) assert.ok(!row.secret.includes(secret), 'a key in clear in its row');
          assert.ok(!cursor.value.includes(secret), 'a key in clear in the cursor row');
        }
        // A sealed value opens only for its own purpose (a row copied into another does not open).
        const first = keys[0];
        assert.ok(first, 'a first key');
        assert.throws(() => box.open('setting:cursor_secret', first.secret), MasterKeyError);
        if (dialect === 'sqlite') {
          await s.app.close();
          const bytes = Buffer.concat(
            ['', '-wal']
              .filter((x) => fs.existsSync(`${sqlitePath(dataDir)}${x}`))
              .map((x) => fs.readFileSync(`${sqlitePath(dataDir)}${x}`)),
          );
          for (const secret of clear) {
            assert.equal(bytes.includes(Buffer.from(secret)), false, 'a secret in clear in the database file');
            assert.equal(bytes.includes(Buffer.from(secret, 'base64url')), false, 'raw key bytes in the database file');
          }
        }
        // Tokens verify.
        if (dialect !== 'sqlite') {
          const res = await fetch(`${s.url}/api/v2/client/organizations`, {
            headers: { authorization: `Bearer ${token}` },
          });
          assert.equal(res.status, 200);
        }
      } finally {
        await s.app.close();
      }
    });

    it('the data directory is 0700, the key file and the SQLite files 0600, the blob directory 0700', () => {
      assert.equal(mode(dataDir), 0o700, 'data directory');
      assert.equal(mode(path.join(dataDir, 'master.key')), 0o600, 'master key file');
      if (dialect === 'sqlite') {
        for (const suffix of ['', '-wal', '-shm']) {
          const file = `${sqlitePath(dataDir)}${suffix}`;
          if (fs.existsSync(file)) assert.equal(mode(file), 0o600, `atrium.sqlite${suffix}`);
        }
        assert.equal(mode(path.join(dataDir, 'blobs')), 0o700, 'blob directory');
      }
    });

    it('a restart with the same key works: the same tokens verify', async () => {
      const s = await start(env);
      try {
        const res = await fetch(`${s.url}/api/v2/client/organizations`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 200);
      } finally {
        await s.app.close();
      }
    });

    it('a wrong master key fails at start, clearly (the server and the CLI), and doctor says so', async () => {
      const wrong = { ...env, ATRIUM_MASTER_KEY: randomBytes(32).toString('hex') };
      await assert.rejects(start(wrong), (error: unknown) => {
        assert.ok(error instanceof MasterKeyError, 'MasterKeyError');
        assert.equal(
          (error as Error).message,
          'this database was encrypted with another master key: the one in ATRIUM_MASTER_KEY does not open it; ' +
            `set ATRIUM_MASTER_KEY to that key, or put its master.key file in ${dataDir} (docs/security.md)`,
        );
        return true;
      });
      const cli = await atrium(wrong, 'hr', 'create-client', '--name', 'x');
      assert.equal(cli.code, 1);
      assert.match(
        cli.stderr,
        /^atrium: this database was encrypted with another master key: the one in ATRIUM_MASTER_KEY does not open it; set ATRIUM_MASTER_KEY/m,
      );
      const doc = await atrium(wrong, 'doctor', '--json');
      assert.equal(doc.code, 1, doc.stderr);
      const report = JSON.parse(doc.stdout) as { ok: boolean; masterKey: { opensDatabase: boolean } };
      assert.equal(report.ok, false);
      assert.equal(report.masterKey.opensDatabase, false);
      const malformed = await atrium({ ...env, ATRIUM_MASTER_KEY: 'short' }, 'hr', 'create-client', '--name', 'x');
      assert.equal(malformed.code, 1);
      assert.match(malformed.stderr, /ATRIUM_MASTER_KEY must be 32 bytes/);
    });

    it('the same key given as ATRIUM_MASTER_KEY (another machine) opens the database', async () => {
      const hex = fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim();
      const s = await start({ ...env, ATRIUM_MASTER_KEY: hex, ATRIUM_MASTER_KEY_FILE: path.join(dataDir, 'none.key') });
      try {
        const res = await fetch(`${s.url}/api/v2/client/organizations`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 200);
        assert.equal(fs.existsSync(path.join(dataDir, 'none.key')), false, 'no key file made when the key is given');
      } finally {
        await s.app.close();
      }
    });

    it('a restored data directory without its master.key refuses to start and writes no key file; doctor says why', async () => {
      // The data directory restored elsewhere, its key left behind (PostgreSQL: the same database, a new directory).
      const restored = path.join(database.env.ATRIUM_DATA_DIR as string, 'restored');
      fs.mkdirSync(restored, { mode: 0o700 });
      if (dialect === 'sqlite') {
        for (const suffix of ['', '-wal']) {
          const file = `${sqlitePath(dataDir)}${suffix}`;
          if (fs.existsSync(file)) fs.copyFileSync(file, `${sqlitePath(restored)}${suffix}`);
        }
      }
      const restoredEnv = { ...env, ATRIUM_DATA_DIR: restored };
      const keyFile = path.join(restored, 'master.key');
      const expected =
        `this database was encrypted with another master key, and there is no ${keyFile}: ` +
        `set ATRIUM_MASTER_KEY to that key, or put its master.key file in ${restored} (docs/security.md)`;
      await assert.rejects(start(restoredEnv), (error: unknown) => {
        assert.ok(error instanceof MasterKeyError, 'MasterKeyError');
        assert.equal((error as Error).message, expected);
        return true;
      });
      assert.equal(fs.existsSync(keyFile), false, 'no master.key written');
      const report = await doctor(loadConfig(restoredEnv));
      assert.equal(report.ok, false);
      assert.equal(report.masterKey.opensDatabase, false);
      assert.equal(report.masterKey.problem, expected);
      assert.equal(fs.existsSync(keyFile), false, 'doctor writes no master.key either');
      // With the key put back, the restored directory starts.
      fs.copyFileSync(path.join(dataDir, 'master.key'), keyFile);
      const s = await start(restoredEnv);
      await s.app.close();
    });

    it('secrets an earlier release stored in plain text are sealed at start; tokens and cursors keep working', async () => {
      let clearKeys: Map<string, string>;
      let clearCursor: string;
      {
        const s = await start(env);
        const db = s.app.database.db;
        const box = s.app.services.secretBox;
        clearKeys = new Map();
        // Write the rows back as the previous release stored them: in plain text.
        for (const row of await db.selectFrom('signing_keys').selectAll().execute()) {
          const secret = box.open(`signing_key:${row.kid}`, row.secret);
          clearKeys.set(row.kid, secret);
          await db.updateTable('signing_keys').set({ secret }).where('kid', '=', row.kid).execute();
        }
        const cursor = await db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'cursor_secret')
          .executeTakeFirstOrThrow();
        clearCursor = box.open('setting:cursor_secret', cursor.value);
        await db.updateTable('settings').set({ value: clearCursor }).where('key', '=', 'cursor_secret').execute();
        await s.app.close();
      }
      const s = await start(env);
      try {
        const db = s.app.database.db;
        const box = s.app.services.secretBox;
        for (const row of await db.selectFrom('signing_keys').selectAll().execute()) {
          assert.ok(isSealed(row.secret), `key ${row.kid} sealed again`);
          assert.equal(box.open(`signing_key:${row.kid}`, row.secret), clearKeys.get(row.kid), 'the same key');
        }
        const cursor = await db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'cursor_secret')
          .executeTakeFirstOrThrow();
        assert.ok(isSealed(cursor.value), 'cursor secret sealed again');
        assert.equal(box.open('setting:cursor_secret', cursor.value), clearCursor, 'the same cursor secret');
        assert.ok(
          s.logs.some((l) => l.includes('signing keys stored in plain text were encrypted')),
          'the start says it sealed them',
        );
        const res = await fetch(`${s.url}/api/v2/client/organizations`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 200, 'a token signed before the migration');
      } finally {
        await s.app.close();
      }
    });

    it('looser permissions are reported at start and by atrium doctor', async () => {
      const clean = await atrium(env, 'doctor', '--json');
      assert.equal(clean.code, 0, `${clean.stdout} ${clean.stderr}`);
      assert.equal((JSON.parse(clean.stdout) as { ok: boolean }).ok, true);
      fs.chmodSync(dataDir, 0o755);
      fs.chmodSync(path.join(dataDir, 'master.key'), 0o644);
      try {
        const s = await start(env);
        await s.app.close();
        const warned = s.logs.filter((l) => l.includes('readable by other users')).map((l) => JSON.parse(l).path);
        assert.ok(warned.includes(dataDir), 'the data directory is warned about');
        assert.ok(warned.includes(path.join(dataDir, 'master.key')), 'the key file is warned about');
        const doc = await atrium(env, 'doctor', '--json');
        assert.equal(doc.code, 1);
        const report = JSON.parse(doc.stdout) as {
          ok: boolean;
          permissions: { path: string; ok: boolean; mode: string }[];
        };
        assert.equal(report.ok, false);
        assert.deepEqual(
          report.permissions.filter((f) => !f.ok).map((f) => [f.path, f.mode]),
          [
            [dataDir, '0755'],
            [path.join(dataDir, 'master.key'), '0644'],
          ],
        );
        const human = await atrium(env, 'doctor');
        assert.match(human.stdout, /WARN 0755 /);
      } finally {
        fs.chmodSync(dataDir, 0o700);
        fs.chmodSync(path.join(dataDir, 'master.key'), 0o600);
      }
    });
  });
}
