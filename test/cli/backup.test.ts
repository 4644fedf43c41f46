/**
 * `atrium backup` and `atrium restore` (docs/backup.md): a backup taken by the built CLI while a server writes
 * (uploads and organizations, several writers), restored into a new data directory, holds every write acknowledged
 * before the backup began, with every stored file's bytes; restore refuses a non-empty directory without --force
 * and a database in use. SQLite only: with PostgreSQL both commands print pg_dump guidance (test/cli/usage.test.ts).
 * Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { atrium, atriumProcess } from '../support/cli.js';
import { type HrCaller, hrCaller, sleep, startServer, type TestServer } from '../support/harness.js';

interface Ack {
  kind: 'upload' | 'organization';
  id: string;
  content: string;
  at: number;
}

describe('atrium backup and restore (sqlite)', () => {
  let server: TestServer;
  let caller: HrCaller;
  let work: string;
  before(async () => {
    server = await startServer('sqlite');
    caller = await hrCaller(server);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-backup-'));
  });
  after(async () => {
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('a backup under write load, restored, holds every write acknowledged before it began', async () => {
    const acks: Ack[] = [];
    let stop = false;
    let n = 0;
    const writer = async (w: number) => {
      while (!stop) {
        const i = n++;
        const content = `writer ${w} file ${i} ${Math.random()}`;
        const upload = await caller.call('POST', '/uploads', content, {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="f${i}.txt"`,
        });
        assert.equal(upload.status, 201);
        acks.push({ kind: 'upload', id: ((await upload.json()) as { id: string }).id, content, at: Date.now() });
        const org = await caller.call('PUT', `/organizations/org-${i}`, { name: `Org ${i}` });
        assert.ok(org.status === 201, `PUT organization: ${org.status}`);
        await org.arrayBuffer();
        acks.push({ kind: 'organization', id: `org-${i}`, content: `Org ${i}`, at: Date.now() });
      }
    };
    const writers = [1, 2, 3].map(writer);
    while (acks.length < 20) await sleep(20);

    const out = path.join(work, 'backup');
    // The writes acknowledged so far, taken in the same synchronous step as the start time
    // (comparing timestamps loses a write acknowledged in the very millisecond the backup began).
    const acknowledged = acks.slice();
    const begun = Date.now();
    // A process of its own, as in production: the server (in this process) goes on answering while it copies.
    const backup = await atriumProcess(server.env, 'backup', '--out', out, '--json');
    const ended = Date.now();
    stop = true;
    await Promise.all(writers);
    assert.equal(backup.code, 0, backup.stderr);
    const result = JSON.parse(backup.stdout) as { out: string; blobs: number; missingBlobs: string[] };
    assert.equal(result.out, out);
    assert.deepEqual(result.missingBlobs, []);
    assert.ok(
      acks.some((a) => a.at > begun && a.at < ended),
      'the server kept acknowledging writes while the backup ran',
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'atrium-backup.json'), 'utf8')) as { blobs: number };
    assert.equal(manifest.blobs, result.blobs);

    // Restore into a new data directory, with the installation's master key.
    const restored = path.join(work, 'restored');
    const env = { ATRIUM_DATA_DIR: restored, ATRIUM_MASTER_KEY_FILE: server.config.masterKeyFile };
    const restore = await atrium(env, 'restore', '--from', out, '--json');
    assert.equal(restore.code, 0, restore.stderr);
    const summary = JSON.parse(restore.stdout) as { blobs: number; warnings: string[] };
    assert.equal(summary.blobs, result.blobs);
    assert.deepEqual(summary.warnings, [], 'the master key opens the restored database');

    assert.ok(acknowledged.length >= 20, `${acknowledged.length} writes before the backup`);
    const app = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      const database = app.database.db;
      const uploads = await database.selectFrom('hr_uploads').select(['id', 'sha256']).execute();
      const uploadSha = new Map(uploads.map((u) => [u.id, u.sha256]));
      const orgs = new Set(
        (await database.selectFrom('hr_organizations').select('id').execute()).map((o: { id: string }) => o.id),
      );
      for (const ack of acknowledged) {
        if (ack.kind === 'organization') {
          assert.ok(orgs.has(ack.id), `organization ${ack.id} acknowledged before the backup is restored`);
          continue;
        }
        const sha = uploadSha.get(ack.id);
        assert.ok(sha, `upload ${ack.id} acknowledged before the backup is restored`);
        const stream = await app.services.blobs.read(sha);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        assert.equal(Buffer.concat(chunks).toString(), ack.content, 'its bytes are restored');
      }
      // Every blob row of the restored database has its file (the restore verified each checksum).
      const blobRows = await database.selectFrom('blobs').select('sha256').execute();
      assert.equal(blobRows.length, result.blobs);
    } finally {
      await app.close();
    }
  });

  it('restore refuses a non-empty data directory without --force, and a database in use even with it', async () => {
    const out = path.join(work, 'small');
    assert.equal((await atrium(server.env, 'backup', '--out', out)).code, 0);
    const again = await atrium(server.env, 'backup', '--out', out);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists and is not an empty directory/);

    const target = path.join(work, 'occupied');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'notes.txt'), 'keep me');
    const refused = await atrium({ ATRIUM_DATA_DIR: target }, 'restore', '--from', out);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not empty; .*--force/);
    assert.deepEqual(fs.readdirSync(target), ['notes.txt'], 'nothing was written');

    const forced = await atrium({ ATRIUM_DATA_DIR: target }, 'restore', '--from', out, '--force');
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /WARNING: no master key/);
    assert.equal(fs.readFileSync(path.join(target, 'notes.txt'), 'utf8'), 'keep me', 'other files are left alone');
    const copy = openDatabase({ dataDir: target, databaseUrl: undefined, dbPoolSize: 1 });
    try {
      assert.ok((await copy.db.selectFrom('hr_clients').select('id').execute()).length > 0, 'the clients are there');
    } finally {
      await copy.close();
    }

    // The running server's own data directory: in use.
    const busy = await atrium(server.env, 'restore', '--from', out, '--force');
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /is in use \(a running server or atrium command\): stop it first/);

    const notBackup = await atrium({ ATRIUM_DATA_DIR: path.join(work, 'x') }, 'restore', '--from', target);
    assert.equal(notBackup.code, 1);
    assert.match(notBackup.stderr, /is not a finished atrium backup/);
  });
});
