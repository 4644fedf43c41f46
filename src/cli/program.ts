/**
 * The `atrium` command line: every command, its options, its help and its examples, declared with commander.
 * The work of each command is imported when it runs, so `--help`, `--version` and usage errors answer at once,
 * without loading the server.
 */
import cluster from 'node:cluster';
import type { EventEmitter } from 'node:events';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Logger } from 'pino';
import { buildInfo } from '../platform/build-info.js';
import { type Config, loadConfig } from '../platform/config.js';
import type { Services } from '../services.js';
import { CliError } from './failure.js';
import { io } from './io.js';
import type { JobsRequest } from './jobs.js';
import { countOf } from './plural.js';

function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return value;
}

/** A non-empty value of at most `max` characters (the column that stores it). */
function textUpTo(max: number) {
  return (value: string): string => {
    nonEmpty(value);
    if (value.length > max) throw new InvalidArgumentError(`must be at most ${max} characters`);
    return value;
  };
}

function integerIn(min: number, max: number, what: string) {
  return (value: string): number => {
    if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be ${what}`);
    }
    return Number(value);
  };
}

const portNumber = integerIn(0, 65535, 'a port number (0 to 65535)');
const workerCount = integerIn(1, 256, 'a number of processes (1 to 256)');
const academyId = integerIn(0, 999_999_999, 'an academy id (an integer)');

/** The things `atrium seed` can be told how many of, with `--KIND N`. */
const SEED_KINDS = [
  ['employees', 'employees'],
  ['users', 'HR users'],
  ['documents', 'employee documents'],
  ['requests', 'requests (two comments each)'],
  ['articles', 'knowledge base articles'],
  ['processes', 'onboarding processes'],
] as const;
type SeedKind = (typeof SEED_KINDS)[number][0];
type SeedSize = 'small' | 'large';

function seedCount(kind: SeedKind) {
  return integerIn(0, 1_000_000, `a number of ${kind} (0 to 1,000,000)`);
}

const IMPORT_KINDS = ['employee', 'manager', 'organization'] as const;
type ImportKind = (typeof IMPORT_KINDS)[number];

function importType(value: string): ImportKind {
  if (!(IMPORT_KINDS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${IMPORT_KINDS.join(', ')}`);
  }
  return value as ImportKind;
}

/** `hr:<client_id>` or `academy:<acadId>`: the kind and the id, as the admin API's paths take them. */
function tenantAddress(value: string): [string, string] {
  const match = /^(hr|academy):(.+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be hr:<client_id> or academy:<acadId>');
  return [match[1] as string, match[2] as string];
}

function seedSize(value: string): SeedSize {
  if (value !== 'small' && value !== 'large') throw new InvalidArgumentError('must be small or large');
  return value;
}

const jobId = integerIn(1, 999_999_999, 'a job id (a positive integer)');

const JOB_STATUSES = ['pending', 'running', 'done', 'failed', 'cancelled'] as const;
type JobStatus = (typeof JOB_STATUSES)[number];

function jobStatus(value: string): JobStatus {
  if (!(JOB_STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${JOB_STATUSES.join(', ')}`);
  }
  return value as JobStatus;
}

function output(json: boolean, data: object, human: string): void {
  io().stdout.write(json ? `${JSON.stringify(data)}\n` : `${human}\n`);
}

/** Warnings go to standard error (also with --json, whose document carries them too). */
function warn(warnings: readonly string[]): void {
  for (const warning of warnings) io().stderr.write(`atrium: WARNING: ${warning}\n`);
}

/** The settings of this run; remembered for the failure line. */
function settings(overrides: Partial<Config> = {}): Config {
  const run = io();
  run.config = loadConfig(run.env, overrides);
  return run.config;
}

/** "using ./data/atrium.sqlite" or "using PostgreSQL at host:5432/db" on standard error, unless --json. */
async function announce(config: Config, json: boolean): Promise<void> {
  // The workers of `serve --workers N` run this program too: the primary has said it.
  if (json || cluster.isWorker) return;
  const { describeDatabase } = await import('../platform/db/database.js');
  io().stderr.write(`using ${describeDatabase(config)}\n`);
}

function cliLogger(): Promise<Logger> {
  const run = io();
  return import('../platform/logger.js').then(({ stderrLogger }) =>
    stderrLogger(run.env.LOG_LEVEL ?? 'warn', run.stderr === process.stderr ? undefined : run.stderr),
  );
}

/** Opens the database, migrates it, builds the services, runs `work`, closes. */
async function withServices<T>(json: boolean, work: (services: Services) => Promise<T>): Promise<T> {
  const config = settings();
  await announce(config, json);
  const [{ createServices }, { openDatabase }, { migrateToLatest }, log] = await Promise.all([
    import('../services.js'),
    import('../platform/db/database.js'),
    import('../platform/db/migrate.js'),
    cliLogger(),
  ]);
  const database = openDatabase(config);
  let services: Services | undefined;
  try {
    await migrateToLatest(database);
    services = await createServices(database, config, log);
    return await work(services);
  } finally {
    // A command that stored an upload (`seed`) has a PDF page counter's worker to stop.
    await services?.uploads.stop();
    await database.close();
  }
}

/** `atrium jobs …`: platform/jobs/ over the configured database (cli/jobs.ts). */
async function jobsCommand(json: boolean, request: JobsRequest): Promise<void> {
  const config = settings();
  await announce(config, json);
  const { runJobsCommand } = await import('./jobs.js');
  const { data, text } = await runJobsCommand(config, request);
  output(json, data, text);
}

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

const ENVIRONMENT = `
Every command reads the same settings as the server (ATRIUM_DATA_DIR, DATABASE_URL, ...; docs/configuration.md)
and says on standard error which database it uses. With --json, standard output carries only the JSON document.
Exit codes: 0 done, 1 failed, 2 usage error. --debug (or DEBUG=1) prints the stack trace of a failure.`;

/** One line per command in the parent's list: its name and its own usage (`create-client --name NAME [--json]`). */
function subcommandTerm(cmd: Command): string {
  return `${cmd.name()} ${cmd.usage()}`.trim();
}

function command(parent: Command, name: string, usage: string, description: string): Command {
  return parent
    .command(name)
    .usage(usage)
    .description(description)
    .helpOption('-h, --help', 'show this help')
    .allowExcessArguments(false);
}

export function buildProgram(): Command {
  const program = new Command('atrium')
    .description(
      'Atrium: a self-hostable server of the HR service delivery API (/api/v2/client) and the Academy events API (/v1).',
    )
    .usage('<command> [options]')
    .version(buildInfo().version, '-V, --version', 'print the version (also -v, atrium version)')
    .addOption(new Option('-v', 'print the version').hideHelp())
    .helpOption('-h, --help', 'show this help')
    // Help, version and usage text go to the run's streams (io.ts); subcommands inherit this.
    .configureOutput({ writeOut: (text) => io().stdout.write(text), writeErr: (text) => io().stderr.write(text) })
    .option('--debug', 'print the stack trace of a failure (or set DEBUG=1)')
    .helpCommand(false)
    .allowExcessArguments(false)
    .showSuggestionAfterError(true)
    .configureHelp({ subcommandTerm })
    .addHelpText(
      'after',
      `${ENVIRONMENT}\n${examples('atrium serve --port 8080', 'atrium hr create-client --name Acme --json', 'atrium hr create-application --help')}`,
    );

  command(
    program,
    'serve',
    '[--port N] [--host H] [--workers N] [--admin-port N]',
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
    .addHelpText(
      'after',
      examples(
        'atrium serve',
        'atrium serve --port 9000 --host 0.0.0.0',
        'DATABASE_URL=postgres://atrium@db/atrium atrium serve --workers 4',
      ),
    )
    .action(async (options: { port?: number; host?: string; workers?: number; adminPort?: number }) => {
      const overrides: Partial<Config> = {};
      if (options.adminPort !== undefined) overrides.adminPort = options.adminPort;
      if (options.port !== undefined) overrides.port = options.port;
      if (options.host !== undefined) overrides.host = options.host;
      if (options.workers !== undefined) overrides.workers = options.workers;
      const config = settings(overrides);
      await announce(config, false);
      const { serve } = await import('./serve.js');
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
        import('../platform/db/database.js'),
        import('../platform/db/migrate.js'),
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
      const { doctor, formatDoctor } = await import('./doctor.js');
      const report = await doctor(config);
      output(json, report, formatDoctor(report));
      if (!report.ok) io().exitCode = 1;
    });

  const seedCommand = command(
    program,
    'seed',
    '[--size small|large] [--employees N] [--requests N] … [--json]',
    'fill demo tenants of both APIs and print fresh credentials',
  )
    .option(
      '--size <SIZE>',
      'small (100 employees, 50 requests …) or large (10,000 employees, 50,000 requests …)',
      seedSize,
      'small',
    )
    .option('--json', 'print {"hr": {...}, "academy": {...}, "summary": {...}}');
  for (const [kind, what] of SEED_KINDS) {
    seedCommand.option(
      `--${kind} <N>`,
      `how many ${what} to make, 0 to 1,000,000 (instead of --size's)`,
      seedCount(kind),
    );
  }
  seedCommand
    .addHelpText(
      'after',
      `${examples('atrium seed --json', 'atrium seed --size large', 'atrium seed --employees 50000 --requests 0')}
A progress bar is drawn on standard error when it is a terminal (never with --json). What each size makes, and
what a second run does: docs/cli.md.
`,
    )
    .action(async (options: { size: SeedSize; json?: boolean } & Partial<Record<SeedKind, number>>) => {
      const json = options.json === true;
      const [{ seed, SEED_SIZES }, { progressBar }] = await Promise.all([import('./seed.js'), import('./progress.js')]);
      const counts = { ...SEED_SIZES[options.size] };
      for (const [kind] of SEED_KINDS) counts[kind] = options[kind] ?? counts[kind];
      const progress = progressBar(json);
      const result = await withServices(json, (services) =>
        seed(services, { ...counts, ...(progress ? { progress } : {}) }),
      );
      const made = Object.entries(result.summary)
        .map(([kind, n]) => countOf(n, kind))
        .join(', ');
      output(
        json,
        result,
        `made or updated (HR): ${made}; and the demo academy\n${JSON.stringify({ hr: result.hr, academy: result.academy }, null, 2)}`,
      );
    });

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
      const { backup, backupWarnings, formatBackup } = await import('./backup.js');
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
      const { restore, formatRestore } = await import('./backup.js');
      const result = await restore(config, options.from, { force: options.force === true });
      output(json, result, formatRestore(result));
      warn(result.warnings);
    });

  const hr = command(
    program,
    'hr',
    '<command> [options]',
    'HR API tenants: clients, applications, signing keys, imports',
  )
    .helpCommand(false)
    .addHelpText('after', examples('atrium hr create-client --name Acme', 'atrium hr create-application --help'));

  command(hr, 'create-client', '--name NAME [--json]', 'create an HR client (tenant) and print its id')
    .requiredOption('--name <NAME>', "the client's name", nonEmpty)
    .option('--json', 'print {"client_id"}')
    .addHelpText(
      'after',
      examples('atrium hr create-client --name "Acme"', 'atrium hr create-client --name "Acme" --json'),
    )
    .action(async (options: { name: string; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) => services.tenants.createClient(options.name));
      output(json, result, `client_id: ${result.client_id}`);
    });

  command(
    hr,
    'create-application',
    '--client-id ID --name NAME [--read-only] [--json]',
    'create an application of a client; its secret is shown only now',
  )
    .requiredOption('--client-id <ID>', 'the client (from create-client)', nonEmpty)
    .requiredOption('--name <NAME>', "the application's name", nonEmpty)
    .option('--read-only', 'may call GET, HEAD and the POST searches only (anything else: 403 insufficient_scope)')
    .option('--json', 'print {"client_id", "application_id", "application_secret"}')
    .addHelpText(
      'after',
      examples(
        'atrium hr create-application --client-id "$CLIENT_ID" --name "HRIS sync" --json',
        'atrium hr create-application --client-id "$CLIENT_ID" --name "BI" --read-only',
      ),
    )
    .action(async (options: { clientId: string; name: string; readOnly?: boolean; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) =>
        services.tenants.createApplication(options.clientId, options.name, options.readOnly === true),
      );
      output(
        json,
        result,
        `client_id: ${result.client_id}\napplication_id: ${result.application_id}\napplication_secret: ${result.application_secret}\n(the secret is shown only now)`,
      );
    });

  command(
    hr,
    'revoke-application',
    '--application-id ID [--json]',
    'revoke an application and its tokens (every server process within a second)',
  )
    .requiredOption('--application-id <ID>', 'the application to revoke', nonEmpty)
    .option('--json', 'print {"application_id", "revoked": true}')
    .addHelpText('after', examples('atrium hr revoke-application --application-id "$APP_ID"'))
    .action(async (options: { applicationId: string; json?: boolean }) => {
      const json = options.json === true;
      const id = options.applicationId;
      await withServices(json, (services) => services.tenants.revokeApplication(id));
      output(json, { application_id: id, revoked: true }, `revoked application ${id}`);
    });

  command(
    hr,
    'outbox',
    '--client-id ID [--kind K] [--related-id ID] [--limit N] [--json]',
    'the mails Atrium would have sent for a client (it sends none), newest first',
  )
    .requiredOption('--client-id <ID>', 'the client', nonEmpty)
    .option(
      '--kind <KIND>',
      'only mails of this kind (signature.invitation, inbox.notification, user.invitation, …)',
      textUpTo(60),
    )
    .option(
      '--related-id <ID>',
      'only mails about this object (a signature process, an inbox item, a user)',
      textUpTo(64),
    )
    .option('--limit <N>', 'at most N mails (default 20, at most 1000)', integerIn(1, 1000, 'from 1 to 1000'))
    .option('--json', 'print {"mails": [{id, kind, to_address, to_name, subject, body, related_id, created_at}]}')
    .addHelpText(
      'after',
      examples(
        'atrium hr outbox --client-id "$CLIENT_ID"',
        'atrium hr outbox --client-id "$CLIENT_ID" --kind user.invitation --json',
      ),
    )
    .action(
      async (options: { clientId: string; kind?: string; relatedId?: string; limit?: number; json?: boolean }) => {
        const json = options.json === true;
        const page = await withServices(json, async (services) => {
          await services.tenants.requireClient(options.clientId);
          return services.outbox.list(
            options.clientId,
            { kind: options.kind, relatedId: options.relatedId },
            { limit: options.limit ?? 20, sort: [], at: {} },
          );
        });
        const mails = page.items.map((m) => ({
          id: m.id,
          kind: m.kind,
          to_address: m.toAddress,
          to_name: m.toName,
          subject: m.subject,
          body: m.body,
          related_id: m.relatedId,
          created_at: new Date(m.createdAt).toISOString(),
        }));
        const text =
          mails.length === 0
            ? 'no mail'
            : mails
                .map(
                  (m) =>
                    `${m.created_at}  ${m.kind}  to ${m.to_name} <${m.to_address ?? 'no address'}>\n  ${m.subject}`,
                )
                .join('\n');
        output(json, { mails }, text);
      },
    );

  command(
    hr,
    'rotate-signing-key',
    '[--revoke-previous] [--json]',
    'sign new tokens with a new key; the previous key verifies its tokens until they expire',
  )
    .option('--revoke-previous', 'refuse tokens of the older keys at once (a leaked key)')
    .option('--json', 'print {"kid", "previousKeysRevoked"}')
    .addHelpText(
      'after',
      examples('atrium hr rotate-signing-key', 'atrium hr rotate-signing-key --revoke-previous --json'),
    )
    .action(async (options: { revokePrevious?: boolean; json?: boolean }) => {
      const json = options.json === true;
      const revokePrevious = options.revokePrevious === true;
      const kid = await withServices(json, (services) => services.auth.rotateSigningKey({ revokePrevious }));
      output(
        json,
        { kid, previousKeysRevoked: revokePrevious },
        revokePrevious
          ? `now signing with key ${kid}; tokens signed with the previous keys are refused from now on`
          : `now signing with key ${kid}; the previous key verifies its tokens until they expire`,
      );
    });

  command(
    hr,
    'import',
    '--client-id ID --type employee|manager|organization FILE [--json]',
    'import a CSV file into a client, as POST /imports does, and wait for its end',
  )
    .argument('<FILE>', 'the CSV file (layout: docs/hr-api.md, "Imports")')
    .requiredOption('--client-id <ID>', 'the HR client to import into', nonEmpty)
    .requiredOption('--type <TYPE>', 'employee, manager or organization', importType)
    .option('--json', 'print the import as GET /imports/{id} shows it')
    .addHelpText(
      'after',
      `${examples('atrium hr import --client-id 0b6e… --type employee employees.csv', 'atrium hr import --client-id 0b6e… --type organization orgs.csv --json')}
Draws a progress bar on a terminal (never with --json). Exits 1 unless every row was applied (partial_success,
failed); the failed rows are in the import's errors_report. Runs background jobs while it waits (a running server
may run the import instead: either way, once).
`,
    )
    .action(async (file: string, options: { clientId: string; type: ImportKind; json?: boolean }) => {
      const json = options.json === true;
      const [{ hrImport, formatHrImport }, { progressBar }] = await Promise.all([
        import('./hr-import.js'),
        import('./progress.js'),
      ]);
      const progress = progressBar(json);
      const result = await withServices(json, (services) =>
        hrImport(services, { clientId: options.clientId, type: options.type, file, progress }),
      );
      output(json, result, formatHrImport(result));
      if (result.status !== 'success') io().exitCode = 1;
    });

  command(
    program,
    'report',
    '--tenant hr:ID|academy:ID [--since D] [--until D] [--json]',
    "a tenant's integration report",
  )
    .requiredOption('--tenant <TENANT>', 'hr:<client_id> or academy:<acadId>', tenantAddress)
    .option('--since <DATETIME>', 'from this instant (default: 24 hours before --until)', nonEmpty)
    .option('--until <DATETIME>', 'up to this instant (default: now)', nonEmpty)
    .option('--json', 'print the report as GET /admin/v1/tenants/{kind}/{id}/report answers it')
    .addHelpText(
      'after',
      `${examples('atrium report --tenant hr:0b6e…', 'atrium report --tenant academy:12 --since 2026-11-01T00:00:00Z > report.md')}
From the tenant's request log (docs/admin.md, "Report"): each operation called, with counts, error rate and
latency, then what would not work on the real service (Atrium extensions, deprecated operations, parameters the
real API does not take). Markdown, unless --json.
`,
    )
    .action(async (options: { tenant: [string, string]; since?: string; until?: string; json?: boolean }) => {
      const json = options.json === true;
      const [{ presentReport, reportMarkdown }, { reportRange }] = await Promise.all([
        import('../admin/report/presenter.js'),
        import('../admin/report/service.js'),
      ]);
      const report = await withServices(json, async (services) => {
        const tenant = await services.adminTenants.resolve(...options.tenant);
        const range = reportRange({ since: options.since, until: options.until }, services.clock.wall());
        return presentReport(await services.reports.report(tenant, range.since, range.until));
      });
      io().stdout.write(json ? `${JSON.stringify(report)}\n` : reportMarkdown(report));
    });

  const admin = command(program, 'admin', '<command> [options]', 'operators of the admin API: tokens, audit log')
    .helpCommand(false)
    .addHelpText('after', examples('atrium admin create-token --name ci --json', 'atrium admin list-tokens'));

  command(admin, 'create-token', '--name NAME [--json]', 'create an operator token and print it, once')
    .requiredOption('--name <NAME>', "the token's name (who or what uses it), up to 255 characters", textUpTo(255))
    .option('--json', 'print {"token_id", "name", "created_at", "revoked_at", "token"}')
    .addHelpText(
      'after',
      `${examples('atrium admin create-token --name "CI pipeline" --json')}
The token is printed only now; Atrium keeps its SHA-256 only (docs/admin.md).
`,
    )
    .action(async (options: { name: string; json?: boolean }) => {
      const json = options.json === true;
      const made = await withServices(json, (services) => services.adminTokens.create(options.name, 'cli'));
      output(json, made, `admin token ${made.token_id} (${made.name}); shown only now:\n${made.token}`);
    });

  command(admin, 'revoke-token', '--id ID [--json]', 'revoke an operator token: refused from its next use on')
    .requiredOption('--id <ID>', "the token's id (from create-token or list-tokens)", nonEmpty)
    .option('--json', 'print {"token_id", "name", "created_at", "revoked_at"}')
    .addHelpText('after', examples('atrium admin revoke-token --id 6f1c…'))
    .action(async (options: { id: string; json?: boolean }) => {
      const json = options.json === true;
      const token = await withServices(json, (services) => services.adminTokens.revoke(options.id, 'cli'));
      output(json, token, `admin token ${token.token_id} (${token.name}) revoked at ${token.revoked_at}`);
    });

  command(admin, 'list-tokens', '[--json]', 'every operator token, revoked ones too; never a token')
    .option('--json', 'print {"tokens": [{"token_id", "name", "created_at", "revoked_at"}]}')
    .addHelpText('after', examples('atrium admin list-tokens --json'))
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      const tokens = await withServices(json, (services) => services.adminTokens.list());
      const lines = [`admin tokens: ${tokens.length}`];
      for (const t of tokens) {
        lines.push(
          `  ${t.token_id}  ${t.name}  (created ${t.created_at}${t.revoked_at ? `; revoked ${t.revoked_at}` : ''})`,
        );
      }
      output(json, { tokens }, lines.join('\n'));
    });

  command(admin, 'audit-log', '[--limit N] [--json]', 'the latest admin actions, newest first')
    .option(
      '--limit <N>',
      'how many, 1 to 1,000 (default 50)',
      integerIn(1, 1000, 'a number of actions (1 to 1,000)'),
      50,
    )
    .option('--json', 'print {"actions": [{"seq", "at", "actor", "action", "target", "detail"}]}')
    .addHelpText('after', examples('atrium admin audit-log --limit 10'))
    .action(async (options: { limit: number; json?: boolean }) => {
      const json = options.json === true;
      const actions = await withServices(json, (services) => services.adminAudit.list(options.limit));
      const lines = actions.map((a) => `${a.at}  ${a.actor}  ${a.action}${a.target ? `  ${a.target}` : ''}`);
      output(json, { actions }, lines.length ? lines.join('\n') : 'no admin actions yet');
    });

  const tenants = command(program, 'tenants', '<command> [options]', 'every tenant of both APIs')
    .helpCommand(false)
    .addHelpText('after', examples('atrium tenants list', 'atrium tenants list --json'));

  command(tenants, 'list', '[--json]', 'HR clients with their applications, academies with their key ids; no secrets')
    .option('--json', 'print {"hr": [{client_id, name, created_at, applications}], "academy": [{acadId, name, …}]}')
    .addHelpText('after', examples('atrium tenants list', 'atrium tenants list --json | jq ".hr[].client_id"'))
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      const listed = await withServices(json, async (services) => ({
        hr: await services.tenants.list(),
        academy: await services.academies.list(),
      }));
      const lines = [`HR clients: ${listed.hr.length}`];
      for (const c of listed.hr) {
        lines.push(`  ${c.client_id}  ${c.name}  (created ${c.created_at})`);
        for (const a of c.applications) {
          const flags = [a.read_only ? 'read-only' : '', a.revoked_at ? `revoked ${a.revoked_at}` : '']
            .filter(Boolean)
            .join(', ');
          lines.push(
            `    application ${a.application_id}  ${a.name}  (created ${a.created_at}${flags ? `; ${flags}` : ''})`,
          );
        }
      }
      lines.push(`Academies: ${listed.academy.length}`);
      for (const a of listed.academy) {
        lines.push(`  acadId ${a.acadId}  ${a.name}  (created ${a.created_at})`);
        for (const k of a.keys) {
          const until = k.expires_at ? `, until ${k.expires_at}` : '';
          lines.push(`    key ${k.key_id}  ${k.state}  (created ${k.created_at}${until})`);
        }
      }
      output(json, listed, lines.join('\n'));
    });

  const jobs = command(program, 'jobs', '<command> [options]', 'durable background jobs (docs/SCALING.md)')
    .helpCommand(false)
    .addHelpText('after', examples('atrium jobs list --status failed', 'atrium jobs retry 42'));

  command(
    jobs,
    'list',
    '[--queue Q] [--tenant T] [--status S] [--before ID] [--limit N] [--json]',
    'jobs, newest first',
  )
    .option('--queue <Q>', 'only this queue (webhook.delivery, …)', nonEmpty)
    .option('--tenant <T>', 'only this client or academy', nonEmpty)
    .option('--status <S>', 'only this status: pending, running, done, failed or cancelled', jobStatus)
    .option('--before <ID>', 'only jobs older than this id (the next page)', jobId)
    .option('--limit <N>', 'at most N jobs (default 50, at most 1000)', integerIn(1, 1000, 'from 1 to 1000'))
    .option('--json', 'print {"jobs": [{id, queue, tenant, status, attempts, run_at, last_error, …}]}')
    .addHelpText(
      'after',
      examples('atrium jobs list', 'atrium jobs list --status failed --queue webhook.delivery --json'),
    )
    .action(
      async (options: {
        queue?: string;
        tenant?: string;
        status?: JobStatus;
        before?: number;
        limit?: number;
        json?: boolean;
      }) => {
        const json = options.json === true;
        const filter = {
          ...(options.queue === undefined ? {} : { queue: options.queue }),
          ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
          ...(options.status === undefined ? {} : { status: options.status }),
          ...(options.before === undefined ? {} : { beforeId: options.before }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        };
        await jobsCommand(json, { command: 'list', filter });
      },
    );

  const one = [
    ['show', 'one job, with its payload'],
    ['retry', 'make a failed or cancelled job pending again, due now (one more attempt)'],
    ['cancel', 'cancel a pending or running job'],
  ] as const;
  for (const [name, description] of one) {
    command(jobs, name, '<id> [--json]', description)
      .argument('<id>', 'the job id', jobId)
      .option('--json', 'print {"job": {id, queue, status, attempts, …}}')
      .addHelpText('after', examples(`atrium jobs ${name} 42`))
      .action(async (id: number, options: { json?: boolean }) => {
        await jobsCommand(options.json === true, { command: name, id });
      });
  }

  const academy = command(program, 'academy', '<command> [options]', 'Academy API tenants: academies, keys, directory')
    .helpCommand(false)
    .addHelpText('after', examples('atrium academy create --name "Demo academy"', 'atrium academy import --help'));

  command(academy, 'create', '--name NAME [--json]', 'create an academy; its API key is shown only now')
    .requiredOption('--name <NAME>', "the academy's name", nonEmpty)
    .option('--json', 'print {"acadId", "apikey", "superAdminId"}')
    .addHelpText('after', examples('atrium academy create --name "Demo academy" --json'))
    .action(async (options: { name: string; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) => services.academies.create(options.name));
      output(
        json,
        result,
        `acadId: ${result.acadId}\napikey: ${result.apikey}\nsuperAdminId: ${result.superAdminId}\n(the key is shown only now)`,
      );
    });

  command(
    academy,
    'rotate-key',
    '--acad-id N [--json]',
    'give an academy a new API key; the previous keys work for ATRIUM_KEY_GRACE_SECONDS more',
  )
    .requiredOption('--acad-id <N>', 'the academy', academyId)
    .option('--json', 'print {"acadId", "apikey", "previousKeysExpireAt"}')
    .addHelpText('after', examples('atrium academy rotate-key --acad-id 1 --json'))
    .action(async (options: { acadId: number; json?: boolean }) => {
      const json = options.json === true;
      const result = await withServices(json, (services) => services.academies.rotateKey(options.acadId));
      output(
        json,
        result,
        `acadId: ${result.acadId}\napikey: ${result.apikey}\nprevious keys stop working at ${result.previousKeysExpireAt}`,
      );
    });

  command(
    academy,
    'import',
    '--acad-id N --file PATH [--json]',
    'upsert users, categories, courses, curriculums and venues from a JSON file (docs/academy-directory.md)',
  )
    .requiredOption('--acad-id <N>', 'the academy', academyId)
    .requiredOption('--file <PATH>', 'the directory file (JSON)', nonEmpty)
    .option('--json', 'print {"acadId", "imported": {"users", "categories", "courses", "curriculums", "venues"}}')
    .addHelpText('after', examples('atrium academy import --acad-id 1 --file directory.json'))
    .action(async (options: { acadId: number; file: string; json?: boolean }) => {
      const json = options.json === true;
      const { readFile } = await import('node:fs/promises');
      let text: string;
      try {
        text = await readFile(options.file, 'utf8');
      } catch (err) {
        throw new CliError(`cannot read ${options.file}: ${(err as Error).message}`);
      }
      const { acadId } = options;
      const imported = await withServices(json, (services) => services.directory.importText(acadId, text));
      output(
        json,
        { acadId, imported },
        `academy ${acadId}: imported ${Object.entries(imported)
          .map(([section, n]) => countOf(n, section))
          .join(', ')}`,
      );
    });

  // `atrium -v` is `atrium -V`: commander prints the version on its own option's event.
  // (Command is an EventEmitter; its typings declare only `on`.)
  program.on('option:v', () => (program as unknown as EventEmitter).emit('option:version'));

  command(program, 'help', '[COMMAND...]', 'show this help, or the help of a command')
    .argument('[command...]', 'a command, as typed after atrium')
    .addHelpText('after', examples('atrium help', 'atrium help hr create-client'))
    .action((words: string[]) => {
      let cmd: Command = program;
      for (const [i, word] of words.entries()) {
        const sub = cmd.commands.find((c) => c.name() === word);
        if (!sub) {
          const typed = words.slice(0, i + 1).join(' ');
          throw new CliError(`unknown command '${typed}' (see atrium --help)`, 2);
        }
        cmd = sub;
      }
      cmd.outputHelp();
    });

  command(program, 'version', '', 'print the version (as --version)')
    .addHelpText('after', examples('atrium version'))
    .action(() => {
      io().stdout.write(`${buildInfo().version}\n`);
    });

  return program;
}
