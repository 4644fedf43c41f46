/**
 * The `atrium` command line: every command, its options, its help and its examples, declared with commander.
 * The program itself (its help, version and environment text) is here; each group of commands is declared by a
 * module of commands/, in the order the help lists them. The work of each command is imported when it runs, so
 * `--help`, `--version` and usage errors answer at once, without loading the server.
 */
import type { EventEmitter } from 'node:events';
import { Command, Option } from 'commander';
import { buildInfo } from '../platform/build-info.js';
import { addAcademyCommands } from './commands/academy.js';
import { addAdminCommands } from './commands/admin.js';
import { addBackupCommands } from './commands/backup.js';
import { addHelpCommands } from './commands/help.js';
import { addHrCommands } from './commands/hr.js';
import { addJobsCommands } from './commands/jobs.js';
import { addProxyCommands } from './commands/proxy.js';
import { addReplayCommand } from './commands/replay.js';
import { addReportCommand } from './commands/report.js';
import { addSeedCommand } from './commands/seed.js';
import { addServerCommands } from './commands/server.js';
import { examples } from './commands/shared.js';
import { addTenantsCommands } from './commands/tenants.js';
import { addTriggerCommand } from './commands/trigger.js';
import { io } from './io.js';

const ENVIRONMENT = `
Every command reads the same settings as the server (ATRIUM_DATA_DIR, DATABASE_URL, ...; docs/configuration.md)
and says on standard error which database it uses. With --json, standard output carries only the JSON document.
Exit codes: 0 done, 1 failed, 2 usage error. --debug (or DEBUG=1) prints the stack trace of a failure.`;

/** One line per command in the parent's list: its name and its own usage (`create-client --name NAME [--json]`). */
function subcommandTerm(cmd: Command): string {
  return `${cmd.name()} ${cmd.usage()}`.trim();
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

  addServerCommands(program);
  addSeedCommand(program);
  addBackupCommands(program);
  addHrCommands(program);
  addReportCommand(program);
  addReplayCommand(program);
  addTriggerCommand(program);
  addAdminCommands(program);
  addTenantsCommands(program);
  addJobsCommands(program);
  addAcademyCommands(program);
  addProxyCommands(program);

  // `atrium -v` is `atrium -V`: commander prints the version on its own option's event.
  // (Command is an EventEmitter; its typings declare only `on`.)
  program.on('option:v', () => (program as unknown as EventEmitter).emit('option:version'));

  addHelpCommands(program);

  return program;
}
