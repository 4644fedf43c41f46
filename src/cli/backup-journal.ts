/**
 * The request log's own file (`request-log.sqlite`, admin/request-log/journal.ts) in a backup of an SQLite
 * installation: copied beside the database when it exists, and put back by a restore, which otherwise empties the
 * log (a log of calls made to another installation would mislead). docs/backup.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { JOURNAL_FILE, journalFiles } from '../admin/request-log/journal.js';
import { Sqlite } from '../platform/db/database.js';

/** Copies the data directory's request log into `out` with SQLite's online backup; answers its name, or none. */
export async function backupJournal(dataDir: string, out: string, busyTimeoutMs: number): Promise<string | undefined> {
  const source = path.join(dataDir, JOURNAL_FILE);
  if (!fs.statSync(source, { throwIfNoEntry: false })?.isFile()) return undefined;
  const target = path.join(out, JOURNAL_FILE);
  fs.closeSync(fs.openSync(target, 'wx', 0o600));
  const reader = new Sqlite(source, { fileMustExist: true });
  try {
    reader.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    await reader.backup(target, { progress: () => 0x7fffffff });
  } finally {
    reader.close();
  }
  const copy = new Sqlite(target, { fileMustExist: true });
  try {
    // A file that stands alone (no -wal beside it).
    copy.pragma('journal_mode = delete');
  } finally {
    copy.close();
  }
  return JOURNAL_FILE;
}

/**
 * Replaces the data directory's request log by the backup's (staged in `staging` first, then moved), or removes it
 * when the backup has none. A backup's log that SQLite finds damaged is left out, not restored.
 */
export function restoreJournal(from: string, name: string | undefined, dataDir: string, staging: string): void {
  const source = name === JOURNAL_FILE ? path.join(from, JOURNAL_FILE) : undefined;
  let staged: string | undefined;
  if (source && fs.existsSync(source)) {
    staged = path.join(staging, JOURNAL_FILE);
    fs.copyFileSync(source, staged);
    fs.chmodSync(staged, 0o600);
    const check = new Sqlite(staged, { fileMustExist: true, readonly: true });
    try {
      if (check.pragma('quick_check', { simple: true }) !== 'ok') staged = undefined;
    } catch {
      staged = undefined;
    } finally {
      check.close();
    }
  }
  for (const file of journalFiles(dataDir)) fs.rmSync(file, { force: true });
  if (staged) fs.renameSync(staged, path.join(dataDir, JOURNAL_FILE));
}
