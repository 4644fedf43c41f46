import { parentPort, Worker, type WorkerOptions, workerData } from 'node:worker_threads';
import type { Logger } from 'pino';

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

const DEFAULTS = { startTimeoutMs: 30_000, idleMs: 60_000, maxQueued: 64, heapMb: 256 };

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
  worker: Worker;
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
    }
    return answer;
  }

  /** A worker that has loaded its libraries, or undefined when it could not start. */
  private start(): Promise<Running | undefined> {
    return new Promise((resolve) => {
      const worker = startWorker(this.entry, {
        resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, maxYoungGenerationSizeMb: 32 },
        workerData: this.entry.data,
        stdout: true,
        stderr: true,
      });
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
        failed(`worker exited (${code})`);
      });
    });
  }
}

/** A task's answer in the worker: its value, and the buffers moved (not copied) back to the server's thread. */
export interface TaskAnswer {
  value: unknown;
  moved?: ArrayBuffer[];
}

/**
 * The worker thread's side of a BoundedWorker: says `ready` once `prepare` is done (its own start timeout, not a
 * task's clock), then answers each task it is sent, one at a time (null when the answer rejects).
 */
export function serveTasks<T>(answer: (task: T) => Promise<TaskAnswer>, prepare?: (data: unknown) => Promise<unknown>) {
  const port = parentPort;
  if (!port) return;
  port.on('message', (task: T) => {
    answer(task).then(
      ({ value, moved }) => port.postMessage(value, moved ?? []),
      () => port.postMessage(null),
    );
  });
  void (prepare ? prepare(workerData) : Promise.resolve()).then(
    () => port.postMessage('ready'),
    () => port.postMessage('ready'),
  );
}
