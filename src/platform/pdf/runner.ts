import type { Logger } from 'pino';
import { BoundedWorker } from '../workers/bounded-worker.js';
import type { ComposedDocument } from './compose.js';
import type { RenderKind, RenderOptions, RenderResult } from './render.js';
import type { DuplicateStamp, SignatureStamp } from './stamp.js';
import type { TextOccurrence } from './text.js';
import type { PdfTask } from './worker.js';

/** A render that gave nothing: the file cannot be read, the page is past its end, or it went past the limits. */
export type RenderOutcome = RenderResult | { ok: false; reason: 'limits' };

export interface PdfWorkerOptions {
  /** How long one count may take before the worker is stopped and the count is null (ms). */
  timeoutMs?: number;
  /** How long the worker may take to start and load the PDF library (ms); past it the count is null. */
  startTimeoutMs?: number;
  /** An idle worker is stopped after this long (ms), and started again by the next PDF. */
  idleMs?: number;
  /** Counts waiting at most; past that a count is null at once (and logged). */
  maxQueued?: number;
  /** The worker's V8 heap (MiB): a PDF whose objects need more is null. */
  heapMb?: number;
  /** How long rendering a page or searching a PDF's text may take (ms). */
  renderTimeoutMs?: number;
  /** Whether the worker loads the renderer (pdf.js, the canvas) as it starts, before its first task's clock runs. */
  preload?: boolean;
  /**
   * `process` runs the worker as a child process whose resident memory is bounded by `rssLimitMb` (the previews'
   * renderer: the canvas's memory is native, out of V8's reach); `thread` (the default), a worker thread.
   */
  isolation?: 'thread' | 'process';
  /** With `isolation: 'process'`: past this resident memory (MiB) the task is `limits` and the child replaced. */
  rssLimitMb?: number;
  /** With `isolation: 'process'`: a child still past this resident memory (MiB) after a task is replaced (192). */
  recycleRssMb?: number;
  log?: Logger | undefined;
}

const DEFAULTS = {
  timeoutMs: 3_000,
  startTimeoutMs: 30_000,
  idleMs: 60_000,
  maxQueued: 64,
  heapMb: 256,
  renderTimeoutMs: 10_000,
  preload: false,
};

/** How long stamping signatures may take (ms): a larger document than a count reads, and written again. */
const STAMP_TIMEOUT_MS = 15_000;
/** How long joining PDFs may take by default (ms): up to a thousand documents. */
const CONCAT_TIMEOUT_MS = 120_000;

/**
 * Runs the PDF library's work (pages.ts: a page count; stamp.ts: signatures stamped) in a worker thread, so that a
 * hostile file costs a bounded time and memory, never blocks the event loop and never takes the process down: a
 * count that takes longer than `timeoutMs` (a
 * compression bomb in an object stream, a parse that does not end) stops the worker, its heap is capped
 * (`heapMb`), and a worker that fails in any way gives null. One count runs at a time (a PDF upload waits for the
 * ones before it, up to `maxQueued`). The worker is started by the first PDF and stopped when idle; the PDF
 * library is loaded in it only, never in the server's own thread.
 */
export class PdfWorker {
  private readonly options: { timeoutMs: number; renderTimeoutMs: number };
  private readonly worker: BoundedWorker;

  constructor(settings: PdfWorkerOptions = {}) {
    this.options = {
      timeoutMs: settings.timeoutMs ?? DEFAULTS.timeoutMs,
      renderTimeoutMs: settings.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs,
    };
    this.worker = new BoundedWorker(
      { name: 'PDF', base: import.meta.url, file: 'worker', data: { preload: settings.preload ?? DEFAULTS.preload } },
      {
        startTimeoutMs: settings.startTimeoutMs ?? DEFAULTS.startTimeoutMs,
        idleMs: settings.idleMs ?? DEFAULTS.idleMs,
        maxQueued: settings.maxQueued ?? DEFAULTS.maxQueued,
        heapMb: settings.heapMb ?? DEFAULTS.heapMb,
        ...(settings.isolation ? { isolation: settings.isolation } : {}),
        ...(settings.rssLimitMb ? { rssLimitMb: settings.rssLimitMb } : {}),
        ...(settings.recycleRssMb ? { recycleRssMb: settings.recycleRssMb } : {}),
        log: settings.log,
      },
    );
  }

  /** Workers started so far: one more each time one is replaced (after a limit, a failure, or idle). */
  get started(): number {
    return this.worker.started;
  }

  /** The number of pages, or null (not a readable PDF, too slow, too big, too busy). Never rejects. */
  async count(bytes: Uint8Array): Promise<number | null> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'count', bytes: own }, this.options.timeoutMs);
    return typeof answer === 'number' && Number.isSafeInteger(answer) && answer >= 0 ? answer : null;
  }

  /**
   * The PDF with the signatures stamped on it and its audit page (stamp.ts), or null (not a PDF the library can
   * write, encrypted, too slow, too big, too busy). Never rejects.
   */
  async stamp(bytes: Uint8Array, stamp: SignatureStamp): Promise<Uint8Array | null> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'stamp', bytes: own, stamp }, STAMP_TIMEOUT_MS);
    return answer instanceof Uint8Array ? answer : null;
  }

  /**
   * One page of a PDF or an image as a PNG `options.width` pixels wide (render.ts), or why not: `unreadable`,
   * `page` (past the end, with the count), `limits` (too slow, too big, too busy). Never rejects.
   */
  async render(bytes: Uint8Array, kind: RenderKind, options: RenderOptions): Promise<RenderOutcome> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'render', bytes: own, kind, options }, this.options.renderTimeoutMs);
    return isRenderResult(answer) ? answer : { ok: false, reason: 'limits' };
  }

  /** The page count as the renderer reads the file (an image: 1), null when unreadable, `limits` past them. */
  async renderable(bytes: Uint8Array, kind: RenderKind): Promise<number | null | 'limits'> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'renderable', bytes: own, kind }, this.options.renderTimeoutMs);
    if (typeof answer !== 'object' || answer === null) return 'limits';
    const { pages } = answer as { pages?: unknown };
    return typeof pages === 'number' && Number.isSafeInteger(pages) && pages > 0 ? pages : null;
  }

  /** Where a keyword appears in a PDF's text (text.ts), null when unreadable, `limits` past them. Never rejects. */
  async find(bytes: Uint8Array, keyword: string): Promise<TextOccurrence[] | null | 'limits'> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'find', bytes: own, keyword }, this.options.renderTimeoutMs);
    if (typeof answer !== 'object' || answer === null) return 'limits';
    const { found } = answer as { found?: unknown };
    return Array.isArray(found) ? (found as TextOccurrence[]) : null;
  }

  /**
   * A duplicate of a PDF (stamp.ts): "DUPLICATE" across each page and a footer; `unreadable` when the library
   * cannot read or write it (encrypted, broken), `limits` past the time or heap limits. Never rejects.
   */
  async duplicate(bytes: Uint8Array, stamp: DuplicateStamp): Promise<Uint8Array | 'unreadable' | 'limits'> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'duplicate', bytes: own, stamp }, STAMP_TIMEOUT_MS);
    if (answer instanceof Uint8Array) return answer;
    return typeof answer === 'object' && answer !== null ? 'unreadable' : 'limits';
  }

  /** A document of text written as a PDF (compose.ts), or null past the limits. Never rejects. */
  async compose(content: ComposedDocument): Promise<Uint8Array | null> {
    const answer = await this.runIn({ task: 'compose', bytes: new Uint8Array(0), content }, STAMP_TIMEOUT_MS);
    return answer instanceof Uint8Array ? answer : null;
  }

  /**
   * The text of each page (text.ts, `pageTexts`), null when the PDF cannot be read, `limits` past the limits
   * (`renderTimeoutMs`). Never rejects.
   */
  async texts(bytes: Uint8Array): Promise<string[] | null | 'limits'> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'texts', bytes: own }, this.options.renderTimeoutMs);
    if (typeof answer !== 'object' || answer === null) return 'limits';
    const { texts } = answer as { texts?: unknown };
    return Array.isArray(texts) ? (texts as string[]) : null;
  }

  /**
   * New PDFs of the given pages (pages.ts, `splitPdf`: one per group of 0-based page indexes), null when the PDF
   * cannot be read or a page is outside it, `limits` past the limits. Never rejects.
   */
  async split(bytes: Uint8Array, groups: number[][]): Promise<Uint8Array[] | null | 'limits'> {
    const own = new Uint8Array(bytes);
    const answer = await this.runIn({ task: 'split', bytes: own, groups }, STAMP_TIMEOUT_MS);
    if (typeof answer !== 'object' || answer === null) return 'limits';
    const { parts } = answer as { parts?: unknown };
    return Array.isArray(parts) && parts.every((p) => p instanceof Uint8Array) ? (parts as Uint8Array[]) : null;
  }

  /**
   * One PDF of the pages of several, in their order (pages.ts, `concatPdfs`), with its page count; `unreadable`
   * when a part cannot be read, `limits` past the limits (`timeoutMs` of the call, 120 s by default: a campaign
   * joins up to a thousand documents). The parts are copied to the worker. Never rejects.
   */
  async concat(
    parts: readonly Uint8Array[],
    timeoutMs = CONCAT_TIMEOUT_MS,
  ): Promise<{ pdf: Uint8Array; pages: number } | 'unreadable' | 'limits'> {
    const own = parts.map((p) => new Uint8Array(p));
    const task: PdfTask = { task: 'concat', bytes: new Uint8Array(0), parts: own };
    const size = own.reduce((sum, p) => sum + p.length, 0);
    const answer = await this.worker.run(
      task,
      own.map((p) => p.buffer as ArrayBuffer),
      timeoutMs,
      size,
    );
    if (typeof answer !== 'object' || answer === null) return 'limits';
    const { pdf, pages } = answer as { pdf?: unknown; pages?: unknown };
    return pdf instanceof Uint8Array && typeof pages === 'number' ? { pdf, pages } : 'unreadable';
  }

  /** Stops the worker, if one runs (the next count starts another). */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  /**
   * Runs a task in the worker (platform/workers/bounded-worker.ts): its answer, or null past the limits. The
   * task's bytes are a copy of the caller's own (`bytes` may be a view on a shared buffer): moved to the worker.
   */
  private runIn(task: PdfTask, timeoutMs: number): Promise<unknown> {
    return this.worker.run(task, [task.bytes.buffer as ArrayBuffer], timeoutMs, task.bytes.length);
  }
}

function isRenderResult(value: unknown): value is RenderResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; reason?: unknown; png?: unknown };
  if (v.ok === true) return v.png instanceof Uint8Array;
  return v.reason === 'page' || v.reason === 'unreadable';
}
