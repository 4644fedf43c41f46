/**
 * What every command module of the `atrium` program shares: the option parsers, the output and warning lines, the
 * settings of a run, the database announcement, the services of a command, and the declaration of one command
 * with its help option and examples.
 */
import cluster from 'node:cluster';
import { type Command, InvalidArgumentError } from 'commander';
import type { Logger } from 'pino';
import { type Config, loadConfig } from '../../platform/config.js';
import type { Services } from '../../services.js';
import { io } from '../io.js';

export function nonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return value;
}

/** A non-empty value of at most `max` characters (the column that stores it). */
export function textUpTo(max: number) {
  return (value: string): string => {
    nonEmpty(value);
    if (value.length > max) throw new InvalidArgumentError(`must be at most ${max} characters`);
    return value;
  };
}

export function integerIn(min: number, max: number, what: string) {
  return (value: string): number => {
    if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`must be ${what}`);
    }
    return Number(value);
  };
}

export function output(json: boolean, data: object, human: string): void {
  io().stdout.write(json ? `${JSON.stringify(data)}\n` : `${human}\n`);
}

/** Warnings go to standard error (also with --json, whose document carries them too). */
export function warn(warnings: readonly string[]): void {
  for (const warning of warnings) io().stderr.write(`atrium: WARNING: ${warning}\n`);
}

/** The settings of this run; remembered for the failure line. */
export function settings(overrides: Partial<Config> = {}): Config {
  const run = io();
  run.config = loadConfig(run.env, overrides);
  return run.config;
}

/** "using ./data/atrium.sqlite" or "using PostgreSQL at host:5432/db" on standard error, unless --json. */
export async function announce(config: Config, json: boolean): Promise<void> {
  // The workers of `serve --workers N` run this program too: the primary has said it.
  if (json || cluster.isWorker) return;
  const { describeDatabase } = await import('../../platform/db/database.js');
  io().stderr.write(`using ${describeDatabase(config)}\n`);
}

export function cliLogger(): Promise<Logger> {
  const run = io();
  return import('../../platform/logger.js').then(({ stderrLogger }) =>
    stderrLogger(run.env.LOG_LEVEL ?? 'warn', run.stderr === process.stderr ? undefined : run.stderr),
  );
}

/** Opens the database, migrates it, builds the services, runs `work`, closes. */
export async function withServices<T>(json: boolean, work: (services: Services) => Promise<T>): Promise<T> {
  const config = settings();
  await announce(config, json);
  const [{ createServices }, { openDatabase }, { migrateToLatest }, log] = await Promise.all([
    import('../../services.js'),
    import('../../platform/db/database.js'),
    import('../../platform/db/migrate.js'),
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

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

export function command(parent: Command, name: string, usage: string, description: string): Command {
  return parent
    .command(name)
    .usage(usage)
    .description(description)
    .helpOption('-h, --help', 'show this help')
    .allowExcessArguments(false);
}
