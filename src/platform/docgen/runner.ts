import type { Logger } from 'pino';
import { BoundedWorker } from '../workers/bounded-worker.js';
import type { GenerateInput, GenerateOutcome, Inspection, NotATemplate, SyntaxVersion } from './types.js';
import type { DocgenTask } from './worker.js';
import type { ZipEntry } from './zip.js';

export interface DocgenWorkerOptions {
  /** How long one task may take before the worker is stopped and the task is `limits` (ms). */
  timeoutMs?: number;
  /** How long the worker may take to start and load the engine (ms). */
  startTimeoutMs?: number;
  /** An idle worker is stopped after this long (ms), and started again by the next task. */
  idleMs?: number;
  /** Tasks waiting at most; past that a task is `limits` at once. */
  maxQueued?: number;
  /** The worker's V8 heap (MiB): a task that needs more is `limits`. */
  heapMb?: number;
  /** How long zipping a campaign's documents may take (ms). */
  zipTimeoutMs?: number;
  log?: Logger | undefined;
}

const DEFAULTS = {
  zipTimeoutMs: 120_000,
  timeoutMs: 10_000,
  startTimeoutMs: 30_000,
  idleMs: 60_000,
  maxQueued: 32,
  heapMb: 256,
};

const LIMITS = {
  ok: false,
  reason: 'limits',
  message: 'past the time or memory limits of the document worker',
} as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Runs the document-generation engine (inspect.ts, fill.ts, syntax.ts's migration, layout.ts) in a worker thread
 * (platform/workers/bounded-worker.ts), so that a hostile template or dataset costs a bounded time (`timeoutMs` per
 * task) and memory (`heapMb`), never blocks the event loop and never takes the process down: past them, or past
 * the queue, a task is `limits`, and the worker is stopped and started again for the next task. Never rejects.
 */
export class DocgenWorker {
  private readonly timeoutMs: number;
  private readonly zipTimeoutMs: number;
  private readonly worker: BoundedWorker;

  constructor(settings: DocgenWorkerOptions = {}) {
    this.timeoutMs = settings.timeoutMs ?? DEFAULTS.timeoutMs;
    this.zipTimeoutMs = settings.zipTimeoutMs ?? DEFAULTS.zipTimeoutMs;
    this.worker = new BoundedWorker(
      { name: 'docgen', base: import.meta.url, file: 'worker' },
      {
        startTimeoutMs: settings.startTimeoutMs ?? DEFAULTS.startTimeoutMs,
        idleMs: settings.idleMs ?? DEFAULTS.idleMs,
        maxQueued: settings.maxQueued ?? DEFAULTS.maxQueued,
        heapMb: settings.heapMb ?? DEFAULTS.heapMb,
        log: settings.log,
      },
    );
  }

  /** A template's placeholders and issues (inspect.ts), or why it is not one (`limits` past the limits). */
  async inspect(bytes: Uint8Array, syntax: SyntaxVersion): Promise<Inspection | NotATemplate> {
    const answer = await this.run({ task: 'inspect', bytes: new Uint8Array(bytes), syntax });
    if (isObject(answer) && (Array.isArray(answer.placeholders) || answer.ok === false)) {
      return answer as unknown as Inspection | NotATemplate;
    }
    return LIMITS;
  }

  /** A document generated (fill.ts), or why not (`limits` past the worker's limits). */
  async generate(input: GenerateInput): Promise<GenerateOutcome> {
    const own: GenerateInput = { ...input, template: new Uint8Array(input.template) };
    const answer = await this.run({ task: 'generate', input: own });
    return isObject(answer) && typeof answer.ok === 'boolean'
      ? (answer as GenerateOutcome)
      : { ok: false, reason: 'limits' };
  }

  /** A V1 template written in V2 (syntax.ts, `migrateV1toV2`), or why not. */
  async migrate(bytes: Uint8Array): Promise<{ ok: true; bytes: Uint8Array } | NotATemplate> {
    const answer = await this.run({ task: 'migrate', bytes: new Uint8Array(bytes) });
    return isObject(answer) && typeof answer.ok === 'boolean'
      ? (answer as { ok: true; bytes: Uint8Array } | NotATemplate)
      : LIMITS;
  }

  /** A DOCX laid out as a PDF (layout.ts), with its page count, or why not. */
  async layout(docx: Uint8Array): Promise<{ ok: true; pdf: Uint8Array; pages: number } | NotATemplate> {
    const answer = await this.run({ task: 'layout', bytes: new Uint8Array(docx) });
    return isObject(answer) && typeof answer.ok === 'boolean'
      ? (answer as { ok: true; pdf: Uint8Array; pages: number } | NotATemplate)
      : LIMITS;
  }

  /**
   * One zip of the files, in their order (zip.ts, `zipFiles`: DEFLATE; unsafe or repeated names made safe and
   * unique), or `limits` past the worker's limits (`zipTimeoutMs`, the heap). The entries' bytes are copied to the
   * worker, so the caller's stay usable. Never rejects.
   */
  async zip(entries: readonly ZipEntry[]): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: 'limits' }> {
    const own = entries.map((e) => ({ name: e.name, bytes: new Uint8Array(e.bytes) }));
    const size = own.reduce((sum, e) => sum + e.bytes.length, 0);
    const task: DocgenTask = { task: 'zip', entries: own };
    const answer = await this.worker.run(
      task,
      own.map((e) => e.bytes.buffer as ArrayBuffer),
      this.zipTimeoutMs,
      size,
    );
    return isObject(answer) && answer.ok === true && answer.bytes instanceof Uint8Array
      ? { ok: true, bytes: answer.bytes }
      : { ok: false, reason: 'limits' };
  }

  /** Stops the worker, if one runs (the next task starts another). */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** A task's answer, or null past the limits; the template's bytes (a copy) are moved to the worker. */
  private run(task: Exclude<DocgenTask, { task: 'zip' }>): Promise<unknown> {
    const bytes = task.task === 'generate' ? task.input.template : task.bytes;
    return this.worker.run(task, [bytes.buffer as ArrayBuffer], this.timeoutMs, bytes.length);
  }
}
