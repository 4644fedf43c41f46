import type { Selectable } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import type { AcademiesTable } from './tables.js';

export type AcademyRow = Selectable<AcademiesTable>;

/** Academies and their API keys (hashes only). */
export class AcademiesRepository extends AcademyRepository {
  findByName(name: string): Promise<AcademyRow | undefined> {
    return this.db
      .selectFrom('academies')
      .selectAll()
      .where('name', '=', name)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every academy, oldest first. */
  list(): Promise<AcademyRow[]> {
    return this.db.selectFrom('academies').selectAll().orderBy('id').execute();
  }

  /** Every API key of every academy, without its hash: ids and dates only. */
  listKeys(): Promise<{ id: number; academy_id: number; created_at: number; expires_at: number | null }[]> {
    return this.db
      .selectFrom('academy_api_keys')
      .select(['id', 'academy_id', 'created_at', 'expires_at'])
      .orderBy('academy_id')
      .orderBy('id')
      .execute();
  }

  find(id: number): Promise<AcademyRow | undefined> {
    return this.db.selectFrom('academies').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Creates the academy, its super administrator (user 1) and its first key (run it in one unit of work). */
  async create(name: string, keyHash: string, at: number): Promise<AcademyRow> {
    const superAdminId = 1;
    const academy = await this.db
      .insertInto('academies')
      .values({ name, super_admin_id: superAdminId, created_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.db
      .insertInto('academy_users')
      .values({
        academy_id: academy.id,
        id: superAdminId,
        firstname: 'Super',
        middlename: null,
        lastname: 'Administrator',
        preferred_name: null,
        email: `admin+${academy.id}@academy.invalid`,
        role: 'admin',
        active: 1,
        external_id: null,
        hired_date: null,
        joined_date: null,
        image: null,
        units: '[]',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await this.db
      .insertInto('academy_api_keys')
      .values({ academy_id: academy.id, key_hash: keyHash, created_at: at, expires_at: null })
      .execute();
    return academy;
  }

  /** Adds a key; with `retireOthersAt`, the current keys stop working at that instant (run it in one unit of work). */
  async addKey(academyId: number, keyHash: string, at: number, retireOthersAt?: number): Promise<void> {
    if (retireOthersAt !== undefined) {
      await this.tenant(academyId)
        .updateTable('academy_api_keys')
        .set({ expires_at: retireOthersAt })
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', retireOthersAt)]))
        .execute();
    }
    await this.db
      .insertInto('academy_api_keys')
      .values({ academy_id: academyId, key_hash: keyHash, created_at: at, expires_at: null })
      .execute();
  }

  findKey(
    keyHash: string,
  ): Promise<
    { id: number; key_hash: string; academy_id: number; expires_at: number | null; super_admin_id: number } | undefined
  > {
    return this.db
      .selectFrom('academy_api_keys as k')
      .innerJoin('academies as a', 'a.id', 'k.academy_id')
      .select(['k.id', 'k.key_hash', 'k.academy_id', 'k.expires_at', 'a.super_admin_id'])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
  }
}
