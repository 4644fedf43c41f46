import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../platform/config.js';

/** Where a command writes (standard output and error, or a test's buffers). */
export interface CliOutput {
  write(text: string): unknown;
  /** A terminal: progress bars are drawn on it. */
  isTTY?: boolean;
}

/**
 * What one run of the command line reads and writes: its streams, its environment, its exit code (set by a command
 * that ends without throwing, such as `doctor` finding a problem), and the settings it works with (for the failure
 * line). The process has one; `runCli` (run.ts) gives each in-process run its own, so that tests run many commands
 * in one process.
 */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  env: NodeJS.ProcessEnv;
  exitCode: number;
  config?: Config;
}

const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  get exitCode() {
    return Number(process.exitCode ?? 0);
  },
  set exitCode(code: number) {
    process.exitCode = code;
  },
};

const storage = new AsyncLocalStorage<CliIo>();

/** The streams and environment of the run in progress: the process's own unless `withIo` gave others. */
export function io(): CliIo {
  return storage.getStore() ?? processIo;
}

export function withIo<T>(context: CliIo, work: () => Promise<T>): Promise<T> {
  return storage.run(context, work);
}
