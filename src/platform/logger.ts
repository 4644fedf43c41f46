import pino, { type Logger, type LoggerOptions } from 'pino';

/** Query parameters that carry credentials and never reach a log line. */
const SECRET_QUERY_PARAMS = ['apikey', 'access_token', 'token', 'application_secret'];

/** Removes credential-bearing query parameters from a URL before it is logged. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    // `apikey[]` is read as `apikey` by the Academy API (Spazz's `k[]` form), so it is stripped too.
    if (SECRET_QUERY_PARAMS.includes(name.toLowerCase().replace(/\[\]$/, ''))) {
      params.delete(name);
      changed = true;
    }
  }
  if (!changed) return url;
  const rest = params.toString();
  return rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q);
}

/**
 * Paths pino censors wherever they appear in a log object: credential headers,
 * secrets and tokens. Request bodies are never logged.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.access_token',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'application_secret',
  '*.application_secret',
  'access_token',
  '*.access_token',
  'apikey',
  '*.apikey',
  'token',
  '*.token',
  'secret',
  '*.secret',
];

/**
 * Header names that look like a credential, whatever their case: any name containing `authorization`, `token`,
 * `secret`, `api-key`, `api_key`, `apikey`, `password` or `cookie` (so `Proxy-Authorization`,
 * `X-Forwarded-Authorization`, `X-Auth-Token`, `Set-Cookie`, …), not only the standard ones.
 */
const CREDENTIAL_HEADER = /authorization|token|secret|api-key|api_key|apikey|password|cookie/i;

/** A copy of the headers with the value of every credential-looking header replaced by `[redacted]`. */
export function redactHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!headers) return headers;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = CREDENTIAL_HEADER.test(name) ? '[redacted]' : value;
  return out;
}

export interface RequestLike {
  id?: unknown;
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  ip?: string;
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req(req: RequestLike) {
        return {
          id: req.id,
          method: req.method,
          url: redactUrl(req.url ?? ''),
          remoteAddress: req.ip,
          headers: redactHeaders(req.headers),
        };
      },
      res(res: { statusCode?: number; headers?: Record<string, unknown> }) {
        return { statusCode: res.statusCode, ...(res.headers ? { headers: redactHeaders(res.headers) } : {}) };
      },
    },
  };
}

/**
 * A logger writing JSON lines to standard error, used by the CLI so stdout stays machine-readable; or to `stream`,
 * the standard error of a command run in-process (src/cli/run.ts).
 */
export function stderrLogger(level: string, stream?: { write(line: string): unknown }): Logger {
  return pino(loggerOptions(level), stream ? { write: (line: string) => stream.write(line) } : pino.destination(2));
}
