/**
 * A recording as `atrium proxy --record DIR` writes it and `atrium replay DIR` reads it (docs/replay.md, "The
 * recording"): `recording.json`, then one exchange a line in `exchanges.ndjson`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from '../failure.js';

export const RECORDING_FORMAT = 'atrium-recording';
export const RECORDING_VERSION = 1;

/** A body as recorded: empty, parsed JSON, text, bytes, or only its length when it was over 1 MiB. */
export type RecordedBody = unknown;

export interface RecordedMessage {
  headers: Record<string, string>;
  body: RecordedBody;
}

export interface Exchange {
  seq: number;
  at: string;
  api: 'hr' | 'academy' | null;
  operation_id: string | null;
  request: RecordedMessage & { method: string; path: string };
  response: RecordedMessage & { status: number };
}

export interface Recording {
  /** The origin of the service the calls were recorded against. */
  target: string;
  started_at: string;
  exchanges: Exchange[];
}

/** What secrets are replaced with in a recording (compared without regard to case). */
export function isRedacted(value: unknown): boolean {
  return typeof value === 'string' && /\[redacted\]/i.test(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function headersOf(value: unknown): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string') return undefined;
    out[name.toLowerCase()] = v;
  }
  return out;
}

/** One line of exchanges.ndjson, checked: a message naming the line for anything that is not an exchange. */
export function parseExchange(line: string, where: string): Exchange {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new CliError(`${where}: not JSON`);
  }
  const request = isObject(value) ? value.request : undefined;
  const response = isObject(value) ? value.response : undefined;
  if (
    !isObject(value) ||
    !Number.isInteger(value.seq) ||
    !isObject(request) ||
    !isObject(response) ||
    typeof request.method !== 'string' ||
    typeof request.path !== 'string' ||
    !request.path.startsWith('/') ||
    !Number.isInteger(response.status)
  ) {
    throw new CliError(`${where}: not an exchange (seq, request.method, request.path, response.status)`);
  }
  const requestHeaders = headersOf(request.headers ?? {});
  const responseHeaders = headersOf(response.headers ?? {});
  if (!requestHeaders || !responseHeaders) throw new CliError(`${where}: headers must be strings`);
  const api = value.api === 'hr' || value.api === 'academy' ? value.api : null;
  return {
    seq: value.seq as number,
    at: typeof value.at === 'string' ? value.at : '',
    api,
    operation_id: typeof value.operation_id === 'string' ? value.operation_id : null,
    request: {
      method: request.method.toUpperCase(),
      path: request.path,
      headers: requestHeaders,
      body: request.body ?? null,
    },
    response: { status: response.status as number, headers: responseHeaders, body: response.body ?? null },
  };
}

/** Reads DIR: a clear failure for a missing directory, another format or version, or a line that is no exchange. */
export function readRecording(dir: string): Recording {
  const metaFile = path.join(dir, 'recording.json');
  const exchangesFile = path.join(dir, 'exchanges.ndjson');
  if (!fs.existsSync(metaFile)) throw new CliError(`${dir} is not a recording: it has no recording.json`);
  let meta: unknown;
  try {
    meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
  } catch {
    throw new CliError(`${metaFile}: not JSON`);
  }
  if (!isObject(meta) || meta.format !== RECORDING_FORMAT) {
    throw new CliError(`${metaFile}: not an ${RECORDING_FORMAT} (its "format" member)`);
  }
  if (meta.version !== RECORDING_VERSION) {
    throw new CliError(`${metaFile}: version ${String(meta.version)}; this atrium reads version ${RECORDING_VERSION}`);
  }
  const text = fs.existsSync(exchangesFile) ? fs.readFileSync(exchangesFile, 'utf8') : '';
  const exchanges: Exchange[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() !== '') exchanges.push(parseExchange(line, `${exchangesFile}:${i + 1}`));
  });
  return {
    target: typeof meta.target === 'string' ? meta.target : '',
    started_at: typeof meta.started_at === 'string' ? meta.started_at : '',
    exchanges,
  };
}
