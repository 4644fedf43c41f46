import {
  type DeleteQueryBuilder,
  type DeleteResult,
  type Insertable,
  type QueryCreator,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
  type Updateable,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';

/**
 * Tenancy by construction. Every row of a tenant's data carries the tenant's key in `client_id` (an HR client's
 * id, an academy's id). A `Tenant` is a view of the database through one tenant: its `selectFrom`, `updateTable`
 * and `deleteFrom` start with `<alias>.client_id = ?` already applied, and its inserts write `client_id`
 * themselves, so a repository cannot forget the condition, and another tenant's row is simply not there.
 *
 * It returns Kysely's own builders, so everything else (joins, filters, subqueries, `prepared()`) works as usual;
 * a subquery of another tenant table is written with the same `Tenant` (`t.selectFrom('x as m')`), never with a
 * bare `where('client_id', …)`.
 */

/** The tables of `DB` that belong to a tenant: those with the tenant column `K` (`client_id` by default). */
export type TenantTable<DB, K extends string = 'client_id'> = {
  [T in keyof DB & string]: DB[T] extends { [C in K]: unknown } ? T : never;
}[keyof DB & string];

/** A tenant table, optionally aliased (`'hr_organizations as o'`). */
export type TenantFrom<DB, K extends string = 'client_id'> = TenantTable<DB, K> | `${TenantTable<DB, K>} as ${string}`;

/** The database as a query over `from` sees it (the alias added as a table, as Kysely's own `selectFrom` does). */
export type ScopedDb<DB, TE extends string> = TE extends `${infer T} as ${infer A}`
  ? T extends keyof DB
    ? DB & { [K in A]: DB[T] }
    : never
  : DB;

/** The name a query over `from` refers to its table by. */
export type ScopedTable<DB, TE extends string> = TE extends `${string} as ${infer A}` ? A : TE & keyof DB;

// biome-ignore lint/complexity/noBannedTypes: Kysely's own type of a query that selects nothing yet.
type Nothing = {};

type Tb<DB, TE extends string> = ScopedTable<DB, TE> & keyof ScopedDb<DB, TE>;

/** The alias a `from` names its table by: `o` for `'hr_organizations as o'`, the table itself without alias. */
function aliasOf(from: string): string {
  const at = from.indexOf(' as ');
  return at < 0 ? from : from.slice(at + 4).trim();
}

/** `<alias>.<column> = <tenant>`, for the few places a condition must be written out (a query over a CTE). */
export function ownedBy(alias: string, tenantId: string | number, column = 'client_id') {
  return sql<SqlBool>`${sql.ref(`${alias}.${column}`)} = ${tenantId}`;
}

/**
 * The database seen through one tenant. `K` is the tenant column: `client_id` (HR clients) by default,
 * `academy_id` for the Academy API's tables.
 */
export class Tenant<DB, K extends string = 'client_id'> {
  constructor(
    /** The database, a transaction, or the query creator of a `with` clause (whose tables include the CTE). */
    readonly db: QueryCreator<DB>,
    /** The tenant's key: an HR client's id, an academy's id. */
    readonly id: string | number,
    /** The column that holds it. */
    readonly column: K = 'client_id' as K,
  ) {}

  /** `select … from <table> where <alias>.client_id = <tenant>`. */
  selectFrom<TE extends TenantFrom<DB, K>>(from: TE): SelectQueryBuilder<ScopedDb<DB, TE>, Tb<DB, TE>, Nothing> {
    // The cast spells out the type Kysely's own `selectFrom` gives a literal `from`; the builder is Kysely's own.
    const query = this.db.selectFrom(from as never) as unknown as SelectQueryBuilder<
      ScopedDb<DB, TE>,
      Tb<DB, TE>,
      Nothing
    >;
    return query.where(ownedBy(aliasOf(from), this.id, this.column));
  }

  /** `update <table> … where <alias>.client_id = <tenant>`. */
  updateTable<TE extends TenantFrom<DB, K>>(
    table: TE,
  ): UpdateQueryBuilder<ScopedDb<DB, TE>, Tb<DB, TE>, Tb<DB, TE>, UpdateResult> {
    const query = this.db.updateTable(table as never) as unknown as UpdateQueryBuilder<
      ScopedDb<DB, TE>,
      Tb<DB, TE>,
      Tb<DB, TE>,
      UpdateResult
    >;
    return query.where(ownedBy(aliasOf(table), this.id, this.column));
  }

  /** `delete from <table> where <alias>.client_id = <tenant>`. */
  deleteFrom<TE extends TenantFrom<DB, K>>(table: TE): DeleteQueryBuilder<ScopedDb<DB, TE>, Tb<DB, TE>, DeleteResult> {
    const query = this.db.deleteFrom(table as never) as unknown as DeleteQueryBuilder<
      ScopedDb<DB, TE>,
      Tb<DB, TE>,
      DeleteResult
    >;
    return query.where(ownedBy(aliasOf(table), this.id, this.column));
  }

  /** `insert into <table>` of rows without their tenant column: the tenant's key is written into each. */
  insertInto<T extends TenantTable<DB, K>>(table: T, rows: TenantRow<DB, T, K> | readonly TenantRow<DB, T, K>[]) {
    const list = (Array.isArray(rows) ? rows : [rows]) as readonly TenantRow<DB, T, K>[];
    return this.db
      .insertInto(table)
      .values(list.map((row) => ({ ...row, [this.column]: this.id })) as never as Insertable<DB[T]>[]);
  }

  /**
   * Inserts a row unless one with the same `conflict` columns exists (for client-chosen codes, `['client_id',
   * 'id']`); answers whether it inserted. Two concurrent inserts of one key cannot both win.
   */
  async insertIfAbsent<T extends TenantTable<DB, K>>(
    table: T,
    row: TenantRow<DB, T, K>,
    conflict: readonly (keyof DB[T] & string)[] = ['client_id', 'id'] as never,
  ): Promise<boolean> {
    const inserted = await this.insertInto(table, row)
      .onConflict((oc) => oc.columns(conflict as never).doNothing())
      .returning(sql<number>`1`.as('one') as never)
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Like {@link insertIfAbsent}, answering the new row's `pk` (undefined when a row with that id existed). */
  async insertIfAbsentPk<T extends TenantTable<DB, K>>(
    table: T,
    row: TenantRow<DB, T, K>,
    conflict: readonly (keyof DB[T] & string)[] = ['client_id', 'id'] as never,
  ): Promise<number | undefined> {
    const inserted = (await this.insertInto(table, row)
      .onConflict((oc) => oc.columns(conflict as never).doNothing())
      .returning(sql<number>`pk`.as('pk') as never)
      .executeTakeFirst()) as { pk: number | string } | undefined;
    return inserted === undefined ? undefined : Number(inserted.pk);
  }

  /** The same tenant through another connection or transaction (a unit of work binds its repositories so). */
  on<D>(db: QueryCreator<D>): Tenant<D, K> {
    return new Tenant<D, K>(db, this.id, this.column);
  }
}

/** A row to insert into a tenant table, without its tenant column (the `Tenant` writes it). */
export type TenantRow<DB, T extends keyof DB, K extends string = 'client_id'> = Omit<Insertable<DB[T]>, K>;

/** A change of a tenant table's row; the tenant column cannot be changed. */
export type TenantUpdate<DB, T extends keyof DB, K extends string = 'client_id'> = Omit<Updateable<DB[T]>, K>;

declare const tenantBrand: unique symbol;
/**
 * A tenant's id, branded by its API: an HR client's id (`HrTenantId`) or an academy's number (`AcademyTenantId`).
 * A value becomes one where the caller is known (the bearer token's client, an academy's key, a job's stored
 * tenant, an operator naming a client), through `hrTenantId` / `academyTenantId`; from there it travels typed, so
 * a repository's `tenant(id)` takes nothing else (an object's id or a string of another kind does not compile).
 */
export type TenantId<Api extends string, T> = T & { readonly [tenantBrand]: Api };
export type HrTenantId = TenantId<'hr', string>;
export type AcademyTenantId = TenantId<'academy', number>;
/** An HR client's id, as a tenant: where the caller's client is known (authentication, a stored job, the CLI). */
export const hrTenantId = (id: string): HrTenantId => id as HrTenantId;
/** An academy's number, as a tenant: where the caller's academy is known. */
export const academyTenantId = (id: number): AcademyTenantId => id as AcademyTenantId;
