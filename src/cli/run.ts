/**
 * Runs one `atrium` command line: main.ts for the process, and `runCli` for tests, which run many commands in one
 * process, each with its own streams and environment (io.ts).
 */
import { CommanderError } from 'commander';
import { CliError, describeFailure } from './failure.js';
import { type CliIo, io, withIo } from './io.js';
import { buildProgram } from './program.js';

/** `--debug` anywhere before `--`, or `DEBUG` set to anything but empty, 0 or false: failures print their stack. */
export function debugging(argv: string[], env: NodeJS.ProcessEnv = io().env): boolean {
  const end = argv.indexOf('--');
  if ((end === -1 ? argv : argv.slice(0, end)).includes('--debug')) return true;
  const value = env.DEBUG?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** A usage error from commander as one line: `atrium: unknown option '--nope' (see atrium migrate --help)`. */
function usageLine(error: CommanderError, argv: string[]): string {
  const message = error.message
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean (.*)\?\)$/, ' (did you mean $1?)')
    .replace(/ is invalid\. /, ' is invalid: ')
    .replace(/\s*\n\s*/g, ' ');
  const words: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  const known = buildProgram();
  let cmd = known;
  const path: string[] = [];
  for (const word of words) {
    const sub = cmd.commands.find((c) => c.name() === word);
    if (!sub) break;
    cmd = sub;
    path.push(word);
  }
  return `${message} (see atrium ${[...path, '--help'].join(' ')})`;
}

function* walk(cmd: ReturnType<typeof buildProgram>): Generator<ReturnType<typeof buildProgram>> {
  yield cmd;
  for (const sub of cmd.commands) yield* walk(sub);
}

/** Parses `argv` and runs its command; a usage error is thrown as a CliError of exit code 2. */
export async function runCommand(argv: string[]): Promise<void> {
  const program = buildProgram();
  // Usage errors are reported here, as one line; help and version print as commander prints them.
  program.exitOverride();
  for (const cmd of walk(program)) {
    cmd.exitOverride();
    cmd.configureOutput({ outputError: () => {} });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return;
    // `atrium` or `atrium hr` alone: the help was printed (on standard error); that is not a success.
    if (error.code === 'commander.help') {
      io().exitCode = 2;
      return;
    }
    throw new CliError(usageLine(error, argv), 2);
  }
}

/** The one line a failure prints, as `atrium: …`, and whether it is one the user can act on without a stack. */
export function failureLine(error: unknown): { line: string; expected: boolean } {
  const config = io().config;
  return describeFailure(error, {
    ...(config
      ? { port: config.port, host: config.host, dataDir: config.dataDir, databaseUrl: config.databaseUrl }
      : {}),
  });
}

/** What a failure writes on standard error: its line, and its stack under --debug. */
export function failureText(error: unknown, argv: string[]): string {
  const { line, expected } = failureLine(error);
  const debug = debugging(argv);
  let text = `atrium: ${line}${expected || debug ? '' : ' (--debug or DEBUG=1 prints the stack trace)'}\n`;
  if (debug && error instanceof Error && error.stack) text += `${error.stack}\n`;
  return text;
}

/** The exit code of a failure: a CliError's own, else 1. */
export function failureCode(error: unknown): number {
  return error instanceof CliError ? error.exitCode : 1;
}

/**
 * Runs `atrium …argv` in this process, with these streams and this environment, and returns its exit code, as
 * the `atrium` process would exit (`serve` is not meant for it: it listens until the process ends).
 */
export function runCli(argv: string[], context: Pick<CliIo, 'stdout' | 'stderr' | 'env'>): Promise<number> {
  const run: CliIo = { ...context, exitCode: 0 };
  return withIo(run, async () => {
    try {
      await runCommand(argv);
      return run.exitCode;
    } catch (error) {
      run.stderr.write(failureText(error, argv));
      return failureCode(error);
    }
  });
}
