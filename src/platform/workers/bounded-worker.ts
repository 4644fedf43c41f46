import { parentPort, Worker, type WorkerOptions, workerData } from 'node:worker_threads';
import type { Logger } from 'pino';
import { ChildWorker, childData, peakResidentBytes, RECYCLE, RETIRE } from './child-worker.js';

/** The limits of a bounded worker; each has a default. */
export interface BoundedWorkerOptions {
  /** How long the worker may take to start and load its libraries (ms); past it the task has no answer. */
  startTimeoutMs?: number;
  /** An idle worker is stopped after this long (ms), and started again by the next task. */
  idleMs?: number;
  /** Tasks waiting at most; past that a task has no answer at once (and it is logged). */
  maxQueued?: number;
  /** The worker's V8 heap (MiB): a task that needs more has no answer. */
  heapMb?: number;
  /**
   * `thread` (the default): a worker thread, whose V8 heap is capped; what native code allocates is the server's.
   * `process`: a child process (child-worker.ts), whose whole resident memory is bounded by `rssLimitMb`.
   */
  isolation?: 'thread' | 'process';
  /** With `isolation: 'process'`: past this resident memory (MiB), the task has no answer and the child is replaced. */
  rssLimitMb?: number;
  /**
   * With `isolation: 'process'`: a child whose resident memory is past this (MiB) once it has answered ends itself;
   * the next task starts a fresh one (default 192: an ordinary page's render stays near 130).
   */
  recycleRssMb?: number;
  log?: Logger | undefined;
}

/** What the worker is, for the logs and for starting it. */
export interface WorkerEntry {
  /** Named in the logs (`PDF`, `docgen`). */
  name: string;
  /** `import.meta.url` of the module beside the worker's file. */
  base: string;
  /** The worker's file name, without its extension (`worker`): `.js` when built, `.ts` under tsx. */
  file: string;
  /** Given to the worker as `workerData`. */
  data?: unknown;
}

const DEFAULTS = {
  startTimeoutMs: 30_000,
  idleMs: 60_000,
  maxQueued: 64,
  heapMb: 256,
  isolation: 'thread' as const,
  rssLimitMb: 384,
  recycleRssMb: 192,
};

/** A worker thread or a worker child process, as BoundedWorker uses them. */
interface TaskWorker {
  postMessage(message: unknown, moved: ArrayBuffer[]): void;
  on(event: 'message' | 'error' | 'exit', listener: (value: unknown) => void): unknown;
  terminate(): Promise<unknown>;
  unref(): void;
  /** A child process that answered its last task but should not get another (child-worker.ts). */
  retiring?: boolean;
}

/** A child process running the worker's .js file, or its .ts file under tsx (from the sources). */
function startChild(
  entry: WorkerEntry,
  options: { heapMb: number; rssLimitMb: number; recycleRssMb: number },
): ChildWorker {
  const ts = entry.base.endsWith('.ts');
  const file = new URL(`./${entry.file}.${ts ? 'ts' : 'js'}`, entry.base);
  return new ChildWorker(file, {
    ...options,
    data: entry.data,
    ...(ts ? { tsx: import.meta.resolve('tsx') } : {}),
  });
}

/**
 * Starts the worker's .js file, or its .ts file when running from the sources (under tsx): a worker thread does
 * not inherit `--import tsx` on every supported Node.js, so that worker registers tsx itself before loading the file.
 */
function startWorker(entry: WorkerEntry, options: WorkerOptions): Worker {
  if (!entry.base.endsWith('.ts')) return new Worker(new URL(`./${entry.file}.js`, entry.base), options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const file = JSON.stringify(new URL(`./${entry.file}.ts`, entry.base).href);
  const code = `import(${tsx}).then(({ register }) => { register(); return import(${file}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** A started worker, ready for a task: what it answers next is the answer to the task sent to it. */
interface Running {
  worker: TaskWorker;
  /** Set while a task is out: receives the worker's answer, or null with the reason it failed. */
  pending?: (answer: unknown, reason?: string) => void;
}

/**
 * A worker thread whose tasks cost a bounded time and memory, never block the event loop and never take the
 * process down: a task that takes longer than its timeout stops the worker, its heap is capped (`heapMb`), and a
 * worker that fails in any way answers null. One task runs at a time (the others wait, up to `maxQueued`). The
 * worker is started by the first task and stopped when idle, and started again by the next task after a stop.
 * PdfWorker (platform/pdf/runner.ts) and DocgenWorker (platform/docgen/runner.ts) are built on it.
 */
export class BoundedWorker {
  private readonly options: Required<Omit<BoundedWorkerOptions, 'log'>>;
  /** Workers started so far: one more each time a worker is replaced (tests, logs). */
  started = 0;
  private busy = false;
  private readonly queue: (() => void)[] = [];
  private current: Running | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly entry: WorkerEntry,
    private readonly settings: BoundedWorkerOptions = {},
  ) {
    this.options = {
      startTimeoutMs: settings.startTimeoutMs ?? DEFAULTS.startTimeoutMs,
      idleMs: settings.idleMs ?? DEFAULTS.idleMs,
      maxQueued: settings.maxQueued ?? DEFAULTS.maxQueued,
      heapMb: settings.heapMb ?? DEFAULTS.heapMb,
      isolation: settings.isolation ?? DEFAULTS.isolation,
      rssLimitMb: settings.rssLimitMb ?? DEFAULTS.rssLimitMb,
      recycleRssMb: settings.recycleRssMb ?? DEFAULTS.recycleRssMb,
    };
  }

  /**
   * The worker's answer to a task (its buffers in `moved` are moved to the worker, not copied), or null: past
   * `timeoutMs`, past the heap, past the queue, or the worker could not start. Never rejects.
   */
  run(task: { task: string }, moved: ArrayBuffer[], timeoutMs: number, size = 0): Promise<unknown> {
    return this.queued(() => this.runIn(task, moved, timeoutMs, size));
  }

  /** Stops the worker, if one runs (the next task starts another). */
  async stop(): Promise<void> {
    const running = this.current;
    this.current = undefined;
    await running?.worker.terminate();
  }

  /** Runs one task at a time: a task waits for the ones before it, up to `maxQueued` (past that: null at once). */
  private async queued(run: () => Promise<unknown>): Promise<unknown> {
    if (this.busy) {
      if (this.queue.length >= this.options.maxQueued) {
        this.settings.log?.warn({ queued: this.queue.length }, `${this.entry.name} task skipped: too many waiting`);
        return null;
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
    this.busy = true;
    clearTimeout(this.idle);
    try {
      return await run();
    } finally {
      this.busy = false;
      const next = this.queue.shift();
      if (next) next();
      else this.idle = setTimeout(() => void this.stop(), this.options.idleMs).unref();
    }
  }

  private async runIn(task: { task: string }, moved: ArrayBuffer[], timeoutMs: number, size: number): Promise<unknown> {
    // Tasks run one at a time, so no other task is starting a worker meanwhile.
    this.current ??= await this.start();
    const running = this.current;
    if (!running) return null;
    const started = performance.now();
    const { answer, reason } = await new Promise<{ answer: unknown; reason?: string }>((resolve) => {
      const timer = setTimeout(() => running.pending?.(null, 'timeout'), timeoutMs).unref();
      running.pending = (answer, reason) => {
        clearTimeout(timer);
        running.pending = undefined;
        resolve(reason === undefined ? { answer } : { answer, reason });
      };
      running.worker.postMessage(task, moved);
    });
    if (reason !== undefined) {
      // The worker may still be busy or broken: stop it; the next task starts a fresh one.
      this.settings.log?.info(
        { task: task.task, reason, ms: Math.round(performance.now() - started), size },
        `${this.entry.name} task unavailable`,
      );
      if (this.current === running) void this.stop();
    } else if (running.worker.retiring && this.current === running) {
      this.settings.log?.info({ task: task.task }, `${this.entry.name} worker replaced: its memory stayed large`);
      void this.stop();
    }
    return answer;
  }

  /** A worker that has loaded its libraries, or undefined when it could not start. */
  private start(): Promise<Running | undefined> {
    return new Promise((resolve) => {
      const { heapMb, rssLimitMb, recycleRssMb } = this.options;
      const worker: TaskWorker =
        this.options.isolation === 'process'
          ? startChild(this.entry, { heapMb, rssLimitMb, recycleRssMb })
          : startWorker(this.entry, {
              resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
              workerData: this.entry.data,
              stdout: true,
              stderr: true,
            });
      this.started++;
      worker.unref();
      const running: Running = { worker };
      let ready = false;
      const failed = (reason: string) => {
        if (!ready) {
          ready = true;
          clearTimeout(timer);
          this.settings.log?.warn({ reason }, `the ${this.entry.name} worker could not start`);
          void worker.terminate();
          resolve(undefined);
        }
        running.pending?.(null, reason);
      };
      const timer = setTimeout(() => failed('start timeout'), this.options.startTimeoutMs).unref();
      worker.on('message', (message: unknown) => {
        if (!ready) {
          ready = message === 'ready';
          clearTimeout(timer);
          resolve(ready ? running : undefined);
          return;
        }
        running.pending?.(message);
      });
      worker.on('error', (err) => failed(err instanceof Error ? err.message : String(err)));
      worker.on('exit', (code) => {
        if (this.current === running) this.current = undefined;
        failed(`worker exited (${String(code)})`);
      });
    });
  }
}

/** A task's answer in the worker: its value, and the buffers moved (not copied) back to the server's thread. */
export interface TaskAnswer {
  value: unknown;
  moved?: ArrayBuffer[];
}

/** How a worker talks to the server: its thread's port, or its child process's IPC channel. */
interface ServerPort {
  postMessage(value: unknown, moved?: ArrayBuffer[]): void;
  on(event: 'message', listener: (task: unknown) => void): unknown;
}

function childPort(): ServerPort | undefined {
  const send = process.send?.bind(process);
  if (!send) return undefined;
  // The server is gone (killed): so is this child.
  process.on('disconnect', () => process.exit(0));
  return { postMessage: (value) => void send(value as object), on: (event, listener) => process.on(event, listener) };
}

/**
 * The worker's side of a BoundedWorker (a thread, or a child process): says `ready` once `prepare` is done (its own
 * start timeout, not a task's clock), then answers each task it is sent, one at a time (null when the answer
 * rejects). A child process whose peak resident memory passed its limit answers RECYCLE instead of the task's
 * answer: the server replaces it.
 */
export function serveTasks<T>(answer: (task: T) => Promise<TaskAnswer>, prepare?: (data: unknown) => Promise<unknown>) {
  const child = childData();
  const port: ServerPort | undefined = (parentPort as ServerPort | null) ?? childPort();
  if (!port) return;
  const past = () => child !== undefined && child.rssLimitBytes > 0 && peakResidentBytes() > child.rssLimitBytes;
  // A child still large once it has answered says so with its answer: the server then replaces it.
  const large = () => child !== undefined && child.recycleBytes > 0 && process.memoryUsage.rss() > child.recycleBytes;
  const reply = (value: unknown, moved: ArrayBuffer[]) => {
    if (past()) port.postMessage({ [RECYCLE]: peakResidentBytes() });
    else port.postMessage(large() ? { [RETIRE]: value } : value, moved);
  };
  port.on('message', (task) => {
    answer(task as T).then(
      ({ value, moved }) => reply(value, moved ?? []),
      () => reply(null, []),
    );
  });
  void (prepare ? prepare(child ? child.data : workerData) : Promise.resolve()).then(
    () => port.postMessage('ready'),
    () => port.postMessage('ready'),
  );
}
