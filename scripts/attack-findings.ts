/**
 * The cases of `npm run attack` for the four findings of issue 51 (docs/security.md), each through the public API
 * with a read-write HR application, every request to 127.0.0.1 (finding 4 also from 127.0.0.2–127.0.0.12, which
 * are loopback too):
 *
 * 1. a webhook pointed at an internal service on loopback shows none of its answer, and a closed port and an
 *    unknown name fail with the same text, naming neither an address nor an errno;
 * 2. five wrong access codes on the signing page lock the signer: the right code no longer signs;
 * 3. a name that starts a spreadsheet formula comes out of the CSV events export quoted with a leading `'`;
 * 4. 270 wrong secrets for an application, from eleven other addresses, do not stop its owner getting a token.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument } from '@cantoo/pdf-lib';

export interface HrCredentials {
  client_id: string;
  application_id: string;
  application_secret: string;
}

type Record_ = (name: string, pass: boolean, detail: string) => void;

const basic = (c: HrCredentials) =>
  `Basic ${Buffer.from(`${c.application_id}:${c.application_secret}`).toString('base64')}`;
const tokenBody = (c: HrCredentials) =>
  `grant_type=client_credentials&scope=client&client_id=${encodeURIComponent(c.client_id)}`;

/** A token request sent from `localAddress` (a loopback address other than 127.0.0.1): its status. */
function tokenFrom(base: string, creds: HrCredentials, localAddress: string): Promise<number> {
  const url = new URL(`${base}/api/v2/client/tokens`);
  const body = tokenBody(creds);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          authorization: basic(creds),
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
        timeout: 30_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** An HR caller of the read-write application: `call(method, path, body?, headers?)`. */
async function writer(base: string, creds: HrCredentials) {
  const res = await fetch(`${base}/api/v2/client/tokens`, {
    method: 'POST',
    headers: { authorization: basic(creds), 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenBody(creds),
  });
  if (res.status !== 200) throw new Error(`the read-write HR credentials do not work: ${res.status}`);
  const { access_token: token } = (await res.json()) as { access_token: string };
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v2/client${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined || Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
}
type Call = Awaited<ReturnType<typeof writer>>;

async function jsonOf<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

async function poll<T>(read: () => Promise<T | undefined>, limitMs = 30_000): Promise<T | undefined> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (value !== undefined || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Attempt {
  status: string;
  error: string | null;
  response_excerpt: string | null;
}

/** The first attempt of a webhook pointed at `url`, after a test event. */
async function firstAttempt(call: Call, url: string): Promise<Attempt | undefined> {
  const hook = await jsonOf<{ id: string }>(
    await call('POST', '/webhooks', { name: 'attack', events: ['*'], is_active: true, callback_url: url }),
    'POST /webhooks',
  );
  const tested = await call('POST', `/webhooks/${hook.id}/tests`);
  await tested.arrayBuffer();
  const attempt = await poll(async () => {
    const list = await jsonOf<Attempt[]>(await call('GET', `/webhooks/${hook.id}/deliveries`), 'deliveries');
    return list[0];
  });
  await (await call('DELETE', `/webhooks/${hook.id}`)).arrayBuffer();
  return attempt;
}

/** 1. Read-back SSRF and the error oracle. */
export async function webhookReadBack(base: string, creds: HrCredentials, record: Record_): Promise<void> {
  const call = await writer(base, creds);
  const secret = `INTERNAL-${randomUUID()}`;
  const internal = http.createServer((_req, res) => res.end(secret));
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  try {
    const port = (internal.address() as AddressInfo).port;
    const read = await firstAttempt(call, `http://127.0.0.1:${port}/admin`);
    const shown = read?.response_excerpt?.includes(secret) === true;
    record(
      '1. webhook at an internal service on loopback',
      read !== undefined && !shown,
      read === undefined
        ? 'no attempt recorded within 30 s'
        : `attempt ${read.status}, ${read.error ?? 'no error'}, excerpt ${read.response_excerpt === null ? 'none' : 'SHOWN'}`,
    );
    const refused = await firstAttempt(call, `http://127.0.0.1:${closedPort}/`);
    const unknown = await firstAttempt(call, 'http://no-such-host.invalid/hook');
    const oracle = /E[A-Z]{4,}|127\.0\.0\.1|resolve|\d+\.\d+\.\d+\.\d+/;
    const texts = [refused?.error ?? '(none)', unknown?.error ?? '(none)'];
    record(
      '1. closed port and unknown name: one error text',
      refused !== undefined && texts[0] === texts[1] && !texts.some((t) => oracle.test(t)),
      `closed port: "${texts[0]}"; unknown name: "${texts[1]}"`,
    );
  } finally {
    internal.close();
  }
}

/**
 * 1. On a server bound to every interface, with the default settings, a webhook at loopback is refused, and the
 * error says so without the address.
 */
export async function webhookRefusedByDefault(base: string, creds: HrCredentials, record: Record_): Promise<void> {
  const call = await writer(base, creds);
  const internal = http.createServer((_req, res) => res.end('internal'));
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  try {
    const port = (internal.address() as AddressInfo).port;
    const attempt = await firstAttempt(call, `http://127.0.0.1:${port}/`);
    record(
      '1. default on a server bound to 0.0.0.0: webhook at loopback',
      attempt?.status === 'failed' && /^refused/.test(attempt.error ?? '') && attempt.response_excerpt === null,
      attempt === undefined ? 'no attempt recorded within 30 s' : `attempt ${attempt.status}: ${attempt.error}`,
    );
  } finally {
    internal.close();
  }
}

/** 2. Five wrong access codes lock the signer; the sixth try, with the right code, does not sign. */
export async function signingCodes(base: string, creds: HrCredentials, record: Record_): Promise<void> {
  const call = await writer(base, creds);
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  const upload = await jsonOf<{ id: string }>(
    await call('POST', '/uploads', Buffer.from(await doc.save()), {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="attack.pdf"',
    }),
    'POST /uploads',
  );
  const process = await jsonOf<{ id: string }>(
    await call('POST', '/signature_processes', {
      signature_type_id: 'docusign',
      title: 'Attack',
      reason: 'Attack',
      upload_id: upload.id,
    }),
    'POST /signature_processes',
  );
  const code = randomUUID().slice(0, 6);
  const signer = await jsonOf<{ id: string }>(
    await call('POST', '/signers', {
      signature_process_id: process.id,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email_address: 'ada@example.com',
      access_code: code,
    }),
    'POST /signers',
  );
  await jsonOf(await call('PATCH', `/signature_processes/${process.id}`, { state: 'signing' }), 'start');
  const { signing_url: url } = await jsonOf<{ signing_url: string }>(
    await call('GET', `/signers/${signer.id}`),
    'GET /signers/{id}',
  );
  const typed = async (accessCode: string) => {
    const res = await fetch(`${url}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Ada Lovelace', access_code: accessCode }).toString(),
      redirect: 'manual',
    });
    await res.arrayBuffer();
    return res.status;
  };
  const wrong: number[] = [];
  for (let i = 0; i < 5; i++) wrong.push(await typed(`wrong-${i}`));
  const right = await typed(code);
  const state = (await jsonOf<{ state: string }>(await call('GET', `/signers/${signer.id}`), 'GET /signers/{id}'))
    .state;
  record(
    '2. signing page: 5 wrong codes, then the right one',
    right !== 303 && state === 'in_progress',
    `wrong codes answered ${wrong.join(', ')}; the right code then ${right}; the signer is ${state}`,
  );
}

/** 3. CSV injection in the events export. */
export async function csvFormula(base: string, creds: HrCredentials, record: Record_): Promise<void> {
  const call = await writer(base, creds);
  const id = `attack-${randomUUID().slice(0, 8)}`;
  const name = '=HYPERLINK("http://attacker.invalid","open")';
  await jsonOf(await call('PUT', `/organizations/${id}`, { name }), 'PUT /organizations');
  const res = await call('GET', '/events/export?resource_type=organization&action=created', undefined, {
    accept: 'text/csv',
  });
  const text = await res.text();
  const active = text.split('\n').filter((line) => /(^|,)"?[=+\-@\t\r]/.test(line));
  record(
    '3. CSV export of a name starting a formula',
    res.status === 200 && text.includes(`"'=HYPERLINK(`) && active.length === 0,
    `${res.status}; ${active.length} row(s) with a cell a spreadsheet would run`,
  );
}

/** 4. Wrong secrets for an application from other addresses do not lock its owner out. */
export async function applicationLockout(base: string, creds: HrCredentials, record: Record_): Promise<void> {
  const wrong = { ...creds, application_secret: `wrong-${randomUUID()}` };
  const statuses = new Map<number, number>();
  const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  for (let a = 2; a <= 11; a++) {
    for (let i = 0; i < 20; i++) count(await tokenFrom(base, wrong, `127.0.0.${a}`));
  }
  // One address goes past the limit with this application: locked from there (429), not elsewhere.
  for (let i = 0; i < 70; i++) count(await tokenFrom(base, wrong, '127.0.0.12'));
  const owner = await tokenFrom(base, creds, '127.0.0.1');
  const fromLocked = await tokenFrom(base, creds, '127.0.0.12');
  record(
    '4. 270 wrong secrets for an application from 11 addresses',
    owner === 200 && fromLocked === 429,
    `${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')}; then its owner: ${owner}, the locked address with the right secret: ${fromLocked}`,
  );
}
