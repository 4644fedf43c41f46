#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=40
import cluster from 'node:cluster';
import { CommanderError } from 'commander';
import { CliError, describeFailure } from './failure.js';
import { buildProgram, current } from './program.js';

// A reader that stops early (`atrium --help | head`) closes the pipe: that ends the command quietly, not with a stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

/** `--debug` anywhere before `--`, or `DEBUG` set to anything but empty, 0 or false: failures print their stack. */
function debugging(argv: string[]): boolean {
  const end = argv.indexOf('--');
  if ((end === -1 ? argv : argv.slice(0, end)).includes('--debug')) return true;
  const env = process.env.DEBUG?.trim().toLowerCase();
  return env !== undefined && env !== '' && env !== '0' && env !== 'false';
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

async function main(argv: string[]): Promise<void> {
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
      process.exitCode = 2;
      return;
    }
    throw new CliError(usageLine(error, argv), 2);
  }
}

function* walk(cmd: ReturnType<typeof buildProgram>): Generator<ReturnType<typeof buildProgram>> {
  yield cmd;
  for (const sub of cmd.commands) yield* walk(sub);
}

const argv = process.argv.slice(2);
main(argv).catch((error: unknown) => {
  const { line, expected } = describeFailure(error, {
    ...(current.config
      ? {
          port: current.config.port,
          host: current.config.host,
          dataDir: current.config.dataDir,
          databaseUrl: current.config.databaseUrl,
        }
      : {}),
  });
  if (cluster.isWorker && process.send) {
    // A worker of `serve --workers N`: the primary prints the line, once, and stops the others.
    if (debugging(argv) && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.send({ atriumFailure: line }, () => process.exit(1));
    return;
  }
  const debug = debugging(argv);
  process.stderr.write(`atrium: ${line}${expected || debug ? '' : ' (--debug or DEBUG=1 prints the stack trace)'}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(error instanceof CliError ? error.exitCode : 1);
});
