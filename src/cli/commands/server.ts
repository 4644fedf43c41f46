/** `atrium serve`, `atrium migrate` and `atrium doctor`: the server process and its database's health. */
import { type Command, InvalidArgumentError } from 'commander';
import { type Config, ROLES, type Role } from '../../platform/config.js';
import { io } from '../io.js';
import { announce, command, examples, integerIn, nonEmpty, output, settings } from './shared.js';

const portNumber = integerIn(0, 65535, 'a port number (0 to 65535)');
const workerCount = integerIn(1, 256, 'a number of processes (1 to 256)');

/** `--role`: `all`, `api` or `jobs`. */
function roleName(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new InvalidArgumentError('must be all, api or jobs');
  return value as Role;
}

export function addServerCommands(program: Command): void {
  command(
    program,
    'serve',
    '[--port N] [--host H] [--workers N] [--admin-port N] [--role api|jobs|all]',
    'serve both APIs (what npm start runs)',
  )
    .option('--port <N>', 'TCP port (PORT; default 8080; 0: any free port)', portNumber)
    .option('--host <H>', 'interface to bind (HOST; default 127.0.0.1; 0.0.0.0 for every interface)', nonEmpty)
    .option('--workers <N>', 'server processes on one port (ATRIUM_WORKERS; default 1; docs/SCALING.md)', workerCount)
    .option(
      '--admin-port <N>',
      'serve the admin API on this port only (ATRIUM_ADMIN_PORT; default: the main port)',
      portNumber,
    )
    .option(
      '--role <role>',
      'all: APIs and background jobs; api: the APIs only; jobs: background jobs only, no API (ATRIUM_ROLE; default all; PostgreSQL only for api and jobs; docs/SCALING.md)',
      roleName,
    )
    .addHelpText(
      'after',
      examples(
        'atrium serve',
        'atrium serve --port 9000 --host 0.0.0.0',
        'DATABASE_URL=postgres://atrium@db/atrium atrium serve --workers 4',
        'DATABASE_URL=postgres://atrium@db/atrium atrium serve --role jobs --port 8081',
      ),
    )
    .action(async (options: { port?: number; host?: string; workers?: number; adminPort?: number; role?: Role }) => {
      const overrides: Partial<Config> = {};
      if (options.role !== undefined) overrides.role = options.role;
      if (options.adminPort !== undefined) overrides.adminPort = options.adminPort;
      if (options.port !== undefined) overrides.port = options.port;
      if (options.host !== undefined) overrides.host = options.host;
      if (options.workers !== undefined) overrides.workers = options.workers;
      const config = settings(overrides);
      await announce(config, false);
      const { serve } = await import('../serve.js');
      await serve(config);
    });

  command(program, 'migrate', '[--json]', 'apply pending database migrations')
    .option('--json', 'print {"applied": [...]}')
    .addHelpText('after', examples('atrium migrate', 'DATABASE_URL=postgres://atrium@db/atrium atrium migrate --json'))
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      const config = settings();
      await announce(config, json);
      const [{ openDatabase }, { migrateToLatest }] = await Promise.all([
        import('../../platform/db/database.js'),
        import('../../platform/db/migrate.js'),
      ]);
      const database = openDatabase(config);
      try {
        const applied = await migrateToLatest(database);
        output(json, { applied }, applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      } finally {
        await database.close();
      }
    });

  command(
    program,
    'doctor',
    '[--json]',
    'check the master key and the permissions of the data files; exits 1 when something is wrong (docs/security.md)',
  )
    .option('--json', 'print the report as JSON')
    .addHelpText('after', examples('atrium doctor', 'atrium doctor --json'))
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      const config = settings();
      await announce(config, json);
      const { doctor, formatDoctor } = await import('../doctor.js');
      const report = await doctor(config);
      output(json, report, formatDoctor(report));
      if (!report.ok) io().exitCode = 1;
    });
}
