import fs from 'node:fs';
import { sql } from 'kysely';
import type { Config } from '../platform/config.js';
import { openDatabase, sqlitePath } from '../platform/db/database.js';
import { holdsSealedSecrets } from '../platform/db/settings.js';
import type { PermissionFinding } from '../platform/security/permissions.js';
import { loadSecretBox, MasterKeyError, missingKeyMessage } from '../platform/security/secret-box.js';
import { checkDataPermissions } from '../services.js';

export interface DoctorReport {
  ok: boolean;
  masterKey: { source: string; fingerprint?: string; opensDatabase: boolean | null; problem?: string };
  permissions: PermissionFinding[];
}

/**
 * `atrium doctor`: checks what a start would not show until it fails or leaks — that the master key is readable and
 * is this database's own, and that the data directory, the database files, the blob directory and the key file are
 * this user's only. It creates nothing: a missing key file is reported, not made.
 */
export async function doctor(config: Config): Promise<DoctorReport> {
  const permissions = checkDataPermissions(config);
  const report: DoctorReport = {
    ok: true,
    masterKey: { source: config.masterKey ? 'ATRIUM_MASTER_KEY' : config.masterKeyFile, opensDatabase: null },
    permissions,
  };
  if (!config.masterKey && !fs.existsSync(config.masterKeyFile)) {
    if (await sealedBySomeKey(config)) {
      report.masterKey.opensDatabase = false;
      report.masterKey.problem = missingKeyMessage(config);
      report.ok = false;
    } else {
      report.masterKey.problem = 'no master key file yet: the first start creates it (back it up then)';
    }
  } else {
    try {
      const box = loadSecretBox(config);
      report.masterKey.fingerprint = box.fingerprint();
      const database = openDatabase(config);
      try {
        const row = await database.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'master_key_check')
          .executeTakeFirst()
          .catch(() => undefined);
        if (row) {
          box.verifyCheck(row.value);
          report.masterKey.opensDatabase = true;
        }
        await sql`select 1`.execute(database.db);
      } finally {
        await database.close();
      }
    } catch (error) {
      if (!(error instanceof MasterKeyError)) throw error;
      report.masterKey.opensDatabase = false;
      report.masterKey.problem = error.message;
      report.ok = false;
    }
  }
  if (permissions.some((f) => !f.ok)) report.ok = false;
  return report;
}

/** Whether an existing database holds secrets sealed by a master key (a SQLite file is not created to find out). */
async function sealedBySomeKey(config: Config): Promise<boolean> {
  if (!config.databaseUrl && !fs.existsSync(sqlitePath(config.dataDir))) return false;
  const database = openDatabase(config);
  try {
    return await holdsSealedSecrets(database.db).catch(() => false);
  } finally {
    await database.close();
  }
}

export function formatDoctor(report: DoctorReport): string {
  const lines = [
    `master key: ${report.masterKey.source}${report.masterKey.fingerprint ? ` (fingerprint ${report.masterKey.fingerprint})` : ''}`,
  ];
  if (report.masterKey.opensDatabase === true) lines.push('  opens this database: yes');
  if (report.masterKey.problem)
    lines.push(`  ${report.masterKey.opensDatabase === false ? 'ERROR' : 'note'}: ${report.masterKey.problem}`);
  lines.push('permissions:');
  for (const f of report.permissions) {
    lines.push(
      `  ${f.ok ? 'ok  ' : 'WARN'} ${f.mode} ${f.path}${f.ok ? '' : ` (readable by other users; chmod ${f.expected.slice(1)})`}`,
    );
  }
  lines.push(report.ok ? 'no problems found' : 'problems found');
  return lines.join('\n');
}
