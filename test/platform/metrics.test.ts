/**
 * `GET /metrics` (issue 17, item 16): off by default; with `ATRIUM_METRICS_PORT`, a Prometheus endpoint on its own
 * port whose request counts move with the right labels, whose unmatched URLs share one series, and which carries
 * the PostgreSQL pool's gauges, the process metrics and gauges other modules add.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { listenMetrics, type MetricsServer, processSource } from '../../src/platform/metrics.js';
import { dialects, hrCaller, startServer, type TestServer } from '../support/harness.js';

const DURATION = 'atrium_http_request_duration_seconds';

/** The samples of one metric in Prometheus text: labels (as written) → value. */
function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}

const labels = (api: string, operation: string, status: number) =>
  `{api="${api}",operation="${operation}",status="${status}"}`;

for (const dialect of dialects()) {
  describe(`metrics on (${dialect})`, () => {
    let server: TestServer;
    let endpoint: MetricsServer;
    const scrape = async () => {
      const res = await fetch(`${endpoint.url}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      return res.text();
    };
    const count = async (api: string, operation: string, status: number) =>
      samples(await scrape(), `${DURATION}_count`).get(labels(api, operation, status)) ?? 0;

    before(async () => {
      server = await startServer(dialect, { ATRIUM_METRICS_PORT: '0' });
      const metrics = server.app.metrics;
      assert.ok(metrics, 'metrics are on');
      endpoint = await listenMetrics(processSource(metrics), '127.0.0.1', 0, (error) => {
        throw error;
      });
    });
    after(async () => {
      await endpoint?.close();
      await server?.close();
    });

    it('counts requests by API, operation (method and route pattern) and status', async () => {
      const hr = await hrCaller(server);
      const before = {
        health: await count('platform', 'GET /healthz', 200),
        missing: await count('hr', 'GET /api/v2/client/organizations/:id', 404),
      };
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      // Two ids, one series: the pattern, never the URL.
      assert.equal((await hr.call('GET', '/organizations/nope-1')).status, 404);
      assert.equal((await hr.call('GET', '/organizations/nope-2')).status, 404);
      const academy = await fetch(`${server.url}/v1/events/vc?acadId=1&apikey=wrong`);
      assert.equal(academy.status, 401);

      const text = await scrape();
      const counts = samples(text, `${DURATION}_count`);
      assert.equal(counts.get(labels('platform', 'GET /healthz', 200)), before.health + 3, text);
      assert.equal(counts.get(labels('hr', 'GET /api/v2/client/organizations/:id', 404)), before.missing + 2, text);
      assert.equal(counts.get(labels('hr', 'POST /api/v2/client/tokens', 200)), 1, text);
      assert.equal(counts.get(labels('academy', 'GET /v1/events/vc', 401)), 1, text);
      assert.ok(!text.includes('nope-1'), 'no raw URL in the labels');
      // The histogram: every bucket and the sum of the series.
      const buckets = samples(text, `${DURATION}_bucket`);
      assert.equal(
        buckets.get('{le="+Inf",api="platform",operation="GET /healthz",status="200"}'),
        before.health + 3,
        text,
      );
      assert.ok((samples(text, `${DURATION}_sum`).get(labels('platform', 'GET /healthz', 200)) ?? -1) >= 0, text);
    });

    it('unmatched URLs, however many, are one series per API and status', async () => {
      const hr = await hrCaller(server);
      const random = () => randomBytes(6).toString('hex');
      for (let i = 0; i < 5; i++) {
        assert.equal((await hr.call('GET', `/no-such-${random()}/${random()}`)).status, 404);
        assert.equal((await fetch(`${server.url}/v1/no-such-${random()}?acadId=${random()}`)).status, 404);
        assert.equal((await fetch(`${server.url}/no-such-${random()}`)).status, 404);
      }
      // A wrong method on a known path: 405, also unmatched.
      assert.equal((await hr.call('DELETE', '/tokens')).status, 405);
      const text = await scrape();
      const counts = samples(text, `${DURATION}_count`);
      assert.equal(counts.get(labels('hr', 'unmatched', 404)), 5, text);
      assert.equal(counts.get(labels('academy', 'unmatched', 404)), 5, text);
      assert.equal(counts.get(labels('platform', 'unmatched', 404)), 5, text);
      assert.equal(counts.get(labels('hr', 'unmatched', 405)), 1, text);
      assert.ok(!text.includes('no-such-'), 'no raw URL in the labels');
      const operations = new Set([...counts.keys()].map((k) => /operation="([^"]*)"/.exec(k)?.[1]));
      for (const operation of operations) {
        assert.match(operation ?? '', /^(unmatched|[A-Z,]+ \/[^ ]*)$/, `operation label ${operation}`);
      }
    });

    it('has the process metrics, the build and the pool gauges on PostgreSQL', async () => {
      const text = await scrape();
      for (const name of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
      ]) {
        assert.ok(samples(text, name).size > 0, `${name} is exported`);
      }
      assert.match(text, /^atrium_build_info\{version="[^"]+",commit="[0-9a-f]*",node="v\d+\.\d+\.\d+"\} 1$/m);
      const pool = samples(text, 'atrium_db_pool_connections');
      if (dialect === 'postgres') {
        assert.ok((pool.get('{state="total"}') ?? 0) >= 1, text);
        assert.ok((pool.get('{state="idle"}') ?? -1) >= 0, text);
        assert.equal(samples(text, 'atrium_db_pool_waiting').get(''), 0, text);
        assert.equal(samples(text, 'atrium_db_pool_max').get(''), server.config.dbPoolSize, text);
      } else {
        assert.equal(pool.size, 0, 'SQLite has no pool');
        assert.equal(samples(text, 'atrium_db_pool_max').size, 0, 'SQLite has no pool');
      }
    });

    it('exports the event loop’s longest delay, since the previous scrape and since the start', async () => {
      await scrape();
      // The loop held for a while, as a long synchronous stretch would: the next scrape's window has seen it.
      await new Promise((resolve) => setTimeout(resolve, 30));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      await new Promise((resolve) => setTimeout(resolve, 30));
      const first = samples(await scrape(), 'atrium_event_loop_delay_max_seconds');
      const held = first.get('{since="scrape"}') ?? -1;
      assert.ok(held > 0, `the stall is seen: ${[...first]}`);
      assert.ok((first.get('{since="start"}') ?? -1) >= held, 'the maximum since the start holds it');
      const second = samples(await scrape(), 'atrium_event_loop_delay_max_seconds');
      assert.ok((second.get('{since="start"}') ?? -1) >= held, 'and keeps it at the next scrape');
      assert.ok((second.get('{since="scrape"}') ?? -1) >= 0);
    });

    it('takes gauges from other modules (the queue-depth hook), read at each scrape', async () => {
      let depth = 3;
      server.app.metrics?.addGauge({ name: 'atrium_test_queue_depth', help: 'A test queue.', read: () => depth });
      server.app.metrics?.addGauge({
        name: 'atrium_test_queue_by_kind',
        help: 'A test queue, by kind.',
        labelNames: ['kind'],
        read: async () => [
          [{ kind: 'a' }, depth],
          [{ kind: 'b' }, 1],
        ],
      });
      assert.equal(samples(await scrape(), 'atrium_test_queue_depth').get(''), 3);
      depth = 7;
      const text = await scrape();
      assert.equal(samples(text, 'atrium_test_queue_depth').get(''), 7);
      assert.equal(samples(text, 'atrium_test_queue_by_kind').get('{kind="a"}'), 7);
      assert.equal(samples(text, 'atrium_test_queue_by_kind').get('{kind="b"}'), 1);
    });

    it('its own server answers /metrics only', async () => {
      const other = await fetch(`${endpoint.url}/other`);
      assert.equal(other.status, 404);
      const post = await fetch(`${endpoint.url}/metrics`, { method: 'POST' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      const head = await fetch(`${endpoint.url}/metrics?x=1`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      // The API's port has no /metrics.
      assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
    });
  });
}

describe('metrics off (the default)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite');
  });
  after(async () => server?.close());

  it('has no metrics and no /metrics', async () => {
    assert.equal(server.config.metricsPort, undefined);
    assert.equal(server.app.metrics, undefined);
    assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
  });
});

describe('metrics settings', () => {
  it('ATRIUM_METRICS_PORT: unset is off, a port is on, nonsense is refused', () => {
    assert.equal(loadConfig({}).metricsPort, undefined);
    assert.equal(loadConfig({ ATRIUM_METRICS_PORT: '' }).metricsPort, undefined);
    assert.equal(loadConfig({ ATRIUM_METRICS_PORT: '9464' }).metricsPort, 9464);
    assert.equal(loadConfig({}).metricsHost, '127.0.0.1');
    assert.equal(loadConfig({ ATRIUM_METRICS_HOST: '0.0.0.0' }).metricsHost, '0.0.0.0');
    assert.throws(() => loadConfig({ ATRIUM_METRICS_PORT: 'on' }), ConfigError);
    assert.throws(() => loadConfig({ ATRIUM_METRICS_PORT: '70000' }), ConfigError);
    assert.throws(() => loadConfig({ ATRIUM_METRICS_PORT: '8080' }), /must differ from PORT/);
    assert.throws(() => loadConfig({ ATRIUM_METRICS_PORT: '9000' }, { port: 9000 }), /must differ from PORT/);
  });

  it('the api label: by prefix, not by a prefix that only starts the same', () => {
    assert.equal(apiOf('/api/v2/client/organizations'), 'hr');
    assert.equal(apiOf('/api/v2/client'), 'hr');
    assert.equal(apiOf('/api/v2/client?x=1'), 'hr');
    assert.equal(apiOf('/api/v2/clientele'), 'platform');
    assert.equal(apiOf('/v1/events/vc'), 'academy');
    assert.equal(apiOf('/v10'), 'platform');
    assert.equal(apiOf('/healthz'), 'platform');
  });
});
