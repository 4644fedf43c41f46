import type { Selectable } from 'kysely';
import { AcademyRepository } from '../../platform/db/repository.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { academyTenantId } from '../../platform/db/tenant.js';
import type { AcademiesTable } from './tables.js';

/** An academy as the domain sees it. */
export interface AcademyRecord {
  id: number;
  name: string;
  superAdminId: number;
  createdAt: number;
}

/** An API key of an academy, without its hash. */
export interface AcademyKeyRecord {
  id: number;
  academyId: AcademyTenantId;
  createdAt: number;
  expiresAt: number | null;
}

/** A key found by its hash, with its academy's super administrator. */
export interface FoundKeyRecord {
  id: number;
  keyHash: string;
  academyId: AcademyTenantId;
  expiresAt: number | null;
  superAdminId: number;
}

function toRecord(row: Selectable<AcademiesTable>): AcademyRecord {
  return { id: row.id, name: row.name, superAdminId: row.super_admin_id, createdAt: row.created_at };
}

/** Academies and their API keys (hashes only). */
export class AcademiesRepository extends AcademyRepository {
  async findByName(name: string): Promise<AcademyRecord | undefined> {
    const row = await this.db
      .selectFrom('academies')
      .selectAll()
      .where('name', '=', name)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every academy, oldest first. */
  async list(): Promise<AcademyRecord[]> {
    const rows = await this.db.selectFrom('academies').selectAll().orderBy('id').execute();
    return rows.map(toRecord);
  }

  /** Every API key of every academy, without its hash: ids and dates only. */
  async listKeys(): Promise<AcademyKeyRecord[]> {
    const rows = await this.db
      .selectFrom('academy_api_keys')
      .select(['id', 'academy_id', 'created_at', 'expires_at'])
      .orderBy('academy_id')
      .orderBy('id')
      .execute();
    return rows.map((k) => ({
      id: k.id,
      academyId: academyTenantId(k.academy_id),
      createdAt: k.created_at,
      expiresAt: k.expires_at,
    }));
  }

  async find(id: number): Promise<AcademyRecord | undefined> {
    const row = await this.db.selectFrom('academies').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Creates the academy, its super administrator (user 1) and its first key (run it in one unit of work). */
  async create(name: string, keyHash: string, at: number): Promise<AcademyRecord> {
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
    return toRecord(academy);
  }

  /** Adds a key; with `retireOthersAt`, the current keys stop working at that instant (run it in one unit of work). */
  async addKey(academyId: AcademyTenantId, keyHash: string, at: number, retireOthersAt?: number): Promise<void> {
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

  async findKey(keyHash: string): Promise<FoundKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('academy_api_keys as k')
      .innerJoin('academies as a', 'a.id', 'k.academy_id')
      .select(['k.id', 'k.key_hash', 'k.academy_id', 'k.expires_at', 'a.super_admin_id'])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        keyHash: row.key_hash,
        academyId: academyTenantId(row.academy_id),
        expiresAt: row.expires_at,
        superAdminId: row.super_admin_id,
      }
    );
  }
}
