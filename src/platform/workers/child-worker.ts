import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * A bounded worker run as a child process instead of a thread (bounded-worker.ts, `isolation: 'process'`): what the
 * worker allocates outside V8's heap (a native canvas, image decoders) is then the child's memory, not the
 * server's, and all of it goes back to the system when the child ends. Its resident memory is bounded: the child
 * checks its peak after each task, and on Linux the server reads the child's resident size while a task runs; past
 * `rssLimitMb` the task has no answer and the child is replaced. A child that answered but stays large (past
 * `recycleRssMb`: a big image decoded leaves the allocator holding memory it does not give back) says so with its
 * answer and is replaced then, so the memory goes back to the system at once rather than when the child has been
 * idle long enough.
 */

/** How often the server reads the child's resident size while a task runs (Linux: /proc/<pid>/status). */
const RSS_SAMPLE_MS = 50;
/** The message a child sends instead of an answer when its peak resident memory passed the limit. */
export const RECYCLE = 'atriumWorkerRecycle';
/** The key of an answer wrapped by a child that stays large once it has answered: the server replaces it. */
export const RETIRE = 'atriumWorkerRetire';

/** What the child is given on its command line. */
export interface ChildData {
  data: unknown;
  rssLimitBytes: number;
  /** Past this resident size once it has answered, the child ends itself (the next task starts a fresh one). */
  recycleBytes: number;
}

/** The child's resident size in bytes, read by the server, or undefined where /proc is not there. */
async function residentBytes(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * The server's side of a worker child process, shaped as a worker thread is for BoundedWorker: `postMessage`,
 * `message` / `error` / `exit` events, `terminate`, `unref`. Messages are copied (structured clone), not moved.
 */
export class ChildWorker extends EventEmitter {
  private readonly child: ChildProcess;
  private sampler: NodeJS.Timeout | undefined;
  private readonly limitBytes: number;
  /** Set when the child's last answer said it stays large: BoundedWorker gives it no further task. */
  retiring = false;

  constructor(
    file: URL,
    options: { heapMb: number; rssLimitMb: number; recycleRssMb: number; data: unknown; tsx?: string },
  ) {
    super();
    this.limitBytes = options.rssLimitMb * 1024 * 1024;
    const childData: ChildData = {
      data: options.data,
      rssLimitBytes: this.limitBytes,
      recycleBytes: Math.min(options.recycleRssMb, options.rssLimitMb) * 1024 * 1024,
    };
    this.child = fork(fileURLToPath(file), [JSON.stringify(childData)], {
      execArgv: [`--max-old-space-size=${options.heapMb}`, ...(options.tsx ? ['--import', options.tsx] : [])],
      serialization: 'advanced',
      // Nothing of the server's environment (its database URL, its master key) reaches a process that parses
      // hostile files; V8's out-of-memory report on its standard error is not kept either.
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.child.on('message', (message: unknown) => {
      this.stopSampling();
      if (typeof message === 'object' && message !== null && RECYCLE in message) {
        this.emit('error', new Error('resident memory past the limit'));
        return;
      }
      if (typeof message === 'object' && message !== null && RETIRE in message) {
        this.retiring = true;
        this.emit('message', (message as Record<string, unknown>)[RETIRE]);
        return;
      }
      this.emit('message', message);
    });
    this.child.on('error', (err) => this.emit('error', err));
    this.child.on('exit', (code, signal) => {
      this.stopSampling();
      this.emit('exit', code ?? signal);
    });
  }

  /** The child's process id (a new one each time the worker is replaced). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends a task (copied), and watches the child's resident memory until it answers. */
  postMessage(message: unknown, _moved?: ArrayBuffer[]): void {
    try {
      this.child.send(message as object);
    } catch (err) {
      this.emit('error', err);
      return;
    }
    this.startSampling();
  }

  async terminate(): Promise<void> {
    this.stopSampling();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }

  /** The child never keeps the server's process alive. */
  unref(): void {
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  private startSampling(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.sampler) return;
    this.sampler = setInterval(() => {
      void residentBytes(pid).then((bytes) => {
        if (bytes === undefined || bytes <= this.limitBytes || !this.sampler) return;
        this.stopSampling();
        this.emit('error', new Error('resident memory past the limit'));
        void this.terminate();
      });
    }, RSS_SAMPLE_MS).unref();
  }

  private stopSampling(): void {
    clearInterval(this.sampler);
    this.sampler = undefined;
  }
}

/** In a worker child process: its data, and the limit of its peak resident memory; undefined elsewhere. */
export function childData(): ChildData | undefined {
  if (typeof process.send !== 'function') return undefined;
  try {
    return JSON.parse(process.argv[2] ?? '') as ChildData;
  } catch {
    return undefined;
  }
}

/** The peak resident memory of this process so far, in bytes. */
export function peakResidentBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}
