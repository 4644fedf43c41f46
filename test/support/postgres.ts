import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const PG_BIN = process.env.ATRIUM_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Cluster {
  /** Admin URL of the cluster's `postgres` database. */
  url: string;
  /** The postmaster's process id (its backends are its children). */
  pid: number;
  stop(): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export function postgresAvailable(): boolean {
  return fs.existsSync(path.join(PG_BIN, 'initdb')) && fs.existsSync(path.join(PG_BIN, 'pg_ctl'));
}

/** PostgreSQL refuses to run as root: run its tools as an unprivileged user when we are root. */
function runAs(): string[] {
  if (process.getuid?.() !== 0) return [];
  const user = spawnSync('id', ['-u', 'postgres']).status === 0 ? 'postgres' : 'nobody';
  return ['runuser', '-u', user, '--'];
}

function run(args: string[]): void {
  const prefix = runAs();
  const [cmd, ...rest] = [...prefix, ...args] as [string, ...string[]];
  execFileSync(cmd, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Starts a throwaway cluster in a temporary directory, on a free port, tuned for tests (no fsync). */
export async function startCluster(): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-pg-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data);
  if (process.getuid?.() === 0) {
    const user = runAs()[2] as string;
    execFileSync('chown', ['-R', user, dir]);
  }
  const port = await freePort();
  run([path.join(PG_BIN, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale']);
  run([
    path.join(PG_BIN, 'pg_ctl'),
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
    'start',
  ]);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run([path.join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
