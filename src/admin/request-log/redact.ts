import { redactHeaderValue, redactText, redactUrl as redactUrlWith } from '../../platform/security/redact.js';

/** What a secret is replaced with in the request log. */
export const REDACTED = '[REDACTED]';

/**
 * Headers as the log keeps them: lower-case names, secrets replaced by the shared rule (platform/security/redact.ts);
 * an `Authorization`-like header keeps its scheme (`Bearer [REDACTED]`), for "Copy as curl".
 */
export function redactHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const key = name.toLowerCase();
    out[key] = redactHeaderValue(key, Array.isArray(raw) ? raw.join(', ') : String(raw), REDACTED, true);
  }
  return out;
}

/** A URL's path and query with the values of secret parameters (`apikey`, `access_token`…) replaced. */
export function redactUrl(url: string): string {
  return redactUrlWith(url, REDACTED);
}

/** The marker that ends a body cut at the cap: the body's whole size. */
export function cutMarker(size: number): string {
  return `…[cut: ${size} bytes in all]`;
}

/** A body's text (JSON or a form), capped (then ended by `cutMarker`), with the values of secrets replaced. */
export function redactBody(
  text: string,
  cap: number,
  size = Buffer.byteLength(text),
): { text: string; truncated: boolean } {
  const truncated = size > cap;
  const kept = truncated
    ? Buffer.from(text)
        .subarray(0, cap)
        .toString('utf8')
        .replace(/\uFFFD$/, '')
    : text;
  const redacted = redactText(kept, REDACTED);
  return { text: truncated ? redacted + cutMarker(size) : redacted, truncated };
}
