import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AcademyClient,
  type AcademyClientOptions,
  HrClient,
  type HrClientOptions,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
} from '@atrium/client';
import { type Credentials, createCredentials, type TestServer } from './harness.js';

/** Every call a client made, as its `fetch` saw it, and every hook event. */
export interface Recorder {
  /** `METHOD path` of each fetch, in order (query included). */
  calls: string[];
  requests: RequestEvent[];
  responses: ResponseEvent[];
  retries: RetryEvent[];
  /** How many `POST /tokens` the client sent. */
  tokenRequests(): number;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  hooks: Pick<HrClientOptions, 'onRequest' | 'onResponse' | 'onRetry'>;
}

export function recorder(inner: (input: string, init: RequestInit) => Promise<Response> = fetch): Recorder {
  const r: Recorder = {
    calls: [],
    requests: [],
    responses: [],
    retries: [],
    tokenRequests: () => r.calls.filter((c) => c.startsWith('POST /api/v2/client/tokens')).length,
    fetch: (input, init) => {
      const url = new URL(input);
      r.calls.push(`${init.method ?? 'GET'} ${url.pathname}${url.search}`);
      return inner(input, init);
    },
    hooks: {
      onRequest: (e) => r.requests.push(e),
      onResponse: (e) => r.responses.push(e),
      onRetry: (e) => r.retries.push(e),
    },
  };
  return r;
}

/** An HR client on a new tenant of the server, with a recorder on its fetch and hooks. */
export async function sdkHr(
  server: TestServer,
  options: Partial<HrClientOptions> & { readOnly?: boolean; creds?: Credentials; url?: string } = {},
): Promise<{ hr: HrClient; creds: Credentials; rec: Recorder }> {
  const { readOnly, creds: given, url, ...rest } = options;
  const creds = given ?? (await createCredentials(server, { readOnly: readOnly ?? false }));
  const rec = recorder(rest.fetch);
  const hr = new HrClient({
    baseUrl: url ?? server.url,
    applicationId: creds.application_id,
    applicationSecret: creds.application_secret,
    clientId: creds.client_id,
    initialRetryDelayMs: 20,
    ...rec.hooks,
    ...rest,
    fetch: rec.fetch,
  });
  return { hr, creds, rec };
}

/** An Academy client for an academy with credentials `acadId` / `apikey`. */
export function sdkAcademy(
  url: string,
  acad: { acadId: number; apikey: string },
  options: Partial<AcademyClientOptions> = {},
): { academy: AcademyClient; rec: Recorder } {
  const rec = recorder(options.fetch);
  const academy = new AcademyClient({
    baseUrl: url,
    acadId: acad.acadId,
    apiKey: acad.apikey,
    initialRetryDelayMs: 20,
    ...rec.hooks,
    ...options,
    fetch: rec.fetch,
  });
  return { academy, rec };
}

/** What the faulty gateway does with one request. */
export type Fault = 502 | 503 | 504 | 'reset' | 'hang' | 'pass';

/**
 * A gateway in front of a real server, as a load balancer would be: each request takes the next planned fault
 * (then `pass`): answer a bare 502/503/504, drop the connection, never answer, or forward to the server.
 */
export interface FaultyGateway {
  url: string;
  plan: Fault[];
  /** Requests that reached the gateway, `METHOD path`. */
  seen: string[];
  close(): Promise<void>;
}

export async function faultyGateway(target: string): Promise<FaultyGateway> {
  const plan: Fault[] = [];
  const seen: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const fault = plan.shift() ?? 'pass';
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault === 'hang') {
      hanging.add(res);
      return;
    }
    if (fault !== 'pass') {
      res.writeHead(fault, { 'content-type': 'text/html' }).end(`<h1>${fault}</h1>`);
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
    }
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
    });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(k)) out[k] = v;
    });
    const bytes = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, out).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    plan,
    seen,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
