import { EventEmitter } from 'node:events';
import type { BodyRule } from '../../platform/config.js';
import type { Clock } from '../../platform/time.js';
import { BodyPolicy } from './body-policy.js';
import { type CompiledMatcher, type Difference, differences } from './matcher.js';
import type { NearMiss } from './near-miss.js';
import { redactBody, redactHeaders, redactUrl } from './redact.js';
import type { CallFilter, LoggedCallRecord, NewLoggedCall, RequestLogRepository } from './repository.js';
import { VERIFY_CLOSEST, VERIFY_LISTED } from './schemas.js';

/** A call as the capture hook hands it over: raw, so that the answer is not held up by the log's work. */
export interface CapturedCall {
  tenant: string;
  credentialId: string | null;
  at: number;
  /** The same instant on the tenant's clock. */
  tenantAt: number;
  method: string;
  /** The URL as received (path and query). */
  url: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  requestHeaders: Record<string, unknown>;
  /** The body as received: its text (JSON, a form), bytes, or undefined (none, or a stream the route read). */
  requestBody: string | Buffer | undefined;
  responseHeaders: Record<string, unknown>;
  /** The answer's payload as sent: text, bytes, or a stream (kept as a note). */
  responsePayload: string | Buffer | 'stream' | null;
  faultId: string | null;
  extension: boolean;
  deprecated: boolean;
  ignored: string[];
  /** The call failed authentication or hit no route, and named its tenant (docs/admin.md, "Near misses"). */
  nearMiss?: NearMiss | null;
}

/**
 * A captured call as it waits for its batch (`compact`): a text answer cut to the cap, and the answer's size; with
 * its bodies dropped when `ATRIUM_REQUEST_LOG_BODIES` says so (`requestSize` then the request body's size).
 */
type Waiting = CapturedCall & { responseSize: number; requestSize?: number };

export interface RequestLogSettings {
  enabled: boolean;
  bodyBytes: number;
  /** Per tenant, at the write (bounds.ts). */
  maxRows: number;
  maxBytes: number;
  retentionHours: number;
  /** `ATRIUM_REQUEST_LOG_BODIES`. */
  bodies: readonly BodyRule[];
}

/** What a verification found (docs/admin.md, "Verification"). */
export interface VerifyOutcome {
  matched: number;
  scanned: number;
  complete: boolean;
  /** The first matching calls, oldest first. */
  calls: LoggedCallRecord[];
  /** Calls that fail fewest criteria, newest first among equals. */
  closest: { call: LoggedCallRecord; differences: Difference[] }[];
}

/** A verification reads at most this many of a tenant's newest calls, this many at a time. */
export const VERIFY_SCAN_MAX = 10_000;
const VERIFY_PAGE = 500;

/** How often the buffer is written; at most this much of the log is lost to a SIGKILL. */
const FLUSH_MS = 200;
/** Written at once past this many calls waiting. */
const FLUSH_AT = 500;
/** Calls kept waiting at most, if the database cannot keep up; beyond, the oldest are dropped (and counted). */
const MAX_WAITING = 20_000;

const TEXT_TYPE = /^(application\/([a-z.+-]*\+)?(json|xml|x-www-form-urlencoded)|text\/)/i;

function contentType(headers: Record<string, unknown>): string {
  const raw = headers['content-type'];
  return typeof raw === 'string' ? raw : '';
}

/**
 * The request log of the tenant APIs (docs/admin.md, "Request log"). Each call is handed over raw by the capture
 * hook, kept in memory, and written in batches every 200 ms, in one transaction per batch: the API's answers never
 * wait for it, and a SIGKILL loses at most the last second of log (never API data, written by the calls' own
 * transactions). Secrets are redacted and bodies capped as the batch is written.
 */
export class RequestLogService {
  private waiting: Waiting[] = [];
  private readonly identifying = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly written = new EventEmitter();
  private closed = false;
  /** Calls dropped because the database could not keep up (a warning is logged). */
  dropped = 0;
  private readonly bodies: BodyPolicy;

  constructor(
    private readonly repo: RequestLogRepository,
    readonly settings: RequestLogSettings,
    private readonly clock: Clock,
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {
    this.written.setMaxListeners(0);
    this.bodies = new BodyPolicy(settings.bodies);
  }

  get enabled(): boolean {
    return this.settings.enabled && !this.closed;
  }

  start(): void {
    if (!this.settings.enabled) return;
    this.timer = setInterval(() => {
      this.flush().catch((err: unknown) => this.log?.warn({ err }, 'request log write failed'));
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what is waiting, and ends every tail. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch((err: unknown) => this.log?.warn({ err }, 'request log write failed'));
    this.closed = true;
    this.written.emit('closed');
  }

  /** Closes the log's own database file, if it has one: once the servers are closed. */
  closeStorage(): Promise<void> {
    return this.repo.close();
  }

  record(call: CapturedCall): void {
    if (!this.enabled) return;
    this.waiting.push(this.compact(call));
    if (this.waiting.length > MAX_WAITING) {
      this.waiting.shift();
      if (this.dropped++ % 1000 === 0) this.log?.warn({ dropped: this.dropped }, 'request log behind: calls dropped');
    }
    if (this.waiting.length === FLUSH_AT) {
      this.flush().catch((err: unknown) => this.log?.warn({ err }, 'request log write failed'));
    }
  }

  /**
   * The call as it waits for its batch: a text answer cut to the cap now, into bytes outside the JavaScript heap, so
   * that a large answer is not held (and copied by the garbage collector) until the batch is written; another kind
   * of answer keeps its size only.
   */
  private compact(call: CapturedCall): Waiting {
    const payload = call.responsePayload;
    if (!this.bodies.keeps(call.method, call.url, call.status)) {
      const body = call.requestBody;
      return {
        ...call,
        requestBody: undefined,
        requestSize: body === undefined ? undefined : Buffer.byteLength(body),
        responsePayload: payload === 'stream' ? payload : null,
        responseSize: payload === null || payload === 'stream' ? 0 : Buffer.byteLength(payload),
      };
    }
    if (payload === null || payload === 'stream') return { ...call, responseSize: 0 };
    const size = Buffer.byteLength(payload);
    if (!TEXT_TYPE.test(contentType(call.responseHeaders)))
      return { ...call, responsePayload: null, responseSize: size };
    const kept = Math.min(size, this.settings.bodyBytes);
    const head = Buffer.allocUnsafe(kept);
    const written = typeof payload === 'string' ? head.write(payload, 0, kept, 'utf8') : payload.copy(head, 0, 0, kept);
    return { ...call, responsePayload: head.subarray(0, written), responseSize: size };
  }

  /**
   * A call still being identified (a near miss's tenant, looked up after its answer): `flush` waits for it, so that a
   * call answered before a flush is written by it.
   */
  track<T>(identifying: Promise<T>): Promise<T> {
    this.identifying.add(identifying);
    const done = () => this.identifying.delete(identifying);
    identifying.then(done, done);
    return identifying;
  }

  /** Writes the calls waiting now (one write at a time), and those answered before but still being identified. */
  async flush(): Promise<void> {
    if (this.identifying.size > 0) await Promise.allSettled([...this.identifying]);
    while (this.flushing) await this.flushing;
    if (this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.flushing = this.repo
      .insert(
        batch.map((call) => this.prepareSafely(call)),
        this.settings,
      )
      .then(() => {
        this.written.emit('written');
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /** A call that cannot be prepared (a body of an unexpected kind) is kept without its bodies, not lost with its batch. */
  private prepareSafely(call: Waiting): NewLoggedCall {
    try {
      return this.prepare(call);
    } catch (err) {
      this.log?.warn({ err }, 'request log: a call kept without its bodies');
      return this.prepare({ ...call, requestBody: undefined, responsePayload: null });
    }
  }

  /** A captured call as the log keeps it: headers and URL redacted, bodies capped then redacted. */
  private prepare(call: Waiting): NewLoggedCall {
    const cap = this.settings.bodyBytes;
    const request = this.requestBody(call, cap);
    const response = this.responseBody(call, cap);
    return {
      tenant: call.tenant,
      credentialId: call.credentialId,
      at: call.at,
      tenantAt: call.tenantAt,
      method: call.method,
      path: redactUrl(call.url),
      operationId: call.operationId,
      status: call.status,
      durationMs: Math.round(call.durationMs * 1000) / 1000,
      requestHeaders: redactHeaders(call.requestHeaders),
      requestBody: request.text,
      responseHeaders: redactHeaders(call.responseHeaders),
      responseBody: response.text,
      faultId: call.faultId,
      flags: {
        extension: call.extension,
        deprecated: call.deprecated,
        ignored: call.ignored,
        requestTruncated: request.truncated,
        responseTruncated: response.truncated,
        ...(call.nearMiss ? { nearMiss: call.nearMiss } : {}),
      },
    };
  }

  private requestBody(call: Waiting, cap: number): { text: string | null; truncated: boolean } {
    const body = call.requestBody;
    const type = contentType(call.requestHeaders);
    if (body === undefined) {
      const length = call.requestSize ?? Number(call.requestHeaders['content-length'] ?? 0);
      return { text: length > 0 ? `[${length} bytes of ${type || 'a body'}, not kept]` : null, truncated: false };
    }
    if (Buffer.isBuffer(body))
      return { text: `[${body.length} bytes of ${type || 'a body'}, not kept]`, truncated: false };
    return redactBody(body, cap);
  }

  private responseBody(call: Waiting, cap: number): { text: string | null; truncated: boolean } {
    const payload = call.responsePayload;
    const type = contentType(call.responseHeaders);
    if (payload === 'stream') return { text: `[a streamed ${type || 'body'}, not kept]`, truncated: false };
    if (call.responseSize === 0) return { text: null, truncated: false };
    if (payload === null)
      return { text: `[${call.responseSize} bytes of ${type || 'a body'}, not kept]`, truncated: false };
    return redactBody(typeof payload === 'string' ? payload : payload.toString('utf8'), cap, call.responseSize);
  }

  list(tenant: string, filter: CallFilter, limit: number): Promise<LoggedCallRecord[]> {
    return this.repo.list(tenant, filter, limit);
  }

  get(tenant: string, seq: number): Promise<LoggedCallRecord | undefined> {
    return this.repo.find(tenant, seq);
  }

  /**
   * Reads a tenant's newest calls (after writing this process's waiting ones), at most `VERIFY_SCAN_MAX`, and
   * counts those the matcher matches; keeps the first matching ones and the closest others.
   */
  async verify(tenant: string, matcher: CompiledMatcher): Promise<VerifyOutcome> {
    await this.flush();
    const out: VerifyOutcome = { matched: 0, scanned: 0, complete: false, calls: [], closest: [] };
    let before: number | undefined;
    while (out.scanned < VERIFY_SCAN_MAX) {
      const limit = Math.min(VERIFY_PAGE, VERIFY_SCAN_MAX - out.scanned);
      const page = await this.repo.list(tenant, before === undefined ? {} : { beforeSeq: before }, limit);
      for (const call of page) {
        out.scanned++;
        const diff = differences(matcher, call);
        if (diff.length === 0) {
          out.matched++;
          // Newest first: the last ones seen are the first made.
          out.calls.unshift(call);
          if (out.calls.length > VERIFY_LISTED) out.calls.pop();
        } else keepClosest(out.closest, { call, differences: diff });
      }
      const last = page.at(-1);
      if (page.length < limit || !last) {
        out.complete = true;
        break;
      }
      before = last.seq;
    }
    return out;
  }

  /** Empties a tenant's log, the calls waiting in this process included, and resets its usage. */
  async clear(tenant: string, actor: string): Promise<number> {
    await this.flush();
    return this.repo.clear(tenant, { at: this.clock.wall(), actor });
  }

  lastSeq(tenant: string): Promise<number> {
    return this.repo.lastSeq(tenant);
  }

  /**
   * Resolves when this process writes a batch, when `ms` pass (another process may have written), or when the log
   * closes (answers false then).
   */
  nextWrite(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (open: boolean) => {
        clearTimeout(timer);
        this.written.off('written', onWritten);
        this.written.off('closed', onClosed);
        resolve(open);
      };
      const onWritten = () => done(true);
      const onClosed = () => done(false);
      const timer = setTimeout(() => done(true), ms);
      this.written.once('written', onWritten);
      this.written.once('closed', onClosed);
    });
  }

  /**
   * Deletes calls past the retention (`ATRIUM_REQUEST_LOG_RETENTION_HOURS`), hourly; the caps per tenant are kept as
   * each batch is written.
   */
  sweep(): Promise<number> {
    return this.repo.sweep(this.clock.wall() - this.settings.retentionHours * 3_600_000);
  }
}

/** Adds a near miss to the closest ones if it fails fewer criteria than one of them (newer ones come first). */
function keepClosest(
  closest: { call: LoggedCallRecord; differences: Difference[] }[],
  miss: { call: LoggedCallRecord; differences: Difference[] },
): void {
  const at = closest.findIndex((c) => c.differences.length > miss.differences.length);
  if (at < 0) {
    if (closest.length < VERIFY_CLOSEST) closest.push(miss);
    return;
  }
  closest.splice(at, 0, miss);
  if (closest.length > VERIFY_CLOSEST) closest.pop();
}
