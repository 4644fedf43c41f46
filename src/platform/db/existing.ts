import type { Kysely } from 'kysely';
import type { Db } from './database.js';
import type { Tables } from './schema.js';
import type { HrTenantId } from './tenant.js';
import { Tenant } from './tenant.js';

/** The tables whose rows a client names by code: scoped by `client_id`, keyed by a text `id` within the client. */
export type ClientKeyedTable = {
  [T in keyof Tables]: Tables[T] extends { client_id: string; id: string } ? T : never;
}[keyof Tables];

/**
 * Which of these ids name a row of the client's table (the others are unknown to the caller, another client's
 * included). One `id in (…)` query on the table's `(client_id, id)` key; none for no ids.
 */
export async function existingIds(
  db: Db,
  table: ClientKeyedTable,
  clientId: HrTenantId,
  ids: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  type Keyed = Record<ClientKeyedTable, { client_id: string; id: string }>;
  const keyed = db as unknown as Kysely<Keyed>;
  const rows = await new Tenant<Keyed>(keyed, clientId)
    .selectFrom(table)
    .select('id')
    .where('id', 'in', unique)
    .execute();
  return new Set(rows.map((r) => r.id));
}
