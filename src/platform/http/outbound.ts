import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Calling a client's URL (a webhook callback, a signature process's `callback_url`): the POST itself and the
 * address guard. No HTTP library: Node's own client gives the one thing this needs and fetch does not, a `lookup`
 * run at connection time, so the address checked is the address connected to (a DNS answer cannot change in
 * between: no rebinding).
 */

/** The longest part of a receiver's answer that is read (the rest is dropped with the connection). */
export const RESPONSE_READ_LIMIT = 65_536;
/** The part of it kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 512;

/** Loopback, private, link-local (the cloud metadata address among them), shared, multicast and reserved ranges. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/**
 * Whether an address is private: refused unless `ATRIUM_WEBHOOK_ALLOW_PRIVATE` allows it, and never read back (a
 * private receiver's answer is not kept).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1] as string, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

/** What an attempt to a refused address records (the address itself is not told). */
export const REFUSED = 'refused: the callback URL names a private address';
/** What an attempt that reached no answer records, whatever the cause. */
export const FAILED = 'failed: no answer from the callback URL (not reachable, or too slow)';

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` that resolves as usual and refuses the connection when any address found is private. */
function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => isPrivateAddress(a.address));
    if (refused) {
      return callback(
        new RefusedAddressError(`${hostname} resolves to a private address`) as NodeJS.ErrnoException,
        [],
      );
    }
    const all = (options as { all?: boolean }).all === true;
    const first = list[0] as LookupAddress;
    return all ? callback(null, list) : callback(null, first.address, first.family);
  });
}

/**
 * Connections are kept alive and reused, one pool per protocol and address policy: a delivery to a receiver just
 * called skips the TCP (and TLS) handshake. A reused connection goes to the address checked when it was opened.
 */
const AGENT_OPTIONS = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 } as const;
const agents = {
  open: { 'http:': new http.Agent(AGENT_OPTIONS), 'https:': new https.Agent(AGENT_OPTIONS) },
  guarded: {
    'http:': new http.Agent({ ...AGENT_OPTIONS, lookup: guardedLookup as never }),
    'https:': new https.Agent({ ...AGENT_OPTIONS, lookup: guardedLookup as never }),
  },
};

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
  /** A `Retry-After` the receiver sent with a 429 or 503, in seconds. */
  retryAfterSeconds?: number;
  /** The address was refused (private): a permanent failure, which another attempt cannot change. */
  refused?: true;
}

export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  now: () => number;
}

/** POSTs one callback and reports how it went; never throws. Redirects are not followed (a 3xx is a failure). */
export function send(options: SendOptions): Promise<SendResult> {
  const started = options.now();
  const elapsed = () => Math.max(0, Math.round(options.now() - started));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return finish({ ok: false, status: null, error: 'the callback URL is not valid', excerpt: null });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
      return finish({ ok: false, status: null, error: REFUSED, excerpt: null, refused: true });
    }
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        timeout: options.timeoutMs,
        agent: agents[options.allowPrivate ? 'open' : 'guarded'][url.protocol === 'https:' ? 'https:' : 'http:'],
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          const ok = status >= 200 && status < 300;
          // A private receiver's answer is never shown: it would let a tenant read an internal service.
          const remote = response.socket?.remoteAddress;
          const readable = remote !== undefined && !isPrivateAddress(remote);
          const retryAfter = Number(response.headers['retry-after']);
          finish({
            ok,
            status,
            error: ok ? null : `the receiver answered ${status}`,
            excerpt: text === '' || !readable ? null : text,
            ...((status === 429 || status === 503) && Number.isFinite(retryAfter) && retryAfter >= 0
              ? { retryAfterSeconds: retryAfter }
              : {}),
          });
        };
        response.on('data', (chunk: Buffer) => {
          if (read < RESPONSE_READ_LIMIT) chunks.push(chunk);
          read += chunk.length;
          if (read >= RESPONSE_READ_LIMIT) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      },
    );
    // `timeout` fires on inactivity; the whole exchange is bounded too.
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (err: NodeJS.ErrnoException) => {
      const refused = err instanceof RefusedAddressError || err.name === 'RefusedAddressError';
      // Neither the address nor the kind of failure (closed port, unknown name, unreachable host) is told: a
      // tenant could map the server's network with them.
      finish({
        ok: false,
        status: null,
        error: refused ? REFUSED : FAILED,
        excerpt: null,
        ...(refused ? { refused } : {}),
      });
    });
    request.end(options.body);
  });
}
