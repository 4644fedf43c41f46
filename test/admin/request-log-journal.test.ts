/**
 * On SQLite the request log is its own database file, `request-log.sqlite` in the data directory (docs/admin.md,
 * "Request log"): the calls are there and the tenants' database has no log tables; a damaged file is replaced by an
 * empty log at first use, with a warning; `atrium backup` copies it and `atrium restore` puts it back, or empties the
 * log when the backup has none (docs/backup.md).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Sqlite } from '../../src/platform/db/database.js';
import { atrium } from '../support/cli.js';
import { type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';

const JOURNAL = 'request-log.sqlite';

function pageSize(file: string): number {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    return Number(db.pragma('page_size', { simple: true }));
  } finally {
    db.close();
  }
}

function rowsIn(file: string): { seq: number; path: string }[] {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select seq, path from request_log order by seq').all() as { seq: number; path: string }[];
  } finally {
    db.close();
  }
}

describe('the request log in its own SQLite file', () => {
  let server: TestServer;
  let hr: HrCaller;
  let dataDir: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-journal-'));

  before(async () => {
    server = await startServer('sqlite', { ATRIUM_RATE_LIMIT: '0' });
    dataDir = server.config.dataDir;
    // Not a database: the log finds it damaged at its first use and starts a new one.
    fs.writeFileSync(path.join(dataDir, JOURNAL), 'this is not an SQLite database, not even its header'.repeat(100));
    hr = await hrCaller(server);
  });
  after(async () => {
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('keeps the calls in request-log.sqlite, not in the tenants database; a damaged file is replaced', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await hr.call('GET', `/employees?per_page=${i + 1}`)).status, 200);
    await server.app.services.requestLog.flush();
    const rows = rowsIn(path.join(dataDir, JOURNAL)).filter((r) => r.path.startsWith('/api/v2/client/employees'));
    assert.deepEqual(
      rows.map((r) => r.path),
      [
        '/api/v2/client/employees?per_page=1',
        '/api/v2/client/employees?per_page=2',
        '/api/v2/client/employees?per_page=3',
      ],
    );
    assert.equal(pageSize(path.join(dataDir, JOURNAL)), 32_768, 'a list answer fits in one page');
    assert.ok(
      server.logs.some((l) => l.includes('the request log file was damaged')),
      'a warning names the replaced file',
    );
    const main = new Sqlite(path.join(dataDir, 'atrium.sqlite'), { readonly: true });
    try {
      const tables = main
        .prepare("select name from sqlite_master where type = 'table' and name like 'request_log%'")
        .all();
      assert.deepEqual(tables, [], 'the tenants database holds no log tables');
    } finally {
      main.close();
    }
    const listed = await fetch(`${server.url}/admin/v1/tenants/hr/${hr.creds.client_id}/requests?limit=10`, {
      headers: { authorization: `Bearer ${await adminToken(server)}` },
    });
    assert.equal(listed.status, 200);
    assert.equal(
      ((await listed.json()) as { requests: unknown[] }).requests.length,
      4,
      'the token call and three GETs',
    );
  });

  it('a backup carries the log; a restore puts it back, or empties it when the backup has none', async () => {
    const out = path.join(work, 'backup');
    const made = await atrium(server.env, 'backup', '--out', out, '--json');
    assert.equal(made.code, 0, made.stderr);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'atrium-backup.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(manifest.requestLog, JOURNAL);
    const logged = rowsIn(path.join(dataDir, JOURNAL));
    assert.deepEqual(rowsIn(path.join(out, JOURNAL)), logged);
    assert.ok(!fs.existsSync(path.join(out, `${JOURNAL}-wal`)), 'a file that stands alone');

    const target = path.join(work, 'restored');
    const env = { ...server.env, ATRIUM_DATA_DIR: target };
    const restored = await atrium(env, 'restore', '--from', out, '--json');
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(rowsIn(path.join(target, JOURNAL)), logged);

    // The same backup without its log, over the restored directory: the log there is emptied, not kept.
    fs.rmSync(path.join(out, JOURNAL));
    delete manifest.requestLog;
    fs.writeFileSync(path.join(out, 'atrium-backup.json'), JSON.stringify(manifest));
    const again = await atrium(env, 'restore', '--from', out, '--force', '--json');
    assert.equal(again.code, 0, again.stderr);
    assert.ok(!fs.existsSync(path.join(target, JOURNAL)), 'no log is left from the replaced installation');
    assert.ok(fs.existsSync(path.join(target, 'atrium.sqlite')));
  });
});

async function adminToken(server: TestServer): Promise<string> {
  const { token } = await server.app.services.adminTokens.create('journal', 'cli');
  return token;
}
