import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { HrError } from '../../hr/errors.js';

/**
 * The portable snapshot file (docs/admin.md, "Portable snapshots"): gzip'd NDJSON, one JSON value a line.
 *
 * 1. The header: `{format, version, kind, tenant, snapshot, created_at, schema}` (`schema`: the migrations applied).
 * 2. Each stored file: `{"blob": sha256, "size", "chunks"}`, then `chunks` lines `{"data": base64}`.
 * 3. Each table, parents first: `{"table", "columns", "rows"}`, then `rows` lines, each an array of the row's
 *    values in `columns`' order (numbers, strings, null; JSON columns as their text).
 * 4. The end: `{"end": true, "sha256"}`, the SHA-256 of every byte before that line (uncompressed).
 */
export const PORTABLE_FORMAT = 'atrium-tenant-snapshot';
export const PORTABLE_VERSION = 1;

/** A line longer than this is refused (a stored file's chunk is 768 KiB, 1 MiB as base64). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Bytes of a stored file a `data` line carries. */
export const BLOB_CHUNK_BYTES = 768 * 1024;

export interface PortableHeader {
  format: string;
  version: number;
  kind: 'hr' | 'academy';
  tenant: string;
  snapshot: string;
  created_at: string;
  schema: string[];
}

export type PortableLine =
  | { blob: string; size: number; chunks: number }
  | { data: string }
  | { table: string; columns: string[]; rows: number }
  | { end: true; sha256: string };

/** The file is not a whole, untouched portable snapshot (400, `snapshot_corrupt`): nothing was written. */
export function corrupt(reason: string): HrError {
  return new HrError(
    400,
    'snapshot_corrupt',
    `The snapshot file is corrupt or incomplete: ${reason}. Nothing was written.`,
  );
}

/** The file is whole but this installation cannot read it (422, `snapshot_incompatible`): nothing was written. */
export function incompatible(reason: string): HrError {
  return new HrError(
    422,
    'snapshot_incompatible',
    `The snapshot file cannot be imported here: ${reason}. Nothing was written.`,
  );
}

/** Writes lines and hashes them: `end()` is the trailing checksum line. */
export class LineHasher {
  private readonly hash: Hash = createHash('sha256');

  line(value: unknown): string {
    const text = `${JSON.stringify(value)}\n`;
    this.hash.update(text);
    return text;
  }

  end(): string {
    return `${JSON.stringify({ end: true, sha256: this.hash.digest('hex') })}\n`;
  }
}

/**
 * The lines of a gzip'd file, each as a Buffer without its newline; a line over `MAX_LINE_BYTES`, a gzip error
 * (a truncated or altered file) or a last line without a newline is `snapshot_corrupt`.
 */
export async function* fileLines(path: string): AsyncGenerator<Buffer> {
  const source: Readable = createReadStream(path).pipe(createGunzip());
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, nl);
        const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
        pending = [];
        pendingBytes = 0;
        if (line.length > MAX_LINE_BYTES) throw corrupt('a line is too long');
        yield line;
        start = nl + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_LINE_BYTES) throw corrupt('a line is too long');
      }
    }
  } catch (error) {
    if (error instanceof HrError) throw error;
    throw corrupt(`it does not decompress (${(error as Error).message})`);
  } finally {
    source.destroy();
  }
  if (pendingBytes > 0) throw corrupt('it ends in the middle of a line');
}

/** One line parsed as a JSON value; anything else is `snapshot_corrupt`. */
export function parseLine(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8'));
  } catch {
    throw corrupt('a line is not JSON');
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The header line, checked: another format, version or kind is `snapshot_incompatible`. */
export function readHeader(value: unknown): PortableHeader {
  if (!isObject(value) || value.format !== PORTABLE_FORMAT) throw incompatible('it is not an Atrium tenant snapshot');
  if (value.version !== PORTABLE_VERSION) {
    throw incompatible(
      `its format version is ${JSON.stringify(value.version)}; this installation reads version ${PORTABLE_VERSION}`,
    );
  }
  if (
    (value.kind !== 'hr' && value.kind !== 'academy') ||
    typeof value.tenant !== 'string' ||
    typeof value.snapshot !== 'string' ||
    typeof value.created_at !== 'string' ||
    !isStrings(value.schema)
  ) {
    throw corrupt('its header is malformed');
  }
  return value as unknown as PortableHeader;
}

/** A line after the header, checked for its shape. */
export function readLine(value: unknown): PortableLine {
  if (isObject(value)) {
    if (
      typeof value.blob === 'string' &&
      /^[0-9a-f]{64}$/.test(value.blob) &&
      count(value.size) &&
      count(value.chunks)
    ) {
      return value as PortableLine;
    }
    if (typeof value.data === 'string') return value as PortableLine;
    if (typeof value.table === 'string' && isStrings(value.columns) && count(value.rows)) return value as PortableLine;
    if (value.end === true && typeof value.sha256 === 'string') return value as PortableLine;
  }
  throw corrupt('a line is not one of the format');
}
