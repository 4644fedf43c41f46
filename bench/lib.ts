import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';

/** A server started in its own process, so it never shares an event loop with the load generator. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the line saying where it listens. */
  startupMs: number;
  /** Resident memory of the process and its children (workers), in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

const LISTENING = /listening on (https?:\/\/[^\s)]+)/i;

/** Spawns `command` and resolves once it prints `listening on <url>`. */
export function startProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number; log?: string } = {},
): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logFd = options.log ? fs.openSync(options.log, 'a') : undefined;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    if (logFd !== undefined) fs.writeSync(logFd, chunk);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let done = false;
    const timer = setTimeout(
      () => fail(new Error(`${command} ${args.join(' ')} did not start in time`)),
      options.timeoutMs ?? 60_000,
    );
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${stderr}`));
    };
    child.once('exit', (code) => fail(new Error(`${command} ${args.join(' ')} exited with ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      if (logFd !== undefined) fs.writeSync(logFd, chunk);
      if (done) return;
      out += chunk.toString();
      const match = LISTENING.exec(out);
      if (!match?.[1]) return;
      done = true;
      clearTimeout(timer);
      const startupMs = performance.now() - started;
      let stopping: Promise<void> | undefined;
      resolve({
        url: match[1].replace('localhost', '127.0.0.1').replace(/\/$/, ''),
        pid: child.pid as number,
        startupMs,
        rss: () => treeRss(child.pid as number),
        // Stopping twice (a pass that stops its server early, then its cleanup) waits for the one stop.
        stop: () => {
          stopping ??= stopChild(child, logFd);
          return stopping;
        },
      });
    });
  });
}

function stopChild(child: ChildProcess, logFd: number | undefined): Promise<void> {
  return new Promise((resolve) => {
    const close = () => {
      if (logFd !== undefined) fs.closeSync(logFd);
      resolve();
    };
    if (child.exitCode !== null || child.signalCode !== null) return close();
    child.removeAllListeners('exit');
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      close();
    });
    child.kill('SIGTERM');
  });
}

/** The process ids of a process and all its descendants (Linux /proc); just the root elsewhere. */
function treePids(root: number): number[] {
  const parents = new Map<number, number[]>();
  try {
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const list = parents.get(ppid) ?? [];
        list.push(Number(name));
        parents.set(ppid, list);
      } catch {
        // The process ended meanwhile.
      }
    }
  } catch {
    return [root];
  }
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...(parents.get(pids[i] as number) ?? []));
  return pids;
}

/** Clock ticks per second of /proc's CPU counters (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time of a process tree so far, in clock ticks, user and system apart; 0 where /proc is missing. */
export function treeCpuTimes(root: number): { user: number; system: number } {
  const times = { user: 0, system: 0 };
  for (const pid of treePids(root)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.user += Number(fields[11]);
      times.system += Number(fields[12]);
    } catch {
      // Gone.
    }
  }
  return times;
}

/** CPU time (user + system) of a process tree so far, in seconds; 0 where /proc is missing. */
export function treeCpuSeconds(root: number): number {
  return treeCpuTicks(root) / TICKS_PER_SECOND;
}

/** CPU time (user + system) of a process tree so far, in clock ticks; 0 where /proc is missing. */
export function treeCpuTicks(root: number): number {
  const { user, system } = treeCpuTimes(root);
  return user + system;
}

/**
 * Waits until a freshly started server is idle: its process tree used under 5% of a core over a quarter of a
 * second (at most `maxMs`). `atrium serve` compiles its route schemas in the background after it listens; a
 * measurement that started meanwhile would share the CPU with that warm-up.
 */
export async function settled(pid: number, maxMs = 20_000): Promise<void> {
  const until = performance.now() + maxMs;
  let last = treeCpuTicks(pid);
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = treeCpuTicks(pid);
    // Linux counts 100 ticks a second: 5% of a core over 250 ms is about 1 tick.
    if (now - last <= 1) return;
    last = now;
  }
}

/**
 * The node flags `atrium serve` runs with: those of the built CLI's shebang (`#!/usr/bin/env -S node …`), which
 * `npm start` repeats (test/cli/node-flags.test.ts). A measured server runs with them too: started as `node
 * dist/cli/main.js`, it would have none (V8 would keep about 100 MB more of heap).
 */
export function serverNodeFlags(root: string): string[] {
  const shebang = fs.readFileSync(path.join(root, 'dist/cli/main.js'), 'utf8').split('\n')[0] ?? '';
  return (/^#!\/usr\/bin\/env -S node((?: --\S+)*)$/.exec(shebang)?.[1] ?? '').split(' ').filter(Boolean);
}

/** RSS in bytes of a process and all its descendants (Linux /proc); 0 elsewhere. */
export function treeRss(root: number): number {
  let total = 0;
  for (const pid of treePids(root)) total += processRss(pid);
  return total;
}

/** RSS in bytes of one process (Linux /proc); 0 elsewhere or when it is gone. */
export function processRss(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** One load: a method and path (or paths to rotate through, one per request), headers and body. */
export interface Load {
  method?: 'GET' | 'POST' | 'PUT';
  path: string | (() => string);
  headers?: Record<string, string>;
  body?: string;
  /**
   * Awaited after each run of the load (warm-up included), inside the measured CPU window but outside the time
   * req/s is counted over: waits for background work the calls queued (webhook deliveries), so that its CPU time is
   * counted in this load's CPU per call and does not spill into the next load's window. Given the run's 2xx count.
   */
  after?: (answered2xx: number) => Promise<void>;
}

export interface LoadSettings {
  connections: number;
  /** Seconds of measurement. */
  duration: number;
  /** Seconds of warm-up, discarded. */
  warmup: number;
}

/** The measured server's process: its CPU time over a measurement, divided by the calls answered, is the yardstick. */
export interface Measured {
  url: string;
  pid: number;
}

export interface Measurement {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Bytes per second received. */
  throughput: number;
  /**
   * The server's CPU time (user + system, the process and its children) over the measured window, divided by the
   * requests answered in it, in microseconds (issue 23). Unlike req/s it does not depend on how much CPU the load
   * generator on the same cores left over. NaN where /proc is missing.
   */
  cpuUsPerCall: number;
  /** The server's CPU time over the window, in seconds. */
  cpuSeconds: number;
  /**
   * The user-mode part of `cpuUsPerCall`: the server's own code, without the kernel's work for it (sockets, and for
   * writes the database's file I/O, whose cost moves with the machine's disk activity).
   */
  cpuUserUsPerCall: number;
  /** The database server's CPU time over the same window per call (`watchDatabase`), NaN when none is watched. */
  dbCpuUsPerCall: number;
}

/** The database server's process (a PostgreSQL cluster the bench started), whose CPU is measured beside Atrium's. */
let databasePid: number | undefined;

/**
 * From now on, every measurement also reports the CPU time of `pid`'s process tree (a PostgreSQL postmaster and
 * its backends) per call: `dbCpuUsPerCall` (issue 23: "PostgreSQL's CPU reported beside it").
 */
export function watchDatabase(pid: number | undefined): void {
  databasePid = pid;
}

function cpuSeconds(
  pid: number,
  run: () => Promise<Result>,
): Promise<{ result: Result; seconds: number; userSeconds: number; dbSeconds: number }> {
  const before = treeCpuTimes(pid);
  const dbBefore = databasePid === undefined ? undefined : treeCpuTimes(databasePid);
  return run().then((result) => {
    const after = treeCpuTimes(pid);
    const dbAfter = databasePid === undefined ? undefined : treeCpuTimes(databasePid);
    const user = (after.user - before.user) / TICKS_PER_SECOND;
    const dbSeconds =
      dbBefore && dbAfter
        ? (dbAfter.user - dbBefore.user + dbAfter.system - dbBefore.system) / TICKS_PER_SECOND
        : Number.NaN;
    return { result, seconds: user + (after.system - before.system) / TICKS_PER_SECOND, userSeconds: user, dbSeconds };
  });
}

/** Whether /proc gives CPU times here (Linux); elsewhere CPU per call is NaN. */
const HAS_PROC = fs.existsSync('/proc/self/stat');

function perCall(seconds: number, requests: number): number {
  return HAS_PROC && requests > 0 ? (seconds * 1e6) / requests : Number.NaN;
}

async function run(url: string, load: Load, connections: number, duration: number): Promise<Result> {
  const result = await cannon(url, load, connections, duration);
  await load.after?.(result['2xx']);
  return result;
}

function cannon(url: string, load: Load, connections: number, duration: number): Promise<Result> {
  const { path } = load;
  return autocannon({
    url,
    connections,
    pipelining: 1,
    duration,
    timeout: 30,
    method: load.method ?? 'GET',
    headers: load.headers ?? {},
    ...(load.body !== undefined ? { body: load.body } : {}),
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: typeof path === 'string' ? path : path() }),
      },
    ],
  });
}

/** Warms up, then measures `load` against `server`. */
export async function measure(server: Measured, load: Load, settings: LoadSettings): Promise<Measurement> {
  const { url } = server;
  if (settings.warmup > 0) await run(url, load, settings.connections, settings.warmup);
  const { result, seconds, userSeconds, dbSeconds } = await cpuSeconds(server.pid, () =>
    run(url, load, settings.connections, settings.duration),
  );
  return {
    cpuUsPerCall: perCall(seconds, result.requests.total),
    dbCpuUsPerCall: perCall(dbSeconds, result.requests.total),
    cpuUserUsPerCall: perCall(userSeconds, result.requests.total),
    cpuSeconds: seconds,
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    throughput: result.throughput.average,
  };
}

/**
 * Measures loads that are compared with each other (a list at page 1 and deep, a route with and without its
 * guard) in alternation: each is warmed up, then each runs for a share of the duration in turn, round after round.
 * A drift of the machine's speed during the run (these cores are shared) then falls on all of them alike, instead
 * of on whichever ran last. autocannon runs whole seconds (0.4 s runs for 1 s), so a round is 2 s, or 1 s when the
 * duration is under 4 s, and there are as many rounds as fit the duration (at least one). Throughput is the total
 * over the rounds; p50 and p99 are the means of the rounds'.
 */
export async function measureInterleaved(
  server: Measured,
  loads: Load[],
  settings: LoadSettings,
): Promise<Measurement[]> {
  const { url } = server;
  if (settings.warmup > 0) for (const load of loads) await run(url, load, settings.connections, settings.warmup);
  const round = settings.duration >= 4 ? 2 : 1;
  const rounds = Math.max(1, Math.round(settings.duration / round));
  const parts: Result[][] = loads.map(() => []);
  const cpu = loads.map(() => 0);
  const user = loads.map(() => 0);
  const db = loads.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    for (const [i, load] of loads.entries()) {
      const { result, seconds, userSeconds, dbSeconds } = await cpuSeconds(server.pid, () =>
        run(url, load, settings.connections, round),
      );
      parts[i]?.push(result);
      cpu[i] = (cpu[i] ?? 0) + seconds;
      user[i] = (user[i] ?? 0) + userSeconds;
      db[i] = (db[i] ?? 0) + dbSeconds;
    }
  }
  return parts.map((results, i) => {
    const sum = (f: (x: Result) => number) => results.reduce((a, x) => a + f(x), 0);
    const seconds = sum((x) => x.duration);
    return {
      cpuUsPerCall: perCall(
        cpu[i] ?? 0,
        sum((x) => x.requests.total),
      ),
      cpuUserUsPerCall: perCall(
        user[i] ?? 0,
        sum((x) => x.requests.total),
      ),
      dbCpuUsPerCall: perCall(
        db[i] ?? 0,
        sum((x) => x.requests.total),
      ),
      cpuSeconds: cpu[i] ?? 0,
      reqPerSec: sum((x) => x.requests.total) / seconds,
      p50Ms: sum((x) => x.latency.p50) / results.length,
      p99Ms: sum((x) => x.latency.p99) / results.length,
      requests: sum((x) => x.requests.total),
      non2xx: sum((x) => x.non2xx),
      errors: sum((x) => x.errors + x.timeouts),
      throughput: sum((x) => x.throughput.total) / seconds,
    };
  });
}

/** A rotating supplier over a list, shared by every connection. */
export function rotate<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
