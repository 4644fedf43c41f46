/**
 * `atrium proxy --record DIR` (docs/proxy.md, "Recording"): each exchange saved, redacted, in the format
 * `atrium replay DIR` reads. `DIR/recording.json` says what was recorded; `DIR/exchanges.ndjson` holds one exchange
 * a line, in the order the proxy received the calls (an exchange that ends early waits for those before it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { redactHeaderValue, redactText, redactUrl, redactValues } from '../../platform/security/redact.js';
import { decoded, mediaType } from './check.js';

/** What a secret is replaced with in a recording. */
export const RECORDED_REDACTED = '[redacted]';
/** Bodies larger than this are kept as `{"omitted": <bytes>}`. */
export const RECORDED_BODY_MAX = 1024 * 1024;

export type RecordedBody = null | unknown;

export interface RecordedExchange {
  seq: number;
  at: string;
  api: 'hr' | 'academy' | null;
  operation_id: string | null;
  request: { method: string; path: string; headers: Record<string, string>; body: RecordedBody };
  response: { status: number; headers: Record<string, string>; body: RecordedBody };
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');
const isText = (type: string) =>
  type.startsWith('text/') || type.endsWith('+xml') || type === 'application/xml' || type === 'application/javascript';

/** A message's headers and body as a recording keeps them (an undone content encoding drops its two headers). */
export function recordedMessage(
  headers: Record<string, string>,
  body: Buffer | undefined,
  size: number,
): { headers: Record<string, string>; body: RecordedBody } {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactHeaderValue(name, value, RECORDED_REDACTED);
  if (size === 0) return { headers: out, body: null };
  if (body === undefined || size > RECORDED_BODY_MAX) return { headers: out, body: { omitted: size } };
  const encoding = headers['content-encoding'];
  const bytes = decoded(body, encoding);
  if (!bytes) return { headers: out, body: { base64: body.toString('base64') } };
  if (bytes !== body) {
    delete out['content-encoding'];
    delete out['content-length'];
  }
  const type = mediaType(headers['content-type']);
  if (isJson(type)) {
    try {
      return { headers: out, body: JSON.parse(redactText(bytes.toString('utf8'), RECORDED_REDACTED)) as unknown };
    } catch {
      // Not JSON after all: kept as text below.
    }
  }
  if (type === 'application/x-www-form-urlencoded' || isJson(type)) {
    return { headers: out, body: { text: redactText(bytes.toString('utf8'), RECORDED_REDACTED) } };
  }
  if (isText(type)) return { headers: out, body: { text: redactValues(bytes.toString('utf8'), RECORDED_REDACTED) } };
  return { headers: out, body: { base64: bytes.toString('base64') } };
}

export function recordedPath(url: string): string {
  return redactUrl(url, RECORDED_REDACTED);
}

export class Recorder {
  private next = 1;
  private readonly pending = new Map<number, string | null>();
  private readonly file: string;

  private constructor(dir: string) {
    this.file = path.join(dir, 'exchanges.ndjson');
  }

  /** Starts a recording in `dir` (made if missing); refuses a directory that already holds one. */
  static start(dir: string, target: string, startedAt: Date): Recorder {
    fs.mkdirSync(dir, { recursive: true });
    const meta = path.join(dir, 'recording.json');
    if (fs.existsSync(meta))
      throw new Error(`${dir} already holds a recording (recording.json); name another directory`);
    const recording = { format: 'atrium-recording', version: 1, target, started_at: startedAt.toISOString() };
    fs.writeFileSync(meta, `${JSON.stringify(recording, null, 2)}\n`, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'exchanges.ndjson'), '', { mode: 0o600 });
    return new Recorder(dir);
  }

  /** The exchange of call `seq` (or null: the call ended without an answer), written once those before it are. */
  settle(seq: number, exchange: RecordedExchange | null): void {
    this.pending.set(seq, exchange ? `${JSON.stringify(exchange)}\n` : null);
    let lines = '';
    while (this.pending.has(this.next)) {
      lines += this.pending.get(this.next) ?? '';
      this.pending.delete(this.next);
      this.next++;
    }
    if (lines) fs.appendFileSync(this.file, lines);
  }
}
