/**
 * A test's stand-in for `atrium proxy --record DIR`: calls an Atrium directly and writes each exchange in the
 * recording format `atrium replay` reads (docs/replay.md, "The recording"), redacted by the shared rules
 * (src/platform/security/redact.ts), so that the replay tests need no proxy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isSecretHeader, redactFields, redactForm, redactUrl } from '../../src/platform/security/redact.js';
import { fetchOpenApi } from './openapi.js';

const CENSOR = '[redacted]';

export interface Recorder {
  /** Sends one call to the Atrium, records it, and answers it with its body parsed (or null). */
  call(
    method: string,
    pathAndQuery: string,
    options?: { headers?: Record<string, string>; body?: unknown; form?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: unknown }>;
  /** The exchanges written so far. */
  readonly count: number;
}

function redactedHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) out[name.toLowerCase()] = isSecretHeader(name) ? CENSOR : value;
  return out;
}

function recordedBody(contentType: string, bytes: Buffer): unknown {
  if (bytes.length === 0) return null;
  if (bytes.length > 1024 * 1024) return { omitted: bytes.length };
  if (/[/+]json\b/i.test(contentType)) {
    try {
      return redactFields(JSON.parse(bytes.toString('utf8')), CENSOR, 64);
    } catch {
      return { text: bytes.toString('utf8') };
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType)) return { text: redactForm(bytes.toString('utf8'), CENSOR) };
  if (/^text\/|xml/i.test(contentType)) return { text: bytes.toString('utf8') };
  return { base64: bytes.toString('base64') };
}

/** The operation a method and path name in the server's OpenAPI document (its path templates matched). */
function operationFinder(doc: Awaited<ReturnType<typeof fetchOpenApi>>) {
  const templates = Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>).map(
    ([template, ops]) => ({ pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`), ops }),
  );
  return (method: string, pathname: string): string | null => {
    for (const { pattern, ops } of templates) {
      const op = pattern.test(pathname) ? ops[method.toLowerCase()] : undefined;
      if (op?.operationId) return op.operationId;
    }
    return null;
  };
}

/** Starts a recording of calls to the Atrium at `url` in `dir` (created, or emptied). */
export async function startRecording(url: string, dir: string): Promise<Recorder> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'recording.json'),
    `${JSON.stringify({ format: 'atrium-recording', version: 1, target: new URL(url).origin, started_at: new Date().toISOString() })}\n`,
  );
  const file = path.join(dir, 'exchanges.ndjson');
  fs.writeFileSync(file, '');
  const operationOf = operationFinder(await fetchOpenApi(url));
  let seq = 0;
  return {
    get count() {
      return seq;
    },
    async call(method, pathAndQuery, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      let body: string | undefined;
      if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      } else if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      const res = await fetch(`${url}${pathAndQuery}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const bytes = Buffer.from(await res.arrayBuffer());
      const contentType = res.headers.get('content-type') ?? '';
      const pathname = pathAndQuery.split('?')[0] as string;
      seq += 1;
      const exchange = {
        seq,
        at: new Date().toISOString(),
        api: pathname.startsWith('/api/v2/client') ? 'hr' : pathname.startsWith('/v1') ? 'academy' : null,
        operation_id: operationOf(method, pathname),
        request: {
          method,
          path: redactUrl(pathAndQuery, CENSOR),
          headers: redactedHeaders(headers),
          body: body === undefined ? null : recordedBody(headers['content-type'] ?? '', Buffer.from(body)),
        },
        response: {
          status: res.status,
          headers: redactedHeaders(res.headers),
          body: recordedBody(contentType, bytes),
        },
      };
      fs.appendFileSync(file, `${JSON.stringify(exchange)}\n`);
      let parsed: unknown = null;
      if (/json/.test(contentType) && bytes.length > 0) parsed = JSON.parse(bytes.toString('utf8'));
      return { status: res.status, headers: res.headers, body: parsed };
    },
  };
}
