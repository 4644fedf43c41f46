/**
 * The one rule set for secrets, shared by the pino logs (platform/logger.ts) and the request log
 * (admin/request-log/redact.ts); docs/security.md, "Redaction".
 *
 * - **By name.** A header whose name contains `authorization`, `token`, `secret`, `key`, `password`, `passwd`,
 *   `cookie` or `session`, in any case (`X-Forwarded-Authorization`, `X-Auth-Token`, `X-Amz-Security-Token`,
 *   `Set-Cookie`, `Idempotency-Key`…), has its value replaced. So has every query parameter, form field and JSON
 *   member (at any depth) with such a name (`access_token`, `client_secret`, `signature_key`, `apikey[]`…), whatever
 *   its value (an object or array is replaced whole), except the few names the two APIs define that hold no secret
 *   (`NOT_SECRET`: an event's `sessions`, search `keywords`, `token_type`…).
 * - **By value.** A signer's link token (`<client>.<signer uuid>.<mac>`, src/hr/documents/signatures/links.ts) is a
 *   credential wherever it appears: in a signer's `signing_url`, in an outbox mail's text, in a URL.
 */

/** The words of a credential's name. */
const SECRET_WORD = /authorization|token|secret|key|password|passwd|cookie|session/i;

/**
 * Member and parameter names of the two APIs that contain a word above but never hold a secret (compared in lower
 * case). Headers have no such exceptions.
 */
const NOT_SECRET = new Set([
  'sessions',
  'clientsessions',
  'keyword',
  'keywords',
  'localized_search_keywords',
  'token_type',
  'token_type_hint',
  'enable_sp_session',
  'password_options',
  'number_passwords_remembered',
  'allow_password_reset',
]);

/** A signer's link token: base64url of the client id, the signer's id, and a 43-character base64url MAC. */
const LINK_TOKEN =
  /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/** Whether a header's value is a secret, by its name. */
export function isSecretHeader(name: string): boolean {
  return SECRET_WORD.test(name);
}

/** Whether a query parameter, form field or JSON member holds a secret, by its name (`apikey[]` as `apikey`). */
export function isSecretName(name: string): boolean {
  return SECRET_WORD.test(name) && !NOT_SECRET.has(name.toLowerCase().replace(/\[\]$/, ''));
}

/**
 * The middle of a link token: a dot, a UUID, a dot. Searching for it first is cheap (the engine skips to each
 * dot), where LINK_TOKEN itself retries at every run of letters and digits: on a 20 KB list answer, about 10 µs
 * against 120.
 */
const LINK_TOKEN_HINT = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\./;

/** A text with every signer's link token in it replaced. */
export function redactValues(text: string, censor: string): string {
  return LINK_TOKEN_HINT.test(text) ? text.replace(LINK_TOKEN, censor) : text;
}

/** Whether a text may hold a secret at all: most bodies do not, and are kept as they are without the scanning. */
function mayHoldSecret(text: string): boolean {
  return SECRET_WORD.test(text) || LINK_TOKEN_HINT.test(text);
}

/**
 * The value of a header as a log keeps it: a secret one replaced (`keepScheme`: an `Authorization`-like header
 * keeps its scheme, `Bearer [REDACTED]`), any other with its link tokens replaced.
 */
export function redactHeaderValue(name: string, value: string, censor: string, keepScheme = false): string {
  if (!isSecretHeader(name)) return redactValues(value, censor);
  if (keepScheme && /authorization/i.test(name)) {
    const scheme = /^[A-Za-z][\w-]*(?= \S)/.exec(value)?.[0];
    if (scheme) return `${scheme} ${censor}`;
  }
  return censor;
}

function decodeFormName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/**
 * A form body or a query string (`a=1&b=2`) with the value of each secret field replaced by `censor`, or the field
 * dropped (`censor` undefined); the other fields kept as they were written.
 */
export function redactForm(text: string, censor: string | undefined): string {
  if (!text.includes('=') || !SECRET_WORD.test(text)) return text;
  const kept: string[] = [];
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    const name = decodeFormName(eq < 0 ? part : part.slice(0, eq));
    if (!isSecretName(name)) kept.push(part);
    else if (censor !== undefined) kept.push(`${eq < 0 ? part : part.slice(0, eq)}=${censor}`);
  }
  return kept.join('&');
}

/**
 * A URL (path and query) with its secret parameters' values replaced by `censor`, or the parameters dropped
 * (`censor` undefined), and the link tokens of its path replaced (by `[redacted]` when parameters are dropped).
 */
export function redactUrl(url: string, censor?: string): string {
  const q = url.indexOf('?');
  const path = redactValues(q < 0 ? url : url.slice(0, q), censor ?? '[redacted]');
  if (q < 0) return path;
  const query = redactForm(url.slice(q + 1), censor);
  return query ? `${path}?${query}` : path;
}

const STRING_AT = /"(?:[^"\\]|\\.)*(?:"|$)/y;

/** The end of the string starting at `at` (a `"`): after its closing quote, or the text's end when it was cut. */
function stringEnd(text: string, at: number): number {
  STRING_AT.lastIndex = at;
  return STRING_AT.test(text) ? STRING_AT.lastIndex : text.length;
}

/** The end of the JSON value starting at `at` (the text's end when it was cut inside it). */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const c = text[i];
      if (c === '"') i = stringEnd(text, i) - 1;
      else if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
    }
    return text.length;
  }
  let i = at;
  while (i < text.length && !/[\s,}\]]/.test(text[i] as string)) i++;
  return i;
}

function memberName(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * JSON text (whole, or cut anywhere) with the value of every secret member, at any depth, replaced by the string
 * `censor` (an object or array whole); the rest kept byte for byte. Outside strings JSON has no `"`, so matching
 * string after string from the start stays aligned on the text's strings.
 */
export function redactJson(text: string, censor: string): string {
  if (!SECRET_WORD.test(text)) return text;
  const strings = /"((?:[^"\\]|\\.)*)(?:"|$)/g;
  let out = '';
  let last = 0;
  for (let m = strings.exec(text); m; m = strings.exec(text)) {
    let i = strings.lastIndex;
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (text[i] !== ':' || !isSecretName(memberName(m[1] as string))) continue;
    i++;
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    const end = valueEnd(text, i);
    out += `${text.slice(last, i)}"${censor}"`;
    last = end;
    strings.lastIndex = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** A body's text (JSON, a form, other text) with its secrets replaced by `censor`. */
export function redactText(text: string, censor: string): string {
  if (!mayHoldSecret(text)) return text;
  const first = /\S/.exec(text)?.[0];
  const named = first === '{' || first === '[' ? redactJson(text, censor) : redactForm(text, censor);
  return redactValues(named, censor);
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of a plain object (a log line's fields) with every member whose name is a secret's replaced by `censor`, in
 * plain objects and arrays down to `depth` levels; other objects (a request, an error) are left to their serializers.
 */
export function redactFields(value: unknown, censor: string, depth = 4): unknown {
  if (depth < 0) return value;
  if (Array.isArray(value)) return value.map((item) => redactFields(item, censor, depth - 1));
  if (!isPlain(value)) return typeof value === 'string' ? redactValues(value, censor) : value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    out[name] = isSecretName(name) ? censor : redactFields(member, censor, depth - 1);
  }
  return out;
}
