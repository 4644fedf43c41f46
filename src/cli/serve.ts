import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';
import { buildApp } from '../app.js';
import type { Config, Role } from '../platform/config.js';
import { openDatabase } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { compilePendingSchemas } from '../platform/http/validation.js';
import { loggerOptions } from '../platform/logger.js';
import { collectGarbage } from '../platform/memory.js';
import type { MetricsServer, MetricsSource } from '../platform/metrics.js';
import { CliError } from './failure.js';

/** The metrics module, loaded only when metrics are on (prom-client takes a while to import). */
const metricsModule = () => import('../platform/metrics.js');

/** How long the primary waits for its workers to drain after SIGTERM before it kills them. */
const GRACE_EXTRA_MS = 10_000;
/** A worker that dies is started again after this pause (not during start-up: that is a fatal error). */
const RESTART_DELAY_MS = 1000;

function banner(
  url: string,
  dialect: string,
  workers: number,
  role: Role,
  metricsUrl?: string,
  adminUrl?: string,
): string {
  const base = url.replace('[::1]', 'localhost');
  const processes = `${workers > 1 ? `, ${workers} workers` : ''}${role === 'all' ? '' : `, role ${role}`}`;
  const metrics = metricsUrl ? `; metrics at ${metricsUrl.replace('[::1]', 'localhost')}/metrics` : '';
  const admin = adminUrl ? `; admin API at ${adminUrl.replace('[::1]', 'localhost')}/admin/v1` : '';
  // A `jobs` process serves no API: its port answers the health checks only.
  const served = role === 'jobs' ? `background jobs only, health at ${base}/healthz` : `API reference at ${base}/docs`;
  return `Atrium listening on ${base} (${dialect}${processes}); ${served}${metrics}${role === 'jobs' ? '' : admin}\n`;
}

/**
 * The metrics endpoint on its own port (`ATRIUM_METRICS_PORT`): this process's metrics, or in the primary of
 * `--workers N` every worker's, summed (docs/production.md, "Metrics").
 */
async function metricsEndpoint(
  config: Config,
  source: () => Promise<MetricsSource>,
  log: { error(obj: object, msg: string): void },
): Promise<MetricsServer | undefined> {
  if (config.metricsPort === undefined) return undefined;
  const { listenMetrics } = await metricsModule();
  return listenMetrics(await source(), config.metricsHost, config.metricsPort, (err: unknown) =>
    log.error({ err }, 'metrics could not be collected'),
  );
}

/**
 * `atrium serve`: one process, or with `workers > 1` a primary that applies the migrations once and then runs
 * that many workers with Node's cluster module, all accepting connections on the same port. A worker is one
 * ordinary server process: everything shared lives in the database (docs/SCALING.md).
 */
export async function serve(config: Config): Promise<void> {
  if (config.role !== 'all' && !config.databaseUrl) {
    // SQLite is one writer on one machine: an `api` process beside a `jobs` one would still share its write lock,
    // and an `api` process alone would leave every job pending. Roles are for PostgreSQL (docs/SCALING.md).
    throw new CliError(
      `--role ${config.role} (ATRIUM_ROLE) needs PostgreSQL (DATABASE_URL); on SQLite one process serves the APIs and runs the background jobs: use --role all`,
    );
  }
  if (cluster.isWorker) return serveOne(config, false);
  if (config.workers <= 1) return serveOne(config, true);
  return supervise(config);
}

/** One server process. SIGTERM/SIGINT (or, in a worker, losing the primary) drains in-flight requests, then exits. */
async function serveOne(config: Config, printBanner: boolean): Promise<void> {
  // A worker answers the primary's scrapes from its start (with nothing until its metrics exist), so a scrape
  // while a worker is being replaced does not wait for it.
  if (cluster.isWorker && config.metricsPort !== undefined) (await metricsModule()).answerPrimary(undefined);
  const app = await buildApp(config);
  const address = await app.server.listen({ port: config.port, host: config.host });
  const admin = await app.listenAdmin();
  let metricsServer: MetricsServer | undefined;
  if (app.metrics && cluster.isWorker) (await metricsModule()).answerPrimary(app.metrics);
  else if (app.metrics) {
    const { metrics } = app;
    const { processSource } = await metricsModule();
    metricsServer = await metricsEndpoint(config, async () => processSource(metrics), app.server.log);
  }
  if (printBanner)
    process.stdout.write(banner(address, app.database.dialect, 1, config.role, metricsServer?.url, admin?.url));
  // Route schemas compile on first use; compile the rest now, in the background, so first requests are fast. Then
  // collect the compilation's garbage (about 60 MB), which V8 would keep until its first full collection under load.
  compilePendingSchemas()
    .then(() => collectGarbage())
    .catch((err: unknown) => app.server.log.error({ err }, 'a route schema does not compile'));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.server.log.info({ signal }, 'draining in-flight requests');
    Promise.all([metricsServer?.close(), app.close()])
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.server.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (cluster.isWorker) process.on('disconnect', () => stop('primary gone'));
}

async function supervise(config: Config): Promise<void> {
  const log = pino(loggerOptions(config.logLevel));
  // Migrate once here, so that N workers starting together find the schema ready.
  const database = openDatabase(config);
  let dialect: string;
  try {
    await migrateToLatest(database);
    dialect = database.dialect;
  } finally {
    await database.close();
  }

  const listening = new Set<Worker>();
  let started = false;
  let stopping = false;
  let url = '';

  const fork = () => cluster.fork();

  // Installed before the first fork: a signal during start-up stops the workers too.
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: listening.size }, 'stopping workers');
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const exits = workers.map((w) =>
      w.isDead() ? Promise.resolve() : new Promise<void>((resolve) => w.once('exit', () => resolve())),
    );
    for (const w of workers) w.process.kill('SIGTERM');
    const deadline = setTimeout(() => {
      log.error('workers did not stop in time; killing them');
      for (const w of workers) if (!w.isDead()) w.process.kill('SIGKILL');
    }, config.requestTimeoutMs + GRACE_EXTRA_MS);
    deadline.unref();
    Promise.all(exits).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  // A worker that fails to start (the port in use…) sends its one-line reason before it exits (main.ts).
  let failure: string | undefined;
  cluster.on('message', (_worker, message: unknown) => {
    const line = (message as { atriumFailure?: unknown } | null)?.atriumFailure;
    if (typeof line === 'string') failure ??= line;
  });
  await new Promise<void>((resolve, reject) => {
    cluster.on('listening', (worker, address) => {
      // A worker's first port is the API's; a second one is the admin API's (ATRIUM_ADMIN_PORT).
      if (listening.has(worker)) return;
      listening.add(worker);
      const host = address.address.includes(':') ? `[${address.address}]` : address.address;
      url = `http://${host}:${address.port}`;
      if (!started && !stopping && listening.size === config.workers) {
        started = true;
        resolve();
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      listening.delete(worker);
      if (stopping) return;
      if (!started) {
        stopping = true;
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
        reject(
          failure
            ? new CliError(failure)
            : new Error(`a worker exited during start-up (code ${code ?? 'none'}, signal ${signal ?? 'none'})`),
        );
        return;
      }
      log.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
      setTimeout(() => {
        if (!stopping) fork();
      }, RESTART_DELAY_MS).unref();
    });
    for (let i = 0; i < config.workers; i++) fork();
  });
  // Scraped here, in the primary: it asks every worker for its metrics and sums them.
  const metricsServer = await metricsEndpoint(config, async () => (await metricsModule()).clusterSource(), log);
  const adminUrl = config.adminPort ? url.replace(/:\d+$/, `:${config.adminPort}`) : undefined;
  process.stdout.write(banner(url, dialect, config.workers, config.role, metricsServer?.url, adminUrl));
}
