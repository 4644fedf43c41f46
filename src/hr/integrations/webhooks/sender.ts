import { createHmac } from 'node:crypto';

/** Signing one webhook callback; sending it is platform/http/outbound.ts's `send`. */

/**
 * `X-Event-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the signature key>`. The
 * timestamp is signed with the body, so a receiver can refuse an old callback replayed (docs/hr-api.md).
 */
export function signatureHeader(key: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', key).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
