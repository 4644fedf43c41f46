/** What a secret is replaced with in the request log. */
export const REDACTED = '[REDACTED]';

/** Headers whose whole value is a secret (an `Authorization` keeps its scheme). */
const SECRET_HEADERS = new Set(['proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'apikey', 'access_token']);
/**
 * Names of query parameters, form fields and JSON members whose value is a secret: any name ending in `secret`,
 * `token`, `password`, `apikey` or `api_key` (`client_secret`, `access_token`, `saml_token`…), and `signing_key`.
 */
const SECRET_NAME = '(?:[A-Za-z0-9_]*(?:secret|token|password|apikey|api_key)|signing_key)';
/** `name=value` in a query, `name[]=value` too (`apikey[]`, as some clients send it), in any case. */
const QUERY_SECRET = new RegExp(`([?&]${SECRET_NAME}(?:\\[\\]|%5B%5D)?=)[^&#]*`, 'gi');
/** `"name": "value"` in JSON text, also when the text was cut inside the value. */
const JSON_SECRET = new RegExp(`("${SECRET_NAME}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*(?:"|$)`, 'gi');
/** Whether a text may hold a secret at all: most bodies do not, and are kept as they are without the replacing. */
const SECRET_HINT = /secret|token|password|api_?key|signing_key/i;
/** `name=value` in a form body. */
const FORM_SECRET = new RegExp(`(^|&)(${SECRET_NAME}=)[^&]*`, 'gi');

/** Headers as the log keeps them: lower-case names, secrets replaced (`Bearer [REDACTED]`). */
export function redactHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const key = name.toLowerCase();
    const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (key === 'authorization') {
      const scheme = /^\S+/.exec(value)?.[0];
      out[key] = scheme && scheme.length < value.length ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[key] = SECRET_HEADERS.has(key) ? REDACTED : value;
  }
  return out;
}

/** A URL's path and query with the values of secret parameters (`apikey`, `access_token`…) replaced. */
export function redactUrl(url: string): string {
  return url.replace(QUERY_SECRET, `$1${REDACTED}`);
}

/** A body's text (JSON or a form), capped, with the values of secret members and fields replaced. */
export function redactBody(text: string, cap: number): { text: string; truncated: boolean } {
  const truncated = Buffer.byteLength(text) > cap;
  let kept = truncated
    ? Buffer.from(text)
        .subarray(0, cap)
        .toString('utf8')
        .replace(/\uFFFD$/, '')
    : text;
  if (SECRET_HINT.test(kept))
    kept = kept.replace(JSON_SECRET, `$1"${REDACTED}"`).replace(FORM_SECRET, `$1$2${REDACTED}`);
  return { text: kept, truncated };
}
