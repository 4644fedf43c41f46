/**
 * `npm run attack [-- --url http://127.0.0.1:PORT --credentials FILE]`: replays the hostile cases of issue 16
 * against a running server and prints a pass/fail table; exits 1 when a case fails. Not part of `npm test`.
 *
 * Without --url it builds nothing: it starts the built server (`dist/cli/main.js serve`, run `npm run build` first)
 * on 127.0.0.1 with a temporary SQLite data directory and `ATRIUM_REQUEST_TIMEOUT=10000`, and creates a client, a
 * read-only and a read-write application and an academy with the CLI. With --url (loopback only), --credentials
 * names a JSON file `{"hr": {"client_id", "application_id", "application_secret"}, "hr_write": {…the same…},
 * "academy": {"acadId", "apikey"}}` (`hr` read-only, `hr_write` a read-write application of the same client), and
 * --request-timeout-ms the server's ATRIUM_REQUEST_TIMEOUT (default 30000).
 *
 * Cases (docs/RELIABILITY.md): (a) validation amplification: 200,000 `employee_numbers` and 200,000 Academy
 * `userIds`, answer under 64 KiB while a concurrent GET is answered within 1 s; (b) a body sent at 1 byte/s and
 * headers sent at 1 byte/s are cut off within the request timeout (+5 s); (d) forged `kid`s (an array, a number,
 * 300 unknown ones) are all refused, never a 2xx or 5xx, and a valid token still works. Every loop is bounded in count and time; every
 * request goes to 127.0.0.1. (c) 70 failed logins from this address (after d's), then valid HR and Academy
 * credentials must still work. (1–4) the findings of issue 51 (scripts/attack-findings.ts): webhook read-back and
 * error oracle, and, on a second server of its own bound to 0.0.0.0, private receivers refused by default; signer
 * lock after five wrong codes; CSV formula escaping; the per-application lockout counted per address.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  applicationLockout,
  csvFormula,
  type HrCredentials,
  signingCodes,
  webhookReadBack,
  webhookRefusedByDefault,
} from './attack-findings.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    credentials: { type: 'string' },
    'request-timeout-ms': { type: 'string' },
  },
});

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const OWN_REQUEST_TIMEOUT_MS = 10_000;
/** The whole run is abandoned (and fails) after this long. */
const RUN_LIMIT_MS = 4 * 60_000;

interface Credentials {
  hr: HrCredentials;
  /** A read-write application of the same client, for the cases of issue 51. */
  hr_write: HrCredentials;
  academy: { acadId: number; apikey: string };
}

interface Result {
  case: string;
  pass: boolean;
  detail: string;
}

const results: Result[] = [];
const record = (name: string, pass: boolean, detail: string) => {
  results.push({ case: name, pass, detail });
  process.stderr.write(`${pass ? 'pass' : 'FAIL'}  ${name}: ${detail}\n`);
};

function run(env: Record<string, string>, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`atrium ${args.join(' ')}: ${err}`))));
  });
}

async function startOwnServer(
  host = '127.0.0.1',
): Promise<{ url: string; child: ChildProcess; creds: Credentials; dir: string }> {
  if (!fs.existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-attack-'));
  const env = {
    ATRIUM_DATA_DIR: dir,
    DATABASE_URL: '',
    ATRIUM_REQUEST_TIMEOUT: String(OWN_REQUEST_TIMEOUT_MS),
    LOG_LEVEL: 'warn',
  };
  const client = JSON.parse(await run(env, 'hr', 'create-client', '--name', 'attack', '--json')) as {
    client_id: string;
  };
  const app = JSON.parse(
    await run(
      env,
      'hr',
      'create-application',
      '--client-id',
      client.client_id,
      '--name',
      'ro',
      '--read-only',
      '--json',
    ),
  ) as Credentials['hr'];
  const writer = JSON.parse(
    await run(env, 'hr', 'create-application', '--client-id', client.client_id, '--name', 'rw', '--json'),
  ) as Credentials['hr'];
  const academy = JSON.parse(
    await run(env, 'academy', 'create', '--name', 'attack', '--json'),
  ) as Credentials['academy'];
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--host', host], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start within 30 s')), 30_000);
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^ ]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1].replace('localhost', '127.0.0.1').replace('0.0.0.0', '127.0.0.1'));
      }
    });
    child.on('exit', () => reject(new Error(`the server exited: ${out}`)));
  });
  return { url, child, creds: { hr: app, hr_write: writer, academy }, dir };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

async function hrToken(base: string, creds: Credentials['hr']): Promise<Response> {
  return fetch(`${base}/api/v2/client/tokens`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${creds.application_id}:${creds.application_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `grant_type=client_credentials&scope=client&client_id=${encodeURIComponent(creds.client_id)}`,
    signal: AbortSignal.timeout(30_000),
  });
}

/** (a) One huge invalid body, and a GET sent 100 ms later: the error's size, and how long the GET waited. */
async function amplification(name: string, base: string, url: string, headers: Record<string, string>, body: string) {
  const big = timed(async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
  });
  await new Promise((r) => setTimeout(r, 100));
  const get = await timed(async () => {
    const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(60_000) });
    await res.arrayBuffer();
    return res.status;
  });
  try {
    const answer = await big;
    const pass = answer.value.status < 500 && answer.value.bytes <= 64 * 1024 && get.ms < 1000;
    record(
      name,
      pass,
      `${answer.value.status}, ${answer.value.bytes} bytes in ${Math.round(answer.ms)} ms; concurrent GET answered in ${Math.round(get.ms)} ms (limits: 64 KiB, 1000 ms)`,
    );
  } catch (error) {
    record(name, false, `no answer: ${(error as Error).message}`);
  }
}

/** (b) A request trickled at 1 byte/s: the seconds until the server closes the connection (bounded). */
function trickle(base: string, head: string, rest: string, limitMs: number): Promise<number | undefined> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host: hostname, port: Number(port) });
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (value: number | undefined) => {
      if (timer) clearInterval(timer);
      clearTimeout(cap);
      socket.destroy();
      resolve(value);
    };
    const cap = setTimeout(() => done(undefined), limitMs);
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (i < rest.length && !socket.destroyed) socket.write(rest[i++] as string);
      }, 1000);
    });
    const closed = () => done(performance.now() - started);
    socket.on('close', closed);
    socket.on('error', closed);
    socket.on('data', () => {});
  });
}

async function slow(base: string, timeoutMs: number) {
  const limit = timeoutMs + 5000;
  const { host } = new URL(base);
  const body = `{"name":"${'x'.repeat(200)}"}`;
  const [bodyMs, headersMs] = await Promise.all([
    trickle(
      base,
      `POST /api/v2/client/tokens HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
      2 * timeoutMs + 15_000,
    ),
    trickle(
      base,
      'GET /healthz HTTP/1.1\r\n',
      `Host: ${host}\r\nX-Slow: ${'y'.repeat(200)}\r\n\r\n`,
      2 * timeoutMs + 15_000,
    ),
  ]);
  const show = (ms: number | undefined) =>
    ms === undefined ? 'still open' : `closed after ${(ms / 1000).toFixed(1)} s`;
  record(
    'b. slow body (1 byte/s)',
    bodyMs !== undefined && bodyMs <= limit,
    `${show(bodyMs)} (limit ${limit / 1000} s)`,
  );
  record(
    'b. slow headers (1 byte/s)',
    headersMs !== undefined && headersMs <= limit,
    `${show(headersMs)} (limit ${limit / 1000} s)`,
  );
}

async function lockout(base: string, creds: Credentials) {
  const statuses = new Map<number, number>();
  for (let i = 0; i < 70; i++) {
    const wrong = { ...creds.hr, application_id: randomUUID(), application_secret: 'wrong' };
    const res = i % 2 ? await hrToken(base, wrong) : await fetch(`${base}/v1/users?acadId=1&apikey=${randomUUID()}`);
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  const token = await hrToken(base, creds.hr);
  await token.arrayBuffer();
  const academy = await fetch(`${base}/v1/users?acadId=${creds.academy.acadId}&apikey=${creds.academy.apikey}`);
  await academy.arrayBuffer();
  const failures = [...statuses].map(([s, n]) => `${n}×${s}`).join(', ');
  record(
    'c. lockout: 70 failures, then valid credentials',
    token.status === 200 && academy.status === 200,
    `failures answered ${failures}; then HR token ${token.status}, Academy key ${academy.status}`,
  );
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function forgedToken(kid: unknown): string {
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64({ alg: 'HS256', typ: 'JWT', kid })}.${b64({ iss: 'atrium', sub: randomUUID(), cid: 'x', scope: 'client', jti: randomUUID(), iat: now, exp: now + 60 })}`;
  return `${input}.${createHmac('sha256', 'not-the-key').update(input).digest('base64url')}`;
}

async function forgedKids(base: string, creds: Credentials) {
  const valid = await hrToken(base, creds.hr);
  const { access_token: token } = (await valid.json()) as { access_token: string };
  const kids: unknown[] = [[randomUUID()], 7, { a: 1 }, 'k'.repeat(5000)];
  for (let i = 0; i < 300; i++) kids.push(randomUUID());
  const statuses = new Map<number, number>();
  const started = performance.now();
  for (let i = 0; i < kids.length && performance.now() - started < 60_000; i += 50) {
    const batch = await Promise.all(
      kids.slice(i, i + 50).map(async (kid) => {
        const res = await fetch(`${base}/api/v2/client/organizations`, {
          headers: { authorization: `Bearer ${forgedToken(kid)}` },
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    for (const s of batch) statuses.set(s, (statuses.get(s) ?? 0) + 1);
  }
  const after = await fetch(`${base}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${token}` } });
  await after.arrayBuffer();
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const accepted = [...statuses].filter(([s]) => s < 400 || s >= 500).reduce((a, [, n]) => a + n, 0);
  record(
    'd. forged kid (array, number, object, over-long, 300 unknown)',
    total === kids.length && accepted === 0 && after.status === 200,
    `${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')} of ${kids.length}; a valid token afterwards: ${after.status}`,
  );
}

/**
 * Issue 51, finding 1: a second server of its own, bound to every interface (0.0.0.0) with the default settings,
 * for the few seconds of one webhook test: a private receiver is refused there. Requests still go to 127.0.0.1.
 */
async function refusedByDefault(): Promise<void> {
  const wide = await startOwnServer('0.0.0.0');
  try {
    await webhookRefusedByDefault(wide.url, wide.creds.hr_write, record).catch((error: Error) =>
      record('1. default on a server bound to 0.0.0.0', false, error.message),
    );
  } finally {
    wide.child.kill('SIGTERM');
    await new Promise((r) => wide.child.once('exit', r));
    fs.rmSync(wide.dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let base: string;
  let creds: Credentials;
  let timeoutMs: number;
  let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;
  if (values.url) {
    const url = new URL(values.url);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
      throw new Error('--url must be a loopback address');
    if (!values.credentials) throw new Error('--url needs --credentials FILE');
    base = url.origin.replace('localhost', '127.0.0.1');
    creds = JSON.parse(fs.readFileSync(values.credentials, 'utf8')) as Credentials;
    timeoutMs = Number(values['request-timeout-ms'] ?? 30_000);
  } else {
    own = await startOwnServer();
    base = own.url;
    creds = own.creds;
    timeoutMs = OWN_REQUEST_TIMEOUT_MS;
  }
  const deadline = setTimeout(() => {
    process.stderr.write('attack: the run took longer than 4 minutes\n');
    own?.child.kill('SIGKILL');
    process.exit(1);
  }, RUN_LIMIT_MS);
  try {
    const tokenRes = await hrToken(base, creds.hr);
    if (tokenRes.status !== 200) throw new Error(`the HR credentials do not work: ${tokenRes.status}`);
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    await amplification(
      'a. 200k employee_numbers (read-only token)',
      base,
      `${base}/api/v2/client/employee_documents/search`,
      { authorization: `Bearer ${token}` },
      `{"employee_numbers":[${Array(200_000).fill(1).join(',')}]}`,
    );
    await amplification(
      'a. 200k Academy userIds',
      base,
      `${base}/v1/events/ilt/1/users?acadId=${creds.academy.acadId}&apikey=${creds.academy.apikey}`,
      {},
      `{"userIds":[${Array(200_000).fill('"x"').join(',')}]}`,
    );
    await slow(base, timeoutMs);
    for (const [name, finding] of [
      ['1. webhook read-back', webhookReadBack],
      ['2. signing codes', signingCodes],
      ['3. CSV formulas', csvFormula],
      ['4. application lockout', applicationLockout],
    ] as const) {
      await finding(base, creds.hr_write, record).catch((error: Error) => record(name, false, error.message));
    }
    if (own) await refusedByDefault();
    await forgedKids(base, creds);
    await lockout(base, creds);
  } finally {
    clearTimeout(deadline);
    if (own) {
      own.child.kill('SIGTERM');
      await new Promise((r) => own?.child.once('exit', r));
      fs.rmSync(own.dir, { recursive: true, force: true });
    }
  }
  const width = Math.max(...results.map((r) => r.case.length));
  process.stdout.write(`\n${'case'.padEnd(width)}  result  detail\n`);
  for (const r of results)
    process.stdout.write(`${r.case.padEnd(width)}  ${r.pass ? 'pass  ' : 'FAIL  '}  ${r.detail}\n`);
  const failed = results.filter((r) => !r.pass).length;
  process.stdout.write(`\n${results.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`attack: ${(error as Error).message}\n`);
  process.exit(1);
});
