import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import { type Config, ConfigError } from '../config.js';
import { type BinaryCopyReader, binaryCopyReader } from './copy-binary.js';
import type { Tables } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The SQLite driver: better-sqlite3, whose Node-API binary ships inside its package (no compiler, no download) and
 * loads on every supported Node.js (22.12 and later). Loaded here only (the architecture test keeps it so), through
 * `require`, since the package is CommonJS.
 */
export const Sqlite: typeof SqliteDatabase = createRequire(import.meta.url)('better-sqlite3');

export type Db = Kysely<Tables>;

/** A raw better-sqlite3 connection, for code that prepares a file before Kysely has it (`openSqliteFile`). */
export type RawSqlite = SqliteDatabase.Database;

const dialects = new WeakMap<Kysely<Tables>, DialectName>();

/**
 * The dialect a handle speaks, told by its query compiler (PostgreSQL numbers its parameters): for code given a
 * handle or a transaction's and nothing else. Remembered per handle (a transaction is a new handle each time).
 */
export function dialectOf(db: Kysely<Tables>): DialectName {
  let dialect = dialects.get(db);
  if (dialect === undefined) {
    dialect = sql`${1}`.compile(db).sql === '$1' ? 'postgres' : 'sqlite';
    dialects.set(db, dialect);
  }
  return dialect;
}

/**
 * SQLite's safety level: FULL, so a write acknowledged to a caller survives a power cut, not only a crash (a
 * transaction that may be redone opts out of the flush: `inLightTransaction`, transaction.ts).
 */
export const SQLITE_SYNCHRONOUS = 'full';

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Where the data lives, without credentials (for log lines). */
  description: string;
  /** PostgreSQL's connection pool, for its gauges (platform/metrics.ts); none for SQLite. */
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
  ping(): Promise<void>;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function pgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      // Instants and counters are bigint columns well inside 2^53: read them as numbers.
      if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
}

export function sqlitePath(dataDir: string): string {
  return path.join(dataDir, 'atrium.sqlite');
}

/**
 * SQLite transactions start with `begin immediate`: a transaction takes the database's write lock when it begins
 * (waiting up to the busy timeout for another process to release it), never halfway through, when a deferred
 * transaction that has already read could only fail with SQLITE_BUSY. Readers are never blocked (WAL).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class AtriumSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

export type DatabaseSettings = Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'> &
  Partial<Pick<Config, 'dbStatementTimeoutMs' | 'dbNamedStatements' | 'sqliteBusyTimeoutMs' | 'sqliteCacheMb'>>;

const directReads = new WeakMap<Db, StatementCache['readNow']>();

/**
 * The direct reader of a SQLite database opened by `openDatabase` (see `StatementCache.readNow`); none for
 * PostgreSQL or for a transaction's handle, whose queries always go through Kysely.
 */
export function directReader(db: Db): StatementCache['readNow'] | undefined {
  return directReads.get(db);
}

/** Runs a statement compiled once (`prepared`) as a named statement of the pool's connections: see `namedRunner`. */
export type NamedStatementRunner = (sql: string, parameters: readonly unknown[]) => Promise<QueryResult<unknown>>;

const namedRunners = new WeakMap<Db, NamedStatementRunner>();

/**
 * The named-statement runner of a PostgreSQL database opened by `openDatabase`; none for SQLite or for a
 * transaction's handle, whose queries always go through Kysely.
 */
export function namedStatementRunner(db: Db): NamedStatementRunner | undefined {
  return namedRunners.get(db);
}

const copyReaders = new WeakMap<Db, BinaryCopyReader>();

/**
 * The binary `COPY … TO STDOUT` reader of a PostgreSQL database opened by `openDatabase` (platform/db/copy-binary.ts);
 * none for SQLite or for a transaction's handle.
 */
export function copyReader(db: Db): BinaryCopyReader | undefined {
  return copyReaders.get(db);
}

/** Each statement text's name, the same on every connection of every pool of the process. */
const statementNames = new Map<string, string>();
/**
 * The most texts named. Each named statement holds its plan in every connection that ran it, and the shapes of a
 * list's calls are many (filters, sorts, page sizes, array lengths): past this, a new text runs unnamed.
 */
export const MAX_NAMED_STATEMENTS = 1000;

/**
 * A runner of `prepared`'s statements on PostgreSQL, past Kysely, as a named statement: a connection parses and
 * plans a text once and then only binds each call's values, where an unnamed statement sends its whole text and is
 * parsed and planned again at every call. At most {@link MAX_NAMED_STATEMENTS} texts are named; later ones run
 * unnamed. A connection is taken and given back as Kysely's driver does (given back without the error, so a
 * failed statement does not close it); errors are the driver's, as through Kysely. docs/PERFORMANCE.md.
 */
function namedRunner(pool: pg.Pool): NamedStatementRunner {
  return async (text, parameters) => {
    let name = statementNames.get(text);
    if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
      name = `atrium_${statementNames.size + 1}`;
      statementNames.set(text, name);
    }
    const values = parameters as unknown[];
    const client = await pool.connect();
    let result: pg.QueryResult;
    try {
      result = await client.query(name ? { name, text, values } : { text, values });
    } catch (error) {
      if (!name || (error as { code?: string }).code !== STALE_PLAN) {
        client.release();
        throw error;
      }
      // Another process's migration changed a table this statement reads (`select *` after a column was added):
      // PostgreSQL refuses the connection's saved plan. The connection is closed, its named statements with it, and
      // the statement runs once more, unnamed.
      client.release(error as Error);
      result = await pool.query({ text, values });
      return resultOf(result);
    }
    client.release();
    return resultOf(result);
  };
}

/** PostgreSQL's `cached plan must not change result type` (feature_not_supported). */
const STALE_PLAN = '0A000';

function resultOf({ command, rowCount, rows }: pg.QueryResult): QueryResult<unknown> {
  const writes = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return writes ? { rows, numAffectedRows: BigInt(rowCount ?? 0) } : { rows };
}

/**
 * Creates a directory (and its missing parents) readable by this user only (0700, whatever the umask). An existing
 * directory is left as it is: `atrium doctor` and the start-up check report looser permissions.
 */
export function makePrivateDirectory(dir: string): void {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return;
  if (stat) throw new ConfigError(`the data directory ${dir} is a file, not a directory; set ATRIUM_DATA_DIR`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/**
 * Which database the settings name, for a person: the SQLite file (relative to the working directory when it is
 * inside it: `./data/atrium.sqlite`), or `PostgreSQL at host:port/db`, never with the password or query string.
 */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>, cwd = process.cwd()): string {
  if (config.databaseUrl) {
    try {
      const url = new URL(config.databaseUrl);
      const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
      return `PostgreSQL at ${user}${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname === '/' ? '' : url.pathname}`;
    } catch {
      return 'PostgreSQL (DATABASE_URL)';
    }
  }
  const file = sqlitePath(config.dataDir);
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : `./${relative}`;
}

/** Opens the database the configuration names: PostgreSQL with DATABASE_URL, else SQLite in the data directory. */
export function openDatabase(config: DatabaseSettings): Database {
  if (config.databaseUrl) {
    const statementTimeout = config.dbStatementTimeoutMs ?? 0;
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.dbPoolSize,
      types: pgTypes(),
      // Set on each new connection; 0 is PostgreSQL's "no limit".
      ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
    });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => {});
    // Nor one checked out between two queries (the pool listens only to idle ones): its next query fails instead,
    // which the API answers with a 503, and the pool drops it when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    // Off (`ATRIUM_DB_NAMED_STATEMENTS=0`), prepared queries go through Kysely as unnamed statements.
    if (config.dbNamedStatements !== false) namedRunners.set(db, namedRunner(pool));
    copyReaders.set(db, binaryCopyReader(pool));
    const url = new URL(config.databaseUrl);
    return {
      db,
      dialect: 'postgres',
      pool,
      description: `postgres://${url.hostname}:${url.port || 5432}${url.pathname}`,
      async ping() {
        await sql`select 1`.execute(db);
      },
      close: once(() => db.destroy()),
    };
  }
  makePrivateDirectory(config.dataDir);
  return openSqliteFile(sqlitePath(config.dataDir), {
    busyTimeoutMs: config.sqliteBusyTimeoutMs ?? 5000,
    cacheMb: config.sqliteCacheMb ?? 8,
    synchronous: SQLITE_SYNCHRONOUS,
  });
}

/** How one SQLite file is opened: the tenants' database, or the request log's journal (admin/request-log/journal.ts). */
export interface SqliteFileSettings {
  /** Another process holding the write lock is waited for this long. */
  busyTimeoutMs: number;
  /** The page cache. */
  cacheMb: number;
  synchronous: 'full' | 'normal' | 'off';
  /** The page size of a new file, in bytes (SQLite's default, 4096, unless given); an existing file keeps its own. */
  pageSize?: number;
  /** Run on the raw connection before anything else (a schema the file must have). */
  prepare?: (sqlite: RawSqlite) => void;
}

/** Opens (creating it 0600) one SQLite file in WAL mode, with Atrium's statement cache and functions. */
export function openSqliteFile(file: string, settings: SqliteFileSettings): Database {
  // Made 0600 before SQLite opens it: SQLite gives the WAL and SHM files the database file's permissions.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const sqlite = new Sqlite(file);
  // Before WAL mode, which writes the header of a new file: an empty file takes its page size only then.
  if (settings.pageSize) sqlite.pragma(`page_size = ${Math.trunc(settings.pageSize)}`);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // The case folding of case-insensitive search, as PostgreSQL's `atrium_fold` (migration 0010): Unicode lower case.
  sqlite.function('atrium_fold', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text === null ? null : String(text).toLowerCase(),
  );
  // Another process (`serve --workers N`, a CLI command) holding the write lock is waited for this long.
  sqlite.pragma(`busy_timeout = ${Math.trunc(settings.busyTimeoutMs)}`);
  sqlite.pragma(`synchronous = ${settings.synchronous}`);
  // The page cache, in KiB when negative. better-sqlite3 builds SQLite with 16 MB; 8 MiB read as fast on the bench's
  // 100k-row dataset and ended its passes 5–19 MiB lower (docs/PERFORMANCE.md).
  sqlite.pragma(`cache_size = ${-1024 * Math.trunc(settings.cacheMb)}`);
  settings.prepare?.(sqlite);
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Tables>({ dialect: new AtriumSqliteDialect({ database: statements }) });
  directReads.set(db, statements.readNow);
  return {
    db,
    dialect: 'sqlite',
    description: file,
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: once(() => db.destroy()),
  };
}

/** What Kysely's SQLite driver asks of a prepared statement. */
export interface CachedStatement {
  readonly reader: boolean;
  /** A read-only statement returning rows: it joins the turn's read transaction. */
  readonly batched?: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SqliteDatabase.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

type RowMaker = (values: unknown[]) => Record<string, unknown>;

/**
 * A function that turns a raw row (an array of column values) into the object better-sqlite3 would have made:
 * one property per column name, in order, a later duplicate name winning. Generated once per statement as a
 * single object literal, so V8 builds each row with one fixed shape; better-sqlite3's own row objects cost about
 * 300 ns a column (docs/PERFORMANCE.md).
 */
export function rowMaker(names: readonly string[]): RowMaker {
  if (names.includes('__proto__')) {
    // An object literal would set the prototype instead of making a property: define each one.
    return (values) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, i) => {
        Object.defineProperty(row, name, { value: values[i], enumerable: true, writable: true, configurable: true });
      });
      return row;
    };
  }
  const fields = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  // The names are quoted by JSON.stringify, so no column name can change the generated code.
  return new Function('v', `return { ${fields} };`) as RowMaker;
}

const DDL = /^\s*(create|alter|drop)\b/i;
const PRAGMA = /^\s*pragma\b/i;

/**
 * Groups the reads made outside any transaction into one read transaction per turn of the event loop. In WAL mode
 * every statement run on its own takes and releases the database's shared lock (two `fcntl` calls and an
 * `fstat`), which costs more than an indexed lookup itself (about 3 µs against 1 µs here): a request's reads, and
 * the reads of every request served in the same turn, now share one lock and one snapshot. The transaction ends
 * (`commit`) in `setImmediate`, so a snapshot lives for one turn at most and other processes' commits are seen on
 * the next; any other statement (a write, `begin immediate`, DDL) ends it first, so writes are never inside it.
 */
class ReadBatch {
  private open = false;
  private iterating = 0;
  private readonly begin: SqliteDatabase.Statement;
  private readonly commit: SqliteDatabase.Statement;
  private readonly endLater = () => {
    if (this.iterating > 0) setImmediate(this.endLater);
    else this.end();
  };

  constructor(private readonly sqlite: SqliteDatabase.Database) {
    this.begin = sqlite.prepare('begin');
    this.commit = sqlite.prepare('commit');
  }

  /** Before a read-only statement: opens the turn's read transaction unless a transaction is already open. */
  read(): void {
    if (this.open || this.sqlite.inTransaction) return;
    this.begin.run();
    this.open = true;
    setImmediate(this.endLater);
  }

  /** True while a transaction other than the turn's read transaction is open on the connection. */
  get explicit(): boolean {
    return this.sqlite.inTransaction && !this.open;
  }

  /** Before any other statement, and before closing: ends the read transaction if it is open. */
  end(): void {
    if (!this.open) return;
    this.open = false;
    if (this.sqlite.inTransaction) this.commit.run();
  }

  /** Wraps an iteration so the transaction outlives it (a statement still stepping cannot be committed under). */
  *iterate<T>(rows: IterableIterator<T>): IterableIterator<T> {
    this.iterating++;
    try {
      yield* rows;
    } finally {
      this.iterating--;
    }
  }
}

/** A prepared reader that fetches raw rows and makes their objects itself; writers pass through. */
function cachedStatement(statement: SqliteDatabase.Statement, onDdl: () => void, batch: ReadBatch): CachedStatement {
  // `reader` is true of anything returning rows, `insert … returning` included; only a read-only one may join
  // the turn's read transaction (`readonly` alone is also true of `begin` and `commit`).
  const batched = statement.reader && statement.readonly;
  if (!statement.reader) {
    const ddl = DDL.test(statement.source);
    return {
      reader: false,
      all: (parameters) => {
        batch.end();
        return statement.all(...parameters);
      },
      run: (parameters) => {
        batch.end();
        const result = statement.run(...parameters);
        if (ddl) onDdl();
        return result;
      },
      iterate: (parameters) => {
        batch.end();
        return statement.iterate(...parameters);
      },
    };
  }
  statement.raw(true);
  let make: RowMaker | undefined;
  let width = -1;
  const maker = (values: unknown[]): RowMaker => {
    // Columns are read once per statement; a changed width (the schema changed under it) reads them again.
    if (!make || values.length !== width) {
      const names = statement.columns().map((c) => c.name);
      make = rowMaker(names);
      width = names.length;
    }
    return make;
  };
  const before = batched ? () => batch.read() : () => batch.end();
  return {
    reader: true,
    batched,
    all(parameters) {
      before();
      const rows = statement.all(...parameters) as unknown[][];
      if (rows.length === 0) return rows;
      const build = maker(rows[0] as unknown[]);
      for (let i = 0; i < rows.length; i++) (rows as unknown[])[i] = build(rows[i] as unknown[]);
      return rows;
    },
    run: (parameters) => {
      before();
      return statement.run(...parameters);
    },
    *iterate(parameters) {
      before();
      for (const values of batch.iterate(statement.iterate(...parameters) as IterableIterator<unknown[]>)) {
        yield maker(values)(values);
      }
    },
    get busy() {
      return statement.busy;
    },
  } as CachedStatement & { busy: boolean };
}

export interface StatementCache {
  /** The cached statement for this SQL text (what Kysely's SQLite driver calls). */
  prepare(sql: string): CachedStatement;
  /**
   * Runs a read-only query at once, outside Kysely's queue for the connection, unless a transaction (another
   * caller's, still open across its awaits) holds the connection: then, or for anything but a read, undefined.
   */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
  close(): void;
}

/**
 * better-sqlite3 with a cache of prepared statements, by SQL text. Kysely prepares every query it runs, and
 * preparing (parsing and planning) costs more than running most of Atrium's indexed queries: the cache saves a
 * large share of each request's database time (docs/PERFORMANCE.md). A statement still being iterated is never
 * handed out twice; SQLite re-prepares a cached statement by itself after a schema change, and a schema change
 * made on this connection (create, alter, drop) empties the cache. Readers return rows made by `rowMaker`. Reads
 * outside a transaction share one read transaction per turn of the event loop (`ReadBatch`).
 */
export function withStatementCache(sqlite: SqliteDatabase.Database, capacity = 1000): StatementCache {
  const cache = new Map<string, CachedStatement & { busy?: boolean }>();
  const clear = () => cache.clear();
  const batch = new ReadBatch(sqlite);
  const prepare = (text: string): CachedStatement => {
    if (PRAGMA.test(text)) {
      // A pragma that sets something does it as it is prepared (SQLite prepares a pragma again at every run), and
      // some (`synchronous`) refuse to inside a transaction: prepared after the turn's read transaction ends, and
      // not cached, since nothing would be saved.
      batch.end();
      return cachedStatement(sqlite.prepare(text), clear, batch);
    }
    const cached = cache.get(text);
    if (cached && !cached.busy) return cached;
    const statement = cachedStatement(sqlite.prepare(text), clear, batch);
    if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
    cache.set(text, statement);
    return statement;
  };
  return {
    prepare,
    readNow(text, parameters) {
      if (batch.explicit) return undefined;
      const statement = prepare(text);
      return statement.batched ? statement.all(parameters) : undefined;
    },
    close() {
      batch.end();
      cache.clear();
      sqlite.close();
    },
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
}

/** True when a driver error is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
