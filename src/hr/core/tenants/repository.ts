import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId } from '../../../platform/db/tenant.js';
import type { HrApplicationsTable, HrClientsTable } from './tables.js';

/** A client (tenant). */
export interface ClientRecord {
  id: string;
  name: string;
  createdAt: number;
}

/** An OAuth application of a client. */
export interface ApplicationRecord {
  id: string;
  clientId: HrTenantId;
  name: string;
  secretHash: string;
  readOnly: boolean;
  revokedAt: number | null;
  createdAt: number;
}

/** An application as the operator's list shows it: without its secret's hash. */
export type ListedApplicationRecord = Omit<ApplicationRecord, 'secretHash'>;

function toClientRecord(row: Selectable<HrClientsTable>): ClientRecord {
  return { id: row.id, name: row.name, createdAt: Number(row.created_at) };
}

function toListedApplicationRecord(row: Omit<Selectable<HrApplicationsTable>, 'secret_hash'>): ListedApplicationRecord {
  return {
    id: row.id,
    clientId: hrTenantId(row.client_id),
    name: row.name,
    readOnly: row.read_only === 1,
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    createdAt: Number(row.created_at),
  };
}

function toApplicationRecord(row: Selectable<HrApplicationsTable>): ApplicationRecord {
  return { ...toListedApplicationRecord(row), secretHash: row.secret_hash };
}

/** Clients (tenants) and their OAuth applications. */
export class TenantsRepository {
  constructor(private readonly db: Db) {}

  async insertClient(client: ClientRecord): Promise<void> {
    await this.db
      .insertInto('hr_clients')
      .values({ id: client.id, name: client.name, created_at: client.createdAt })
      .execute();
  }

  async findClient(id: string): Promise<ClientRecord | undefined> {
    const row = await this.db.selectFrom('hr_clients').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toClientRecord(row) : undefined;
  }

  async findClientByName(name: string): Promise<ClientRecord | undefined> {
    const row = await this.db
      .selectFrom('hr_clients')
      .selectAll()
      .where('name', '=', name)
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    return row ? toClientRecord(row) : undefined;
  }

  /** Every client, oldest first. */
  async listClients(): Promise<ClientRecord[]> {
    const rows = await this.db.selectFrom('hr_clients').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toClientRecord);
  }

  /** Every application of every client, oldest first, without their secrets' hashes. */
  async listApplications(): Promise<ListedApplicationRecord[]> {
    const rows = await this.db
      .selectFrom('hr_applications')
      .select(['id', 'client_id', 'name', 'read_only', 'revoked_at', 'created_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toListedApplicationRecord);
  }

  async insertApplication(app: ApplicationRecord): Promise<void> {
    await this.db
      .insertInto('hr_applications')
      .values({
        id: app.id,
        client_id: app.clientId,
        name: app.name,
        secret_hash: app.secretHash,
        read_only: app.readOnly ? 1 : 0,
        revoked_at: app.revokedAt,
        created_at: app.createdAt,
      })
      .execute();
  }

  async findApplication(id: string): Promise<ApplicationRecord | undefined> {
    const row = await this.db.selectFrom('hr_applications').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApplicationRecord(row) : undefined;
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
