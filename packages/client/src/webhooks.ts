/**
 * Verifying a webhook callback of the HR API: `X-Event-Signature` is `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<exact body>" under the webhook's signature_key>` (docs/hr-api.md, "Webhooks"). In the spirit of
 * stripe-node's `webhooks.constructEvent`, but asynchronous: the SDK has no dependency and no Node built-in, so the
 * HMAC is Web Crypto's (`globalThis.crypto.subtle`: Node.js 20+, browsers, Deno, Bun, workers).
 */
import { AtriumError, AtriumUsageError } from './errors.js';
import type { AuditEvent } from './models.js';

/** The header carrying the signature, and the two that name the event. */
export const WEBHOOK_HEADERS = {
  signature: 'X-Event-Signature',
  eventId: 'X-Event-Id',
  eventType: 'X-Event-Type',
} as const;

/** The default tolerance between the signed timestamp and the receiver's clock: five minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Why {@link verifyWebhookSignature} refused a callback. */
export type WebhookSignatureErrorReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch';

/** A callback whose signature does not hold: answer it with a 4xx and do not act on it. */
export class WebhookSignatureError extends AtriumError {
  override name = 'WebhookSignatureError';
  /** Why: no header, a header not of the form `t=…,v1=…`, a timestamp too old (or too far ahead), a bad MAC. */
  readonly reason: WebhookSignatureErrorReason;
  constructor(reason: WebhookSignatureErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Headers as `fetch` (`Headers`) or Node's `http` (`IncomingHttpHeaders`, lower-case names) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyWebhookOptions {
  /**
   * The largest difference, in seconds, between the signed timestamp and now, either way (default 300). A replay
   * of an old callback is refused past it. `Infinity` skips the check.
   */
  toleranceSeconds?: number;
  /** The receiver's clock, in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
}

/** The value of one header, whatever the casing of its name; an array of several values is ambiguous (null). */
function headerValue(headers: WebhookHeaders, name: string): string | undefined | null {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    if (Array.isArray(value)) return value.length === 1 ? value[0] : value.length === 0 ? undefined : null;
    return value;
  }
  return undefined;
}

const HEX_MAC = /^[0-9a-f]{64}$/i;

/** `t=<digits>,v1=<64 hex>[,v1=…]`: the timestamp and every `v1` MAC (other schemes are ignored). */
function parseHeader(header: string): { timestamp: number; macs: Uint8Array[] } | undefined {
  let timestamp: number | undefined;
  const macs: Uint8Array[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (timestamp !== undefined || !/^[0-9]{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (name === 'v1') {
      if (!HEX_MAC.test(value)) return undefined;
      const bytes = new Uint8Array(32);
      for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(value.slice(i * 2, i * 2 + 2), 16);
      macs.push(bytes);
    }
  }
  return timestamp === undefined || macs.length === 0 ? undefined : { timestamp, macs };
}

/** Compares two MACs of the same length in time independent of where they differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/**
 * Verifies a webhook callback and answers its event. Pass the body exactly as received (the raw text or bytes,
 * before any JSON parsing: a re-serialised body does not verify), the request's headers, and the webhook's
 * `signature_key`.
 *
 * Asynchronous: the HMAC-SHA256 is computed with Web Crypto (`crypto.subtle`), so it runs wherever the SDK runs.
 * The MACs are compared in constant time. Every `v1` entry of the header is tried (any one matching is enough).
 *
 * @throws {WebhookSignatureError} with `reason` `missing_header` (no `X-Event-Signature`), `malformed_header`
 *   (not `t=<unix seconds>,v1=<hex>`), `signature_mismatch` (the body or timestamp was changed, or another key
 *   signed it), `timestamp_out_of_tolerance` (authentic, but signed more than `toleranceSeconds` from now: a
 *   replay). The signature is checked before the timestamp.
 * @throws {AtriumUsageError} without a key, or with a negative or non-numeric tolerance.
 * @throws {SyntaxError} if a correctly signed body is not JSON (the server never sends one).
 *
 * @example
 * ```ts
 * http.createServer(async (req, res) => {
 *   const chunks: Buffer[] = [];
 *   for await (const chunk of req) chunks.push(chunk);
 *   try {
 *     const event = await verifyWebhookSignature(Buffer.concat(chunks), req.headers, signingKey);
 *     res.writeHead(204).end();
 *     console.log(event.type, event.id);
 *   } catch (e) {
 *     res.writeHead(e instanceof WebhookSignatureError ? 400 : 500).end();
 *   }
 * });
 * ```
 */
export async function verifyWebhookSignature(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  key: string,
  options: VerifyWebhookOptions = {},
): Promise<AuditEvent> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new AtriumUsageError('verifyWebhookSignature: toleranceSeconds must be a number of seconds, 0 or more.');
  }
  if (typeof key !== 'string' || key === '') {
    throw new AtriumUsageError('verifyWebhookSignature needs the webhook’s signature_key.');
  }
  const header = headerValue(headers, WEBHOOK_HEADERS.signature);
  if (header === undefined || header === '') {
    throw new WebhookSignatureError('missing_header', `No ${WEBHOOK_HEADERS.signature} header.`);
  }
  const parsed = header === null ? undefined : parseHeader(header);
  if (!parsed) {
    throw new WebhookSignatureError(
      'malformed_header',
      `${WEBHOOK_HEADERS.signature} is not of the form t=<unix seconds>,v1=<hex HMAC-SHA256>.`,
    );
  }

  const encoder = new TextEncoder();
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${parsed.timestamp}.`);
  const signed = new Uint8Array(prefix.length + bytes.length);
  signed.set(prefix, 0);
  signed.set(bytes, prefix.length);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new AtriumUsageError('verifyWebhookSignature needs Web Crypto (globalThis.crypto.subtle).');
  const cryptoKey = await subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const expected = new Uint8Array(await subtle.sign('HMAC', cryptoKey, signed));
  // Every candidate is compared in full (no early exit on the first match either).
  let matched = false;
  for (const mac of parsed.macs) matched = constantTimeEqual(mac, expected) || matched;
  if (!matched) {
    throw new WebhookSignatureError('signature_mismatch', 'The signature does not match the body under this key.');
  }

  const now = (options.now ?? Date.now)();
  const age = Math.abs(now / 1000 - parsed.timestamp);
  if (age > tolerance) {
    throw new WebhookSignatureError(
      'timestamp_out_of_tolerance',
      `The signature's timestamp is ${Math.round(age)} s from now, beyond the tolerance of ${tolerance} s.`,
    );
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return JSON.parse(text) as AuditEvent;
}
