/**
 * The validation proxy (docs/proxy.md): a small HTTP server that forwards every call to the target unchanged (but
 * its `Host`, and the hop-by-hop headers each connection has of its own), streams both bodies through as they come,
 * and, once an answer has ended, checks the exchange against Atrium's schemas of its operation (check.ts). Its
 * departures go to the journal (store.ts), and with `--record` the exchange to the recording (recorder.ts). Its own
 * page, `GET /__atrium/proxy` (and `/__atrium/proxy.json`), is answered by the proxy and never forwarded.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { isSecretName, redactUrl, redactValues } from '../../platform/security/redact.js';
import { wallClock } from '../../platform/time.js';
import { REDACTED } from '../request-log/redact.js';
import { REFERENCE_OPERATIONS } from '../request-log/reference-operations.js';
import { type Departure, type Exchange, ExchangeChecker } from './check.js';
import { apiOf, type OperationIndex } from './operations.js';
import { type RecordedExchange, type Recorder, recordedMessage, recordedPath } from './recorder.js';
import { reportHtml } from './report.js';
import type { DepartureStore, ProxyReport } from './store.js';

/** Headers of one connection, never forwarded (RFC 9110, 7.6.1), and `host`, which names the target instead. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

export const PAGE_PATH = '/__atrium/proxy';

export interface ProxyOptions {
  /** The real service's origin (and base path, if any): `https://tenant.example.com`. */
  target: URL;
  index: OperationIndex;
  store: DepartureStore;
  recorder?: Recorder;
  /** Bodies are read for checking up to this many bytes (still forwarded whole). */
  bodyLimit: number;
  /** Called with each departure the first time it is seen (the console line). */
  onNewDeparture?: (operation: string, departure: Departure) => void;
  now?: () => number;
}

export interface RunningProxy {
  url: string;
  report(): ProxyReport;
  close(): Promise<void>;
}

/** Collects a stream's chunks up to a limit (beyond it, only the byte count). */
class Capture {
  private chunks: Buffer[] = [];
  size = 0;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= this.limit) this.chunks.push(chunk);
    else this.chunks = [];
  }
  body(): Buffer | undefined {
    return this.size <= this.limit ? Buffer.concat(this.chunks) : undefined;
  }
}

function headerObject(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    out[name] = out[name] === undefined ? (raw[i + 1] as string) : `${out[name]}, ${raw[i + 1]}`;
  }
  return out;
}

/** Raw headers (name, value, name, value…) without the hop-by-hop ones and those `connection` names. */
function forwardable(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === 'connection') {
      for (const n of (raw[i + 1] as string).split(',')) named.add(n.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

/** The key of a call Atrium does not serve: the real API's template when it has one, else its redacted path. */
function unservedKey(method: string, urlPath: string): string {
  const prefix = '/api/v2/client';
  if (urlPath.startsWith(`${prefix}/`)) {
    const segments = urlPath.slice(prefix.length).split('/');
    for (const [template, methods] of Object.entries(REFERENCE_OPERATIONS)) {
      const t = template.split('/');
      const fits = t.length === segments.length && t.every((s, i) => s.startsWith('{') || s === segments[i]);
      if (fits && methods.split(' ').includes(method)) return `${method} ${prefix}${template}`;
    }
  }
  return `${method} ${redactValues(urlPath, REDACTED)}`;
}

/** A departure as the journal keeps it: the value of a secret member never shown. */
function redacted(d: Departure): Departure {
  const last = d.field.split('/').pop() ?? '';
  const secret = d.kind === 'wrong_value' && isSecretName(last.replace(/~1/g, '/').replace(/~0/g, '~'));
  return { ...d, actual: secret ? REDACTED : redactValues(d.actual, REDACTED) };
}

export class ValidationProxy {
  private readonly checker: ExchangeChecker;
  private readonly seen = new Set<string>();
  private seq = 0;
  private readonly agent: http.Agent;
  private readonly server: http.Server;

  constructor(private readonly options: ProxyOptions) {
    this.checker = new ExchangeChecker(options.index);
    const secure = options.target.protocol === 'https:';
    this.agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  async listen(port: number, host: string): Promise<RunningProxy> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return {
      url: `http://${shown}:${address.port}`,
      report: () => this.options.store.report(),
      close: async () => {
        await new Promise<void>((resolve) => {
          this.server.close(() => resolve());
          this.server.closeAllConnections();
        });
        this.agent.destroy();
      },
    };
  }

  private page(req: http.IncomingMessage, res: http.ServerResponse): void {
    const report = this.options.store.report();
    if (req.url?.startsWith(`${PAGE_PATH}.json`)) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(report));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(reportHtml(report, this.options.target.origin));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = req.url ?? '/';
    if (
      req.method === 'GET' &&
      (url === PAGE_PATH || url.startsWith(`${PAGE_PATH}?`) || url.startsWith(`${PAGE_PATH}.json`))
    ) {
      this.page(req, res);
      return;
    }
    const seq = ++this.seq;
    const at = this.options.now?.() ?? wallClock();
    const { target } = this.options;
    const base = target.pathname.replace(/\/$/, '');
    const secure = target.protocol === 'https:';
    const requestHeaders = forwardable(req.rawHeaders);
    requestHeaders.push('Host', target.host);
    const sent = new Capture(this.options.bodyLimit);
    const upstream = (secure ? https : http).request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port || (secure ? 443 : 80),
      method: req.method,
      path: `${base}${url}`,
      headers: requestHeaders,
      agent: this.agent,
    });
    let answered = false;
    const fail = (status: number, message: string) => {
      this.options.recorder?.settle(seq, null);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code: 'proxy_error', message }));
    };
    upstream.on('error', (err) => {
      if (!answered) fail(502, `The proxy could not reach ${target.origin}: ${err.message}`);
    });
    req.on('data', (chunk: Buffer) => sent.add(chunk));
    req.on('aborted', () => upstream.destroy());
    req.pipe(upstream);
    upstream.on('response', (answer) => {
      answered = true;
      const got = new Capture(this.options.bodyLimit);
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.rawHeaders));
      answer.on('data', (chunk: Buffer) => got.add(chunk));
      answer.pipe(res);
      answer.on('error', () => fail(502, 'the answer was cut'));
      answer.on('end', () => {
        const exchange: Exchange = {
          method: req.method ?? 'GET',
          url,
          requestHeaders: headerObject(req.rawHeaders),
          requestBody: sent.body(),
          status: answer.statusCode ?? 0,
          responseHeaders: headerObject(answer.rawHeaders),
          responseBody: got.body(),
        };
        this.settle(seq, at, exchange, sent.size, got.size);
      });
    });
  }

  private settle(seq: number, at: number, exchange: Exchange, sentSize: number, gotSize: number): void {
    const checked = this.checker.check(exchange);
    const path = exchange.url.split('?', 1)[0] as string;
    const operation = checked.operation?.operationId ?? unservedKey(exchange.method, path);
    const departures = checked.departures.map(redacted);
    const example = { method: exchange.method, path: redactUrl(exchange.url, REDACTED), status: exchange.status };
    this.options.store.record(operation, checked.operation?.api ?? apiOf(path), departures, example, at);
    for (const d of departures) {
      const key = `${operation}\u0000${d.direction}\u0000${d.kind}\u0000${d.field}\u0000${d.expected}\u0000${d.actual}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.options.onNewDeparture?.(operation, d);
    }
    if (!this.options.recorder) return;
    const record: RecordedExchange = {
      seq,
      at: new Date(at).toISOString(),
      api: apiOf(path),
      operation_id: checked.operation?.operationId ?? null,
      request: {
        method: exchange.method,
        path: recordedPath(exchange.url),
        ...recordedMessage(exchange.requestHeaders, exchange.requestBody, sentSize),
      },
      response: {
        status: exchange.status,
        ...recordedMessage(exchange.responseHeaders, exchange.responseBody, gotSize),
      },
    };
    this.options.recorder.settle(seq, record);
  }
}
