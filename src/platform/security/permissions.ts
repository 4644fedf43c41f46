import fs from 'node:fs';
import { blobDirectory } from '../blobs/open.js';
import type { Config } from '../config.js';
import { sqlitePath } from '../db/database.js';

/** One path the server keeps secrets or data in, and what is wrong with its permissions (if anything). */
export interface PermissionFinding {
  path: string;
  /** Octal permission bits, e.g. `0600`; undefined when the path does not exist. */
  mode: string | undefined;
  /** What the path should be. */
  expected: string;
  ok: boolean;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

function inspect(file: string, expected: string): PermissionFinding | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return undefined;
  }
  // Anything granted to the group or to others is too loose: the files hold every tenant's data and the keys.
  return { path: file, mode: octal(stat.mode), expected, ok: (stat.mode & 0o077) === 0 };
}

/**
 * The permissions of the data directory, the SQLite files, the blob directory and the master key file, as
 * `atrium doctor` reports them and the server warns about at start: each must be this user's only (0700 or 0600).
 */
export function checkPermissions(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'masterKey' | 'masterKeyFile'>) {
  const paths: Array<[string, string]> = [[config.dataDir, '0700']];
  if (!config.databaseUrl) {
    const db = sqlitePath(config.dataDir);
    paths.push([db, '0600'], [`${db}-wal`, '0600'], [`${db}-shm`, '0600'], [blobDirectory(config.dataDir), '0700']);
  }
  if (!config.masterKey) paths.push([config.masterKeyFile, '0600']);
  return paths.map(([p, expected]) => inspect(p, expected)).filter((f): f is PermissionFinding => f !== undefined);
}
