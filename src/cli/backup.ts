/**
 * `atrium backup` and `atrium restore` of an SQLite installation: the database and its blobs, copied while the
 * server runs, into a directory (docs/backup.md).
 *
 * Consistency. Blobs are content-addressed and immutable; a blob's file is renamed into place inside the
 * transaction that inserts its `blobs` row, and deleted inside the transaction that deletes the row
 * (docs/storage.md). So while one holds the database's write lock, the files present are exactly those of the
 * committed rows. The backup takes the write lock (`begin immediate`) only long enough to hard-link every blob of
 * the committed rows into a staging directory (one `link` per blob: no bytes move) and to open a read transaction on
 * a second connection, then releases it. The database is then copied with SQLite's online backup API from that
 * read transaction's snapshot, the very state whose blobs were linked, while the server keeps writing.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { blobDirectory } from '../platform/blobs/open.js';
import { buildInfo } from '../platform/build-info.js';
import type { Config } from '../platform/config.js';
import { makePrivateDirectory, Sqlite, sqlitePath } from '../platform/db/database.js';
import { migrationNames } from '../platform/db/migrate.js';
import { loadSecretBox, MasterKeyError } from '../platform/security/secret-box.js';
import { wallClock } from '../platform/time.js';
import { backupJournal, restoreJournal } from './backup-journal.js';
import { CliError } from './failure.js';
import { count } from './plural.js';

export const MANIFEST_FILE = 'atrium-backup.json';
export const BACKUP_FORMAT = 'atrium-backup';
export const BACKUP_VERSION = 1;
const DATABASE_FILE = 'atrium.sqlite';

/** `atrium-backup.json`, written last: a directory without it is an unfinished backup. */
export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  atriumVersion: string;
  database: typeof DATABASE_FILE;
  /** The migrations applied to the copied database. */
  migrations: string[];
  blobs: number;
  blobBytes: number;
  /** Blobs whose row exists but whose file was already missing from the data directory (damage outside Atrium). */
  missingBlobs: string[];
  /** The request log's own file, when the installation had one (backup-journal.ts). */
  requestLog?: string;
}

export interface BackupResult {
  out: string;
  database: string;
  blobs: number;
  bytes: number;
  missingBlobs: string[];
}

export interface RestoreResult {
  dataDir: string;
  database: string;
  blobs: number;
  bytes: number;
  /** Things to do before starting the server (a master key to put in place…). */
  warnings: string[];
}

const PG_BACKUP = `with PostgreSQL (DATABASE_URL) the files are stored in the database itself: back it up with pg_dump, e.g.
  pg_dump --format=custom --file=atrium.dump "$DATABASE_URL"
(consistent while the server runs), and restore into an empty database with
  pg_restore --no-owner --dbname="$DATABASE_URL" atrium.dump
Keep the master key apart from the dump (docs/backup.md, docs/security.md).`;

const PG_RESTORE = `with PostgreSQL (DATABASE_URL) restore a pg_dump into an empty database with
  pg_restore --no-owner --dbname="$DATABASE_URL" atrium.dump
then start the server with the master key of the backed-up installation (docs/backup.md).`;

/** Where a blob's file lives under a blob directory: `ab/cd/<sha256>` (as FileBlobStore.pathOf). */
function blobPath(root: string, sha256: string): string {
  return path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function mkdirPrivate(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** A hard link of `from` at `to`, or a copy where the filesystem cannot link. */
function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
    fs.copyFileSync(from, to);
  }
}

/** Moves a file across directories (a rename, or a copy and an fsync on another filesystem). */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.copyFileSync(from, to);
    fs.chmodSync(to, 0o600);
    syncFile(to);
    fs.rmSync(from, { force: true });
  }
}

function isEmptyDirectory(dir: string, ignore: readonly string[] = []): boolean {
  return fs.readdirSync(dir).every((name) => ignore.includes(name));
}

/** Copies the SQLite data directory's database and blobs into `outArg` (a new or empty directory). */
export async function backup(config: Config, outArg: string): Promise<BackupResult> {
  if (config.databaseUrl) throw new CliError(PG_BACKUP);
  const dataDir = config.dataDir;
  const source = sqlitePath(dataDir);
  if (!fs.statSync(source, { throwIfNoEntry: false })?.isFile()) {
    throw new CliError(`no database in ${dataDir} (nothing to back up); set ATRIUM_DATA_DIR`);
  }
  const out = path.resolve(outArg);
  if (isInside(out, dataDir)) throw new CliError(`the backup must be outside the data directory ${dataDir}`);
  const existing = fs.statSync(out, { throwIfNoEntry: false });
  if (existing && !(existing.isDirectory() && isEmptyDirectory(out))) {
    throw new CliError(`${out} already exists and is not an empty directory; choose a new one`);
  }
  mkdirPrivate(out);
  const blobsRoot = blobDirectory(dataDir);
  const staging = path.join(blobsRoot, 'tmp', `backup-${process.pid}-${wallClock()}`);
  const writer = new Sqlite(source, { fileMustExist: true });
  const reader = new Sqlite(source, { fileMustExist: true });
  try {
    writer.pragma(`busy_timeout = ${Math.trunc(config.sqliteBusyTimeoutMs)}`);
    reader.pragma(`busy_timeout = ${Math.trunc(config.sqliteBusyTimeoutMs)}`);
    mkdirPrivate(staging);

    // 1. Under the write lock: link every committed blob, and start the snapshot the database copy will read.
    const blobs: { sha256: string; size: number }[] = [];
    const missingBlobs: string[] = [];
    writer.exec('begin immediate');
    try {
      const rows = writer.prepare('select sha256, size from blobs order by sha256').all() as {
        sha256: string;
        size: number;
      }[];
      for (const row of rows) {
        try {
          linkOrCopy(blobPath(blobsRoot, row.sha256), path.join(staging, row.sha256));
          blobs.push({ sha256: row.sha256, size: Number(row.size) });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          missingBlobs.push(row.sha256);
        }
      }
      reader.exec('begin');
      reader.prepare('select count(*) from blobs').get();
    } finally {
      writer.exec('rollback');
    }

    // 2. The database, from the snapshot, with no lock held: the server goes on writing meanwhile.
    const target = path.join(out, DATABASE_FILE);
    fs.closeSync(fs.openSync(target, 'wx', 0o600));
    await reader.backup(target, { progress: () => 0x7fffffff });
    reader.exec('commit');
    const copy = new Sqlite(target, { fileMustExist: true });
    let migrations: string[];
    try {
      // A file that stands alone (no -wal beside it), whatever the server's journal mode.
      copy.pragma('journal_mode = delete');
      migrations = (copy.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
        (r) => r.name,
      );
    } finally {
      copy.close();
    }
    syncFile(target);
    const requestLog = await backupJournal(dataDir, out, config.sqliteBusyTimeoutMs);

    // 3. The blobs: the links move into the backup (or are copied, on another filesystem).
    let blobBytes = 0;
    const outBlobs = path.join(out, 'blobs');
    for (const { sha256, size } of blobs) {
      const to = blobPath(outBlobs, sha256);
      mkdirPrivate(path.dirname(to));
      moveFile(path.join(staging, sha256), to);
      blobBytes += size;
    }

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date(wallClock()).toISOString(),
      atriumVersion: buildInfo().version,
      database: DATABASE_FILE,
      migrations,
      blobs: blobs.length,
      blobBytes,
      missingBlobs,
      ...(requestLog ? { requestLog } : {}),
    };
    const manifestFile = path.join(out, MANIFEST_FILE);
    fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    syncFile(manifestFile);
    return { out, database: target, blobs: blobs.length, bytes: fs.statSync(target).size + blobBytes, missingBlobs };
  } catch (error) {
    // Nothing half-made is left behind: the backup directory is emptied (and removed when we made it).
    if (existing)
      for (const name of fs.readdirSync(out)) fs.rmSync(path.join(out, name), { recursive: true, force: true });
    else fs.rmSync(out, { recursive: true, force: true });
    throw error;
  } finally {
    if (reader.inTransaction) reader.exec('rollback');
    reader.close();
    writer.close();
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

export function formatBackup(result: BackupResult): string {
  return [
    `backed up to ${result.out}: the database and ${count(result.blobs, 'file')} (${count(result.bytes, 'byte')})`,
    'the master key is not in the backup: keep it apart (docs/security.md)',
  ].join('\n');
}

/** What needs a person's attention after a backup: files whose rows exist but which were already missing. */
export function backupWarnings(result: BackupResult): string[] {
  return result.missingBlobs.length > 0
    ? [
        `${count(result.missingBlobs.length, 'stored file')} ${result.missingBlobs.length === 1 ? 'was' : 'were'} already missing from the data directory (not in the backup): ${result.missingBlobs.join(', ')}`,
      ]
    : [];
}

function readManifest(from: string): Manifest {
  const file = path.join(from, MANIFEST_FILE);
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Manifest>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new CliError(`${from} is not a finished atrium backup (it has no ${MANIFEST_FILE})`);
    }
    throw new CliError(`${file} cannot be read: ${(error as Error).message}`);
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION || manifest.database !== DATABASE_FILE) {
    throw new CliError(`${file} is not an atrium backup of format ${BACKUP_FORMAT} version ${BACKUP_VERSION}`);
  }
  return manifest as Manifest;
}

/** Whether another connection (a server, an atrium command) has the SQLite database open: it holds a lock on it. */
function inUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const probe = new Sqlite(file, { fileMustExist: true });
  try {
    probe.pragma('busy_timeout = 0');
    // In WAL mode every open connection keeps a shared lock on the database file: an exclusive lock fails.
    probe.pragma('locking_mode = exclusive');
    probe.exec('begin exclusive');
    probe.exec('commit');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    probe.close();
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Loads a backup into the data directory. The backup is checked first (manifest, SQLite integrity, migrations
 * this version knows, every blob present with its checksum), copied into a staging directory inside the data
 * directory, and only then moved into place; the data directory must be empty (a master key file aside) unless
 * `force`, and no process may have its database open.
 */
export async function restore(config: Config, fromArg: string, options: { force: boolean }): Promise<RestoreResult> {
  if (config.databaseUrl) throw new CliError(PG_RESTORE);
  const from = path.resolve(fromArg);
  const manifest = readManifest(from);
  const sourceDb = path.join(from, DATABASE_FILE);
  const dataDir = config.dataDir;
  if (isInside(dataDir, from) || isInside(from, dataDir)) {
    throw new CliError('the backup and the data directory must not be inside one another');
  }

  // 1. Check the backup before touching anything.
  let rows: { sha256: string; size: number }[];
  const check = new Sqlite(sourceDb, { fileMustExist: true, readonly: true });
  try {
    const quick = check.pragma('quick_check', { simple: true });
    if (quick !== 'ok') throw new CliError(`${sourceDb} is damaged (quick_check: ${String(quick)})`);
    const applied = (check.prepare('select name from kysely_migration').all() as { name: string }[]).map((r) => r.name);
    const unknown = applied.filter((name) => !migrationNames.includes(name));
    if (unknown.length > 0) {
      throw new CliError(
        `the backup was made by a newer Atrium (migration ${unknown[0]} is unknown to ${buildInfo().version}); restore it with that version`,
      );
    }
    rows = (check.prepare('select sha256, size from blobs order by sha256').all() as typeof rows).map((r) => ({
      sha256: r.sha256,
      size: Number(r.size),
    }));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${sourceDb} cannot be read as an atrium database: ${(error as Error).message}`);
  } finally {
    check.close();
  }
  const missing = new Set(manifest.missingBlobs ?? []);
  for (const { sha256, size } of rows) {
    const file = blobPath(path.join(from, 'blobs'), sha256);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) {
      if (missing.has(sha256)) continue;
      throw new CliError(`the backup is incomplete: the stored file ${sha256} is missing`);
    }
    if (stat.size !== size || (await sha256Of(file)) !== sha256) {
      throw new CliError(`the backup is damaged: the stored file ${sha256} does not match its checksum`);
    }
  }

  // 2. The target: empty (a master key aside) unless --force, and not in use.
  makePrivateDirectory(dataDir);
  const keyName = isInside(config.masterKeyFile, dataDir) ? path.relative(dataDir, config.masterKeyFile) : undefined;
  if (!options.force && !isEmptyDirectory(dataDir, keyName ? [keyName] : [])) {
    throw new CliError(
      `the data directory ${dataDir} is not empty; restore into an empty one, or add --force to replace its database and files`,
    );
  }
  const target = sqlitePath(dataDir);
  if (inUse(target)) {
    throw new CliError(`the database in ${dataDir} is in use (a running server or atrium command): stop it first`);
  }

  // 3. Copy into a staging directory on the same filesystem, then move into place.
  const staging = path.join(dataDir, `.restore-${process.pid}-${wallClock()}`);
  mkdirPrivate(staging);
  let bytes = 0;
  try {
    const stagedDb = path.join(staging, DATABASE_FILE);
    fs.copyFileSync(sourceDb, stagedDb);
    fs.chmodSync(stagedDb, 0o600);
    syncFile(stagedDb);
    bytes += fs.statSync(stagedDb).size;
    const stagedBlobs = path.join(staging, 'blobs');
    mkdirPrivate(path.join(stagedBlobs, 'tmp'));
    let blobs = 0;
    for (const { sha256, size } of rows) {
      const file = blobPath(path.join(from, 'blobs'), sha256);
      if (!fs.existsSync(file)) continue;
      const to = blobPath(stagedBlobs, sha256);
      mkdirPrivate(path.dirname(to));
      fs.copyFileSync(file, to);
      fs.chmodSync(to, 0o600);
      syncFile(to);
      bytes += size;
      blobs++;
    }
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
    const blobsRoot = blobDirectory(dataDir);
    fs.rmSync(blobsRoot, { recursive: true, force: true });
    fs.renameSync(stagedBlobs, blobsRoot);
    fs.renameSync(stagedDb, target);
    restoreJournal(from, manifest.requestLog, dataDir, staging);
    return { dataDir, database: target, blobs, bytes, warnings: masterKeyWarnings(config, target) };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Whether the master key the server would use opens the restored database's secrets. */
function masterKeyWarnings(config: Config, database: string): string[] {
  const fromEnv = config.masterKey !== undefined;
  if (!fromEnv && !fs.existsSync(config.masterKeyFile)) {
    return [
      `no master key (${config.masterKeyFile}): put the backed-up installation's key there, or set ATRIUM_MASTER_KEY, before starting the server (docs/security.md)`,
    ];
  }
  const db = new Sqlite(database, { fileMustExist: true, readonly: true });
  try {
    const row = db.prepare("select value from settings where key = 'master_key_check'").get() as
      | { value: string }
      | undefined;
    if (row) loadSecretBox(config).verifyCheck(row.value);
    return [];
  } catch (error) {
    if (error instanceof MasterKeyError) {
      return [`${error.message}: use the backed-up installation's master key (docs/security.md)`];
    }
    throw error;
  } finally {
    db.close();
  }
}

export function formatRestore(result: RestoreResult): string {
  return `restored into ${result.dataDir}: the database and ${count(result.blobs, 'file')} (${count(result.bytes, 'byte')})`;
}
