/**
 * `npm run bench -- --peers` (issue 23): Atrium beside two servers an integrator might use instead, in the same run
 * with the same autocannon settings, on two endpoints: an event GET by id and a list of 20 events.
 *
 * - json-server 0.17 serves a `db.json` of the same events Atrium serves (their detail documents under `events`,
 *   their list items under `list`), so both answer the same JSON;
 * - Prism 5 mocks Atrium's own OpenAPI document (`/docs/json`), answering from its examples and schemas.
 *
 * Each server runs in its own process, started here. Reported: req/s (the comparison), the ratio of
 * Atrium's req/s to each peer's, and each server's CPU per call.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  type Load,
  type LoadSettings,
  type Measurement,
  measure,
  rotate,
  type ServerProcess,
  startProcess,
} from './lib.js';

export interface PeerRow {
  endpoint: 'event-get' | 'events-list';
  server: 'atrium' | 'json-server' | 'prism';
  measurement: Measurement;
}

export interface PeersResult {
  events: number;
  rows: PeerRow[];
  /** Atrium's req/s over each peer's, per endpoint. */
  ratios: { endpoint: string; peer: string; ratio: number }[];
}

interface Academy {
  acadId: number | string;
  apikey: string;
}

/** How many events are copied into json-server's db.json and rotated through by the GETs. */
const EVENTS = 500;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function runPeers(
  root: string,
  atrium: ServerProcess,
  academy: Academy,
  eventIds: readonly number[],
  settings: LoadSettings,
  say: (line: string) => void,
): Promise<PeersResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-peers-'));
  const auth = `acadId=${academy.acadId}&apikey=${academy.apikey}`;
  try {
    // The same events Atrium serves: details for the GETs, list items for the list.
    const ids = eventIds.slice(0, EVENTS);
    const details: unknown[] = [];
    for (const id of ids) details.push(await getJson(`${atrium.url}/v1/events/ilt/${id}?${auth}`));
    const list = (await getJson(`${atrium.url}/v1/events/ilt?limit=100&${auth}`)) as unknown[];
    const db = path.join(dir, 'db.json');
    fs.writeFileSync(db, JSON.stringify({ events: details, list }));
    const spec = path.join(dir, 'openapi.json');
    fs.writeFileSync(spec, JSON.stringify(await getJson(`${atrium.url}/docs/json`)));

    // Each server's GETs rotate through the same ids, each with its own rotation.
    const byId = (path: (id: number) => string) => {
      const next = rotate(ids);
      return () => path(next());
    };
    const loads: Record<PeerRow['server'], Record<PeerRow['endpoint'], Load>> = {
      atrium: {
        'event-get': {
          path: byId((id) => `/v1/events/ilt/${id}?${auth}`),
        },
        'events-list': { path: `/v1/events/ilt?limit=20&${auth}` },
      },
      'json-server': {
        'event-get': {
          path: byId((id) => `/events/${id}`),
        },
        'events-list': { path: '/list?_limit=20' },
      },
      prism: {
        'event-get': {
          path: byId((id) => `/v1/events/ilt/${id}?${auth}`),
        },
        'events-list': { path: `/v1/events/ilt?limit=20&${auth}` },
      },
    };
    const starters: Record<Exclude<PeerRow['server'], 'atrium'>, () => Promise<ServerProcess>> = {
      'json-server': () =>
        startProcess(process.execPath, [path.join(root, 'bench/peers/json-server.cjs'), db], { ...process.env }),
      prism: async () =>
        startProcess(
          process.execPath,
          [
            path.join(root, 'node_modules/@stoplight/prism-cli/dist/index.js'),
            'mock',
            '--host',
            '127.0.0.1',
            '--port',
            String(await freePort()),
            spec,
          ],
          { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
          { timeoutMs: 120_000 },
        ),
    };

    const rows: PeerRow[] = [];
    const endpoints: PeerRow['endpoint'][] = ['event-get', 'events-list'];
    for (const endpoint of endpoints) {
      say(`[peers] atrium ${endpoint}`);
      await primed(atrium.url, loads.atrium[endpoint]);
      rows.push({ endpoint, server: 'atrium', measurement: await measure(atrium, loads.atrium[endpoint], settings) });
    }
    for (const peer of ['json-server', 'prism'] as const) {
      const server = await starters[peer]();
      try {
        for (const endpoint of endpoints) {
          say(`[peers] ${peer} ${endpoint}`);
          // One answered call first: a peer's first answer (Prism builds its mock from the schema) can take longer
          // than a smoke run's one-second window, which would then count no call at all.
          await primed(server.url, loads[peer][endpoint]);
          const measurement = await measure(server, loads[peer][endpoint], settings);
          if (measurement.non2xx || measurement.errors)
            say(`  !! ${peer} ${endpoint}: ${measurement.non2xx} non-2xx answers, ${measurement.errors} errors`);
          rows.push({ endpoint, server: peer, measurement });
        }
      } finally {
        await server.stop();
      }
    }
    const ratios = endpoints.flatMap((endpoint) => {
      const mine = rows.find((r) => r.endpoint === endpoint && r.server === 'atrium')?.measurement.reqPerSec ?? 0;
      return (['json-server', 'prism'] as const).map((peer) => ({
        endpoint,
        peer,
        ratio: mine / (rows.find((r) => r.endpoint === endpoint && r.server === peer)?.measurement.reqPerSec ?? 0),
      }));
    });
    return { events: ids.length, rows, ratios };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends the load's request once and waits for its whole answer (any status: the measurement counts those). */
async function primed(url: string, load: Load): Promise<void> {
  const target = typeof load.path === 'function' ? load.path() : load.path;
  const res = await fetch(`${url}${target}`, {
    method: load.method ?? 'GET',
    ...(load.headers ? { headers: load.headers } : {}),
    ...(load.body !== undefined ? { body: load.body } : {}),
  });
  await res.arrayBuffer();
}
