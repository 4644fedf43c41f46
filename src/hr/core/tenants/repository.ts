import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { HrApplicationsTable, HrClientsTable } from './tables.js';

/** Clients (tenants) and their OAuth applications. */
export type ClientRow = Selectable<HrClientsTable>;
export type ApplicationRow = Selectable<HrApplicationsTable>;

export class TenantsRepository {
  constructor(private readonly db: Db) {}

  async insertClient(row: ClientRow): Promise<void> {
    await this.db.insertInto('hr_clients').values(row).execute();
  }

  findClient(id: string): Promise<ClientRow | undefined> {
    return this.db.selectFrom('hr_clients').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findClientByName(name: string): Promise<ClientRow | undefined> {
    return this.db
      .selectFrom('hr_clients')
      .selectAll()
      .where('name', '=', name)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every client, oldest first. */
  listClients(): Promise<ClientRow[]> {
    return this.db.selectFrom('hr_clients').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  /** Every application of every client, oldest first, without their secrets' hashes. */
  listApplications(): Promise<Omit<ApplicationRow, 'secret_hash'>[]> {
    return this.db
      .selectFrom('hr_applications')
      .select(['id', 'client_id', 'name', 'read_only', 'revoked_at', 'created_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async insertApplication(row: ApplicationRow): Promise<void> {
    await this.db.insertInto('hr_applications').values(row).execute();
  }

  findApplication(id: string): Promise<ApplicationRow | undefined> {
    return this.db.selectFrom('hr_applications').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Marks an application revoked and records the event every process polls (run it in one unit of work). */
  async revokeApplication(id: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('hr_applications')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const app = await this.db.selectFrom('hr_applications').select('id').where('id', '=', id).executeTakeFirst();
    if (!app) return false;
    if (Number(result.numUpdatedRows) > 0) {
      await this.db
        .insertInto('auth_events')
        .values({ kind: 'application_revoked', ref: id, expires_at: null, created_at: at })
        .execute();
    }
    return true;
  }
}
