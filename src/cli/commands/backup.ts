/** `atrium backup` and `atrium restore` (cli/backup.ts, docs/backup.md). */
import type { Command } from 'commander';
import { announce, command, examples, nonEmpty, output, settings, warn } from './shared.js';

export function addBackupCommands(program: Command): void {
  command(program, 'backup', '--out DIR [--json]', 'copy the SQLite database and its files while the server runs')
    .requiredOption('--out <DIR>', 'the backup directory to create (it must not exist, or be empty)', nonEmpty)
    .option('--json', 'print {"out", "database", "blobs", "bytes"}')
    .addHelpText(
      'after',
      `${examples('atrium backup --out /backups/atrium-2031-06-15', 'tar -cf atrium.tar -C /backups/atrium-2031-06-15 .')}
With PostgreSQL (DATABASE_URL), files live in the database: use pg_dump; the command prints how.
The master key is not in the backup: keep it apart (docs/security.md). Format: docs/backup.md.
`,
    )
    .action(async (options: { out: string; json?: boolean }) => {
      const json = options.json === true;
      const config = settings();
      await announce(config, json);
      const { backup, backupWarnings, formatBackup } = await import('../backup.js');
      const result = await backup(config, options.out);
      output(json, result, formatBackup(result));
      warn(backupWarnings(result));
    });

  command(
    program,
    'restore',
    '--from DIR [--force] [--json]',
    'load a backup made by atrium backup into the data directory',
  )
    .requiredOption('--from <DIR>', 'the backup directory', nonEmpty)
    .option('--force', 'replace the database and files of a data directory that is not empty')
    .option('--json', 'print {"dataDir", "database", "blobs", "bytes"}')
    .addHelpText(
      'after',
      `${examples('atrium restore --from /backups/atrium-2031-06-15', 'ATRIUM_DATA_DIR=/srv/atrium atrium restore --from ./backup --force')}
Refuses while a server (or another atrium command) has the database open. Stop the server first.
`,
    )
    .action(async (options: { from: string; force?: boolean; json?: boolean }) => {
      const json = options.json === true;
      const config = settings();
      await announce(config, json);
      const { restore, formatRestore } = await import('../backup.js');
      const result = await restore(config, options.from, { force: options.force === true });
      output(json, result, formatRestore(result));
      warn(result.warnings);
    });
}
