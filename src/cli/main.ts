#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=40
import cluster from 'node:cluster';
import { debugging, failureCode, failureLine, failureText, runCommand } from './run.js';

// A reader that stops early (`atrium --help | head`) closes the pipe: that ends the command quietly, not with a stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const argv = process.argv.slice(2);
runCommand(argv).catch((error: unknown) => {
  if (cluster.isWorker && process.send) {
    // A worker of `serve --workers N`: the primary prints the line, once, and stops the others.
    if (debugging(argv) && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.send({ atriumFailure: failureLine(error).line }, () => process.exit(1));
    return;
  }
  process.stderr.write(failureText(error, argv));
  process.exit(failureCode(error));
});
