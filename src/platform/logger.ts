import pino, { type Logger, type LoggerOptions } from 'pino';
import { isSecretHeader, redactFields, redactHeaderValue, redactUrl as redactUrlWith } from './security/redact.js';

/** What a secret is replaced with in a log line. */
const CENSOR = '[redacted]';

/**
 * A URL before it is logged: the parameters whose names are a secret's (platform/security/redact.ts: `apikey`,
 * `apikey[]`, `access_token`, `client_secret`…) removed, and a signer's link token replaced.
 */
export function redactUrl(url: string): string {
  return redactUrlWith(url);
}

/**
 * A copy of the headers with the value of every credential-looking header replaced by `[redacted]`: the shared rule
 * (platform/security/redact.ts), any name containing `authorization`, `token`, `secret`, `key`, `password`, `cookie`
 * or `session` (so `Proxy-Authorization`, `X-Forwarded-Authorization`, `X-Auth-Token`, `Set-Cookie`, …).
 */
export function redactHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!headers) return headers;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (isSecretHeader(name)) out[name] = CENSOR;
    else out[name] = typeof value === 'string' ? redactHeaderValue(name, value, CENSOR) : value;
  }
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
    // Every member of a logged object whose name is a secret's, at any depth of its plain objects (the shared rule).
    formatters: { log: (object: Record<string, unknown>) => redactFields(object, CENSOR) as Record<string, unknown> },
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
