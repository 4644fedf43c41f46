import cluster from 'node:cluster';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/**
 * Prometheus metrics (`GET /metrics` on `ATRIUM_METRICS_PORT`; docs/production.md, "Metrics"). This module loads prom-client,
 * which takes a noticeable time to import: it is imported (dynamically) only when metrics are on, so a server
 * without them neither loads it nor runs any of its hooks.
 */

/** Latency buckets, in seconds: from a cached read (about a millisecond) to the request timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One series of the request histogram: one route (API and operation) and one status. */
class Series {
  /** Requests per bucket (not cumulative), the last one past every bound. */
  readonly counts = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;
  constructor(readonly labels: Readonly<Record<'api' | 'operation' | 'status', string>>) {}
}

/**
 * A route's share of the request histogram, made once when the route is registered: its labels are fixed, and
 * `observe` is a lookup by status and a few comparisons, with nothing allocated. (prom-client's own
 * `Histogram.observe` builds a key string from the labels and converts the bucket bound to a property name on every
 * call: about 1 to 2 µs here, against some 20 ns for this; docs/production.md, "Metrics".)
 */
export class RouteMetrics {
  private readonly byStatus: Array<Series | undefined> = [];
  constructor(
    /** `hr`, `academy` or `platform` (health checks, docs, the OpenAPI document). */
    readonly api: string,
    /**
     * The route's method and pattern, `GET /api/v2/client/organizations/:id`, or `unmatched` for a request no route
     * matched (404, 405): one series per API and status, whatever the URL.
     */
    readonly operation: string,
    private readonly all: Series[],
  ) {}

  /** Records one response: the only work metrics add to a request. */
  observe(status: number, milliseconds: number): void {
    let series = this.byStatus[status];
    if (series === undefined) {
      series = new Series({ api: this.api, operation: this.operation, status: String(status) });
      this.byStatus[status] = series;
      this.all.push(series);
    }
    const seconds = milliseconds / 1000;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[i] as number)) i++;
    (series.counts[i] as number)++;
    series.sum += seconds;
    series.count++;
  }
}

type MetricValue = { value: number; labels: Record<string, string | number>; metricName: string };

/**
 * The request histogram, as prom-client's registry reads a metric (`get()`, in the shape its own Histogram gives,
 * so that its text format and the cluster's sum apply unchanged).
 */
class RequestHistogram {
  readonly name = 'atrium_http_request_duration_seconds';
  readonly help =
    'Time from receiving a request to the end of its response, by API, operation (method and route pattern) and status. Its _count is the number of requests.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly series: Series[] = [];

  get() {
    const values: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += s.counts[i] as number;
        values.push({ value: cumulative, labels: { le, ...s.labels }, metricName: bucket });
      });
      values.push({ value: s.count, labels: { le: '+Inf', ...s.labels }, metricName: bucket });
      values.push({ value: s.sum, labels: { ...s.labels }, metricName: `${this.name}_sum` });
      values.push({ value: s.count, labels: { ...s.labels }, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** One labelled value of a gauge: its labels (if the gauge has any) and its value. */
export type GaugeSample = number | ReadonlyArray<readonly [Record<string, string>, number]>;

/** A gauge other modules add (queue depths, caches…): read when /metrics is scraped, never on a request's path. */
export interface GaugeDefinition {
  /** A Prometheus metric name, `atrium_` first: `atrium_jobs_queue_depth`. */
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** The current value, or one value per label set; called at each scrape (it may be async: a count query). */
  read(): GaugeSample | Promise<GaugeSample>;
}

/** The connection pool of a PostgreSQL database (pg's `Pool`), as the gauges read it. */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/**
 * One process's metrics. The HTTP layer makes a `RouteMetrics` per route when the route is registered and calls its
 * `observe` once per response; everything else (the pool, queues, the process itself) is read at scrape time.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestHistogram();
  private readonly refused: Counter<'status'>;

  constructor(options: { version: string; commit: string | null; node: string }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // A metric as the registry reads one (name, get()); prom-client types only its own classes.
    this.registry.registerMetric(this.requests as unknown as Counter);
    this.refused = new Counter({
      name: 'atrium_http_refused_requests_total',
      help: "Requests Node's HTTP parser refused before any route (headers too large, malformed, too slow), by status.",
      labelNames: ['status'],
      registers,
    });
    const info = new Gauge({
      name: 'atrium_build_info',
      help: 'Always 1; the labels say what is running.',
      labelNames: ['version', 'commit', 'node'],
      registers,
      aggregator: 'max',
    });
    info.set({ version: options.version, commit: options.commit ?? '', node: options.node }, 1);
    loopDelayGauge(registers);
  }

  /** A route's requests (or, with `operation` `unmatched`, those of an API that matched no route). */
  route(api: string, operation: string): RouteMetrics {
    return new RouteMetrics(api, operation, this.requests.series);
  }

  /** Counts a request the HTTP parser refused (it never reached a route, so it has no operation). */
  refusedRequest(status: number): void {
    this.refused.inc({ status: String(status) });
  }

  /**
   * Adds a gauge read at each scrape. This is the hook for the parts that have queues (background jobs, webhook
   * deliveries): they register `atrium_<name>_queue_depth` here when they are built.
   */
  addGauge(definition: GaugeDefinition): void {
    const labelNames = [...(definition.labelNames ?? [])];
    new Gauge({
      name: definition.name,
      help: definition.help,
      labelNames,
      registers: [this.registry],
      async collect() {
        const sample = await definition.read();
        this.reset();
        if (typeof sample === 'number') this.set(sample);
        else for (const [labels, value] of sample) this.set(labels, value);
      },
    });
  }

  /** The gauges of a PostgreSQL connection pool (per process; summed over the workers of `--workers N`). */
  addPool(pool: PoolStats, max: number): void {
    this.addGauge({
      name: 'atrium_db_pool_connections',
      help: 'PostgreSQL connections of the pool, open (total) and, of those, idle.',
      labelNames: ['state'],
      read: () => [
        [{ state: 'total' }, pool.totalCount],
        [{ state: 'idle' }, pool.idleCount],
      ],
    });
    this.addGauge({
      name: 'atrium_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL connection because every connection of the pool is busy.',
      read: () => pool.waitingCount,
    });
    this.addGauge({
      name: 'atrium_db_pool_max',
      help: 'The PostgreSQL pool size (ATRIUM_DB_POOL_SIZE).',
      read: () => max,
    });
  }
}

/** How often the event loop's delay is sampled (ms): a stall shorter than this may go unseen. */
const LOOP_DELAY_RESOLUTION_MS = 10;

/**
 * `atrium_event_loop_delay_max_seconds`: the longest the event loop was held (a timer fired late by this much,
 * `monitorEventLoopDelay`), since the previous scrape and since the process started (docs/RELIABILITY.md, "Bounded
 * work per tick"). The maximum of the workers under `--workers N`.
 */
function loopDelayGauge(registers: Registry[]): void {
  const delay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  delay.enable();
  let sinceStart = 0;
  new Gauge({
    name: 'atrium_event_loop_delay_max_seconds',
    help: 'The longest delay of the event loop (a timer fired this late): since the previous scrape, and since the start.',
    labelNames: ['since'],
    registers,
    aggregator: 'max',
    collect() {
      // The histogram records nothing before its first sample: its max is then 0.
      const max = delay.count > 0 ? delay.max / 1e9 : 0;
      delay.reset();
      sinceStart = Math.max(sinceStart, max);
      this.set({ since: 'scrape' }, max);
      this.set({ since: 'start' }, sinceStart);
    },
  });
}

/** What the metrics endpoint serves: this process's registry, or the sum over a cluster's workers. */
export interface MetricsSource {
  contentType: string;
  render(): Promise<string>;
}

export function processSource(metrics: Metrics): MetricsSource {
  return { contentType: metrics.registry.contentType, render: () => metrics.registry.metrics() };
}

/**
 * In a worker of `serve --workers N`: answer the primary's requests for this process's metrics (over the cluster's
 * IPC channel; prom-client's AggregatorRegistry protocol). Before the worker's metrics exist (`undefined`, while it
 * starts) it answers with none, so that a scrape never waits for a starting worker.
 */
export function answerPrimary(metrics: Metrics | undefined): void {
  AggregatorRegistry.setRegistries(metrics ? [metrics.registry] : []);
  // Constructing one installs the worker's listener (once).
  new AggregatorRegistry();
}

/**
 * In the primary of `serve --workers N`: every worker's metrics, summed (counters, histograms, gauges; the event
 * loop figures averaged, the start time omitted). A worker that does not answer within five seconds fails the scrape.
 */
export function clusterSource(): MetricsSource {
  if (!cluster.isPrimary) throw new Error('clusterSource() runs in the primary');
  const registry = new AggregatorRegistry();
  return { contentType: registry.contentType, render: () => registry.clusterMetrics() };
}

export interface MetricsServer {
  /** `http://host:port`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics endpoint's own HTTP server: `GET /metrics` (and `HEAD`), nothing else (404; another method: 405). It
 * shares nothing with the API server, so the API's limits, logs and error formats do not apply, and a firewall can
 * keep its port private.
 */
export async function listenMetrics(
  source: MetricsSource,
  host: string,
  port: number,
  onError: (error: unknown) => void,
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const plain = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (path !== '/metrics') return plain(404, 'Not found: the metrics are at /metrics.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    source.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': source.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        plain(503, 'The metrics could not be collected; see the server log.\n');
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
