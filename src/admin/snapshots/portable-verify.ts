import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HrError } from '../../hr/errors.js';
import { migrationNames } from '../../platform/db/migrate.js';
import type { SnapshotPlan } from './catalogue.js';
import {
  corrupt,
  fileLines,
  incompatible,
  type PortableHeader,
  parseLine,
  readHeader,
  readLine,
} from './portable-format.js';
import { type PortableKeys, portableTables } from './portable-keys.js';

/** What a verified file holds: read once, before anything is written. */
export interface Inventory {
  header: PortableHeader;
  /** Each table's columns and rows. */
  tables: Map<string, { columns: string[]; rows: number }>;
  blobs: { sha256: string; size: number }[];
  /** The smallest and largest value of each serial key (portable-keys.ts). */
  serialRange: Map<string, { min: number; max: number }>;
  /** The values of each installation-wide unique column: `table.column` → values. */
  uniqueValues: Map<string, Set<string>>;
}

/** The request body written to a temporary file, up to `limit` bytes (413 beyond); the caller removes the directory. */
export async function spool(body: Readable, limit: number): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'atrium-import-'));
  const file = path.join(dir, 'snapshot.ndjson.gz');
  let bytes = 0;
  try {
    await pipeline(
      body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          bytes += chunk.length;
          if (bytes > limit) {
            throw new HrError(
              413,
              'payload_too_large',
              `The snapshot file is larger than ${limit} bytes (ATRIUM_SNAPSHOT_IMPORT_MAX_BYTES). Nothing was written.`,
            );
          }
          yield chunk;
        }
      },
      createWriteStream(file, { mode: 0o600 }),
    );
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, file };
}

/**
 * Reads the whole file once: the checksum, the header (format version, kind, schema), each line's shape, each
 * table's columns and row count, each stored file's checksum and size. Any mismatch is a 4xx; nothing is written.
 */
export async function verify(file: string, plan: SnapshotPlan, keys: PortableKeys): Promise<Inventory> {
  const hash = createHash('sha256');
  const expected = new Map(portableTables(plan).map((t) => [t.name, t.columns]));
  let header: PortableHeader | undefined;
  let ended = false;
  const inventory = {
    tables: new Map<string, { columns: string[]; rows: number }>(),
    blobs: [] as { sha256: string; size: number }[],
    serialRange: new Map<string, { min: number; max: number }>(),
    uniqueValues: new Map<string, Set<string>>(),
  };
  let table:
    | { name: string; columns: string[]; left: number; serial: number; unique: [number, Set<string>][] }
    | undefined;
  let blob:
    | { sha256: string; size: number; left: number; hash: ReturnType<typeof createHash>; bytes: number }
    | undefined;
  for await (const raw of fileLines(file)) {
    if (ended) throw corrupt('there is more after its end');
    const value = parseLine(raw);
    if (!header) {
      header = readHeader(value);
      checkHeader(header, plan);
      hash.update(raw).update('\n');
      continue;
    }
    if (blob && blob.left > 0) {
      const line = readLine(value);
      if (!('data' in line)) throw corrupt(`the stored file ${blob.sha256} is cut short`);
      const bytes = Buffer.from(line.data, 'base64');
      blob.hash.update(bytes);
      blob.bytes += bytes.length;
      if (--blob.left === 0) {
        if (blob.bytes !== blob.size || blob.hash.digest('hex') !== blob.sha256) {
          throw corrupt(`the stored file ${blob.sha256} does not match its checksum`);
        }
        blob = undefined;
      }
    } else if (table && table.left > 0) {
      if (!Array.isArray(value) || value.length !== table.columns.length) {
        throw corrupt(`a row of ${table.name} does not have its ${table.columns.length} values`);
      }
      collect(inventory, table, value);
      table.left--;
    } else {
      const line = readLine(value);
      if ('end' in line) {
        if (line.sha256 !== hash.digest('hex')) throw corrupt('its checksum does not match its content');
        ended = true;
        continue;
      }
      if ('data' in line) throw corrupt('a data line belongs to no stored file');
      if ('blob' in line) {
        if (inventory.tables.size > 0) throw corrupt('a stored file comes after the tables');
        inventory.blobs.push({ sha256: line.blob, size: line.size });
        if (line.chunks > 0) {
          blob = { sha256: line.blob, size: line.size, left: line.chunks, hash: createHash('sha256'), bytes: 0 };
        } else if (line.size !== 0 || line.blob !== createHash('sha256').digest('hex')) {
          throw corrupt(`the stored file ${line.blob} does not match its checksum`);
        }
      } else {
        const columns = expected.get(line.table);
        if (!columns)
          throw incompatible(
            `it holds a table this installation does not have for a ${plan.kind} tenant: ${line.table}`,
          );
        if (inventory.tables.has(line.table)) throw corrupt(`the table ${line.table} appears twice`);
        if (JSON.stringify([...line.columns].sort()) !== JSON.stringify([...columns].sort())) {
          throw incompatible(`the table ${line.table} has other columns here`);
        }
        inventory.tables.set(line.table, { columns: line.columns, rows: line.rows });
        const serial = keys.serial.get(line.table);
        table = {
          name: line.table,
          columns: line.columns,
          left: line.rows,
          serial: serial === undefined ? -1 : line.columns.indexOf(serial),
          unique: (keys.unique.get(line.table) ?? []).map((c) => {
            const values = new Set<string>();
            inventory.uniqueValues.set(`${line.table}.${c}`, values);
            return [line.columns.indexOf(c), values];
          }),
        };
      }
    }
    hash.update(raw).update('\n');
  }
  if (!header) throw corrupt('it is empty');
  if (!ended) throw corrupt('it has no end (it was cut short)');
  return { header, ...inventory };
}

function collect(
  inventory: Pick<Inventory, 'serialRange'>,
  table: { name: string; serial: number; unique: [number, Set<string>][] },
  row: unknown[],
): void {
  if (table.serial >= 0) {
    const key = Number(row[table.serial]);
    if (!Number.isSafeInteger(key)) throw corrupt(`a row of ${table.name} has no integer key`);
    const range = inventory.serialRange.get(table.name);
    if (!range) inventory.serialRange.set(table.name, { min: key, max: key });
    else {
      range.min = Math.min(range.min, key);
      range.max = Math.max(range.max, key);
    }
  }
  for (const [at, values] of table.unique) {
    const value = row[at];
    if (typeof value === 'string') values.add(value);
  }
}

/** The file's kind and schema against this installation's: another is `snapshot_incompatible`, named. */
function checkHeader(header: PortableHeader, plan: SnapshotPlan): void {
  if (header.kind !== plan.kind) {
    throw incompatible(
      `it is a snapshot of ${header.kind === 'hr' ? 'an HR client' : 'an academy'}, not of ${plan.kind === 'hr' ? 'an HR client' : 'an academy'}`,
    );
  }
  const ours = new Set(migrationNames);
  const missing = header.schema.filter((m) => !ours.has(m));
  if (missing.length > 0) {
    throw incompatible(
      `it was made by a newer or another Atrium, with migrations this installation does not have (${missing.slice(0, 3).join(', ')})`,
    );
  }
  const theirs = new Set(header.schema);
  const newer = migrationNames.filter((m) => !theirs.has(m));
  if (newer.length > 0) {
    throw incompatible(
      `it was made with an older schema, without the migrations ${newer.slice(0, 3).join(', ')}${newer.length > 3 ? ', …' : ''}: export it again from an installation of this version`,
    );
  }
}
