import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { type Db, dialectOf, directReader, namedStatementRunner } from './database.js';

/**
 * Queries built and compiled once, then run with new values.
 *
 * Building a Kysely query (immutable nodes, frozen at each step) and compiling it to SQL cost 10–20 µs: as much
 * as SQLite takes to run an indexed lookup. A hot path (a GET by id, the job runner's writes) pays that for each
 * of its queries on every call. A prepared query is built once per dialect and shape, with a placeholder standing
 * for each value, and each call only swaps the values in (docs/PERFORMANCE.md). Reads and writes alike: `execute`
 * gives a write's `numAffectedRows`.
 *
 * The builder must give one shape of query whatever the values: it may pass values on to Kysely, never branch on
 * them or compute with them. An array value may have any length (`where('id', 'in', p.ids)`): each length is its
 * own shape, compiled on first use. A placeholder that ends up anywhere but in the parameters (computed with,
 * spliced in as raw SQL) is refused when the query compiles.
 *
 * On SQLite a prepared read runs on the connection at once (`directReader`) unless another caller's transaction
 * holds it; on PostgreSQL it runs as a named statement of the pool's connections (`namedStatementRunner`), parsed
 * and planned once per connection; inside a transaction it goes through Kysely like any query.
 */

const MARK = '\u0000atrium-prepared\u0000';
/** Shapes kept per query and dialect (array lengths seen); past this, calls compile as ordinary queries. */
const MAX_SHAPES = 200;

type Slot = { value: unknown } | { name: string; index: number };

interface Compiled<R> {
  query: CompiledQuery<R>;
  slots: Slot[];
}

export type PreparedParams = Record<string, unknown>;

export interface PreparedQuery<P extends PreparedParams, R> {
  /** Every row. */
  all(db: Db, params: P): Promise<R[]>;
  /** The first row, if any. */
  first(db: Db, params: P): Promise<R | undefined>;
  /** Kysely's result: the rows, and for a write the rows it changed (`numAffectedRows`). */
  execute(db: Db, params: P): Promise<QueryResult<R>>;
}

// A transaction is a new handle each time, but it compiles exactly as its database does (Atrium uses no Kysely
// plugin): compiled shapes are kept per dialect, so a query prepared once serves the database and all its
// transactions.

function placeholder(name: string, index: number): string {
  return `${MARK}${name}\u0000${index}`;
}

function shapeOf(params: PreparedParams): string {
  let shape = '';
  for (const name in params) {
    const value = params[name];
    if (Array.isArray(value)) shape += `${name}:${value.length};`;
  }
  return shape;
}

function compile<P extends PreparedParams, R>(build: (db: Db, p: P) => Compilable<R>, db: Db, params: P): Compiled<R> {
  const stand: PreparedParams = {};
  for (const name in params) {
    const value = params[name];
    stand[name] = Array.isArray(value) ? value.map((_, i) => placeholder(name, i)) : placeholder(name, -1);
  }
  const query = build(db, stand as P).compile();
  if (query.sql.includes(MARK)) throw new Error('A prepared query put a placeholder into its SQL text.');
  const slots = query.parameters.map((value): Slot => {
    if (typeof value !== 'string' || !value.includes(MARK)) return { value };
    const [, , name = '', index = ''] = value.split('\u0000');
    if (!(name in params) || value !== placeholder(name, Number(index))) {
      throw new Error('A prepared query computed with a placeholder instead of passing it on.');
    }
    return { name, index: Number(index) };
  });
  return { query, slots };
}

/** A query compiled once per dialect and shape (see above), then run with each call's values. */
export function prepared<P extends PreparedParams, R>(build: (db: Db, p: P) => Compilable<R>): PreparedQuery<P, R> {
  const cache = new Map<string, Map<string, Compiled<R>>>();
  const run = (db: Db, params: P): Promise<QueryResult<R>> => {
    const compiler = dialectOf(db);
    let shapes = cache.get(compiler);
    if (!shapes) {
      shapes = new Map();
      cache.set(compiler, shapes);
    }
    const shape = shapeOf(params);
    let compiled = shapes.get(shape);
    if (!compiled) {
      if (shapes.size >= MAX_SHAPES) return db.executeQuery(build(db, params));
      compiled = compile(build, db, params);
      shapes.set(shape, compiled);
    }
    const parameters = compiled.slots.map((slot) => {
      if ('value' in slot) return slot.value;
      const value = params[slot.name];
      return slot.index < 0 ? value : (value as unknown[])[slot.index];
    });
    // On SQLite, with no transaction holding the connection, the statement runs at once: Kysely's queue for the
    // connection (a lock, several promises) cost as much as the lookup itself.
    const rows = directReader(db)?.(compiled.query.sql, parameters) as R[] | undefined;
    if (rows) return Promise.resolve({ rows });
    // On PostgreSQL, outside a transaction, it runs as a named statement, past Kysely's connection provider.
    const named = namedStatementRunner(db);
    if (named) return named(compiled.query.sql, parameters) as Promise<QueryResult<R>>;
    return db.executeQuery<R>({ ...compiled.query, parameters });
  };
  return {
    all: async (db, params) => (await run(db, params)).rows,
    first: async (db, params) => (await run(db, params)).rows[0],
    execute: run,
  };
}
