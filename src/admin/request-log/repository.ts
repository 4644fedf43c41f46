import type { Selectable } from 'kysely';
import { type Db, dialectOf } from '../../platform/db/database.js';
import { prepared } from '../../platform/db/prepared.js';
import { AdminAuditRepository } from '../audit/repository.js';
import { boundTenant, clearTenant, type LogCaps, sweepOlderThan } from './bounds.js';
import type { Journal } from './journal.js';
import type { NearMiss } from './near-miss.js';
import type { RequestLogTable } from './tables.js';

/** One logged call, as the domain sees it. */
export interface LoggedCallRecord {
  seq: number;
  tenant: string;
  credentialId: string | null;
  at: number;
  /** The same instant on the tenant's clock. */
  tenantAt: number;
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  faultId: string | null;
  flags: CallFlags;
}

/** What the report reads of a call beyond its status and duration. */
export interface CallFlags {
  /** The operation is an Atrium extension (its OpenAPI tags say so): the real service has no such call. */
  extension: boolean;
  /** The real API marks the operation deprecated (its OpenAPI `deprecated`). */
  deprecated: boolean;
  /** Query parameters the operation ignored (undeclared ones, dropped), and `per_page` clamped. */
  ignored: string[];
  requestTruncated: boolean;
  responseTruncated: boolean;
  /** The call failed authentication or hit no route (docs/admin.md, "Near misses"); absent otherwise. */
  nearMiss?: NearMiss;
}

/** A call to write; without `tenantAt`, the tenant's clock is taken to be the installation's. */
export type NewLoggedCall = Omit<LoggedCallRecord, 'seq' | 'tenantAt'> & { tenantAt?: number };

/** Which calls a listing shows. */
export interface CallFilter {
  method?: string;
  /** One status, or a class: `5` for 5xx. */
  status?: number;
  statusClass?: number;
  operationId?: string;
  /** Calls whose path starts with this. */
  pathPrefix?: string;
  since?: number;
  until?: number;
  faulted?: boolean;
  /** Older than this `seq` (the page before). */
  beforeSeq?: number;
  /** Newer than this `seq` (a tail). */
  afterSeq?: number;
}

type Row = Selectable<RequestLogTable>;

const COLUMNS = [
  'seq',
  'tenant',
  'credential_id',
  'at',
  'tenant_at',
  'method',
  'path',
  'operation_id',
  'status',
  'duration_ms',
  'request_headers',
  'request_body',
  'response_headers',
  'response_body',
  'fault_id',
  'flags',
] as const;

function parseFlags(text: string): CallFlags {
  const flags = JSON.parse(text) as Partial<CallFlags>;
  return {
    extension: flags.extension === true,
    deprecated: flags.deprecated === true,
    ignored: flags.ignored ?? [],
    requestTruncated: flags.requestTruncated === true,
    responseTruncated: flags.responseTruncated === true,
    ...(flags.nearMiss ? { nearMiss: flags.nearMiss } : {}),
  };
}

function toRecord(row: Row): LoggedCallRecord {
  return {
    seq: Number(row.seq),
    tenant: row.tenant,
    credentialId: row.credential_id,
    at: Number(row.at),
    tenantAt: Number(row.tenant_at ?? row.at),
    method: row.method,
    path: row.path,
    operationId: row.operation_id,
    status: Number(row.status),
    durationMs: Number(row.duration_ms),
    requestHeaders: JSON.parse(row.request_headers) as Record<string, string>,
    requestBody: row.request_body,
    responseHeaders: JSON.parse(row.response_headers) as Record<string, string>,
    responseBody: row.response_body,
    faultId: row.fault_id,
    flags: parseFlags(row.flags),
  };
}

type NewRow = Omit<RequestLogTable, 'seq'>;

/** A logged call as its row, with its size: the UTF-8 bytes of its text. */
function rowOf(c: NewLoggedCall): NewRow {
  const row = {
    tenant: c.tenant,
    credential_id: c.credentialId,
    at: c.at,
    tenant_at: c.tenantAt ?? c.at,
    method: c.method,
    path: c.path,
    operation_id: c.operationId,
    status: c.status,
    duration_ms: c.durationMs,
    request_headers: JSON.stringify(c.requestHeaders),
    request_body: c.requestBody,
    response_headers: JSON.stringify(c.responseHeaders),
    response_body: c.responseBody,
    fault_id: c.faultId,
    flags: JSON.stringify(c.flags),
  };
  const bytes =
    Buffer.byteLength(row.path) +
    Buffer.byteLength(row.request_headers) +
    Buffer.byteLength(row.response_headers) +
    Buffer.byteLength(row.flags) +
    (row.request_body === null ? 0 : Buffer.byteLength(row.request_body)) +
    (row.response_body === null ? 0 : Buffer.byteLength(row.response_body));
  return { ...row, bytes };
}

/** No caps: a batch written as given (tests). */
const UNBOUNDED: LogCaps = { maxRows: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };

// On SQLite every logged call is one run of this insert, built and compiled once (platform/db/prepared.ts).
const insertCall = prepared((db: Db, p: NewRow) =>
  db.insertInto('request_log').values({
    tenant: p.tenant,
    credential_id: p.credential_id,
    at: p.at,
    tenant_at: p.tenant_at,
    method: p.method,
    path: p.path,
    operation_id: p.operation_id,
    status: p.status,
    duration_ms: p.duration_ms,
    request_headers: p.request_headers,
    request_body: p.request_body,
    response_headers: p.response_headers,
    response_body: p.response_body,
    fault_id: p.fault_id,
    flags: p.flags,
    bytes: p.bytes,
  }),
);

/**
 * Rows per insert statement on PostgreSQL: 16 parameters each, far below the protocol's 65,535. One statement per
 * row was a round trip per call, which fell behind the calls under load (docs/PERFORMANCE.md, "The request log on
 * PostgreSQL").
 */
export const PG_ROWS_PER_INSERT = 200;

export class RequestLogRepository {
  /**
   * `journal`: where the calls are (journal.ts); `main`: the tenants' database, where clearing a log is audited (in
   * the clear's transaction when the journal is that database).
   */
  constructor(
    private readonly journal: Journal,
    private readonly main: Db,
  ) {}

  /** The handle of the log's tables. */
  get db(): Db {
    return this.journal.db();
  }

  /**
   * Writes calls in one transaction: on SQLite one prepared insert each (in process, no round trip); on PostgreSQL
   * one insert of up to `PG_ROWS_PER_INSERT` rows at a time. In the same transaction, each tenant of the batch is
   * brought back within `caps`, its oldest calls deleted first (bounds.ts).
   */
  async insert(calls: readonly NewLoggedCall[], caps: LogCaps = UNBOUNDED): Promise<void> {
    if (calls.length === 0) return;
    const postgres = dialectOf(this.db) === 'postgres';
    const rows = calls.map(rowOf);
    const added = new Map<string, { calls: number; bytes: number }>();
    for (const row of rows) {
      const a = added.get(row.tenant) ?? { calls: 0, bytes: 0 };
      a.calls += 1;
      a.bytes += row.bytes;
      added.set(row.tenant, a);
    }
    await this.db.transaction().execute(async (trx) => {
      if (!postgres) for (const row of rows) await insertCall.execute(trx, row);
      else {
        for (let i = 0; i < rows.length; i += PG_ROWS_PER_INSERT) {
          await trx
            .insertInto('request_log')
            .values(rows.slice(i, i + PG_ROWS_PER_INSERT))
            .execute();
        }
      }
      // Tenants in one order in every process: two batches never wait on each other's tenants crosswise.
      for (const tenant of [...added.keys()].sort()) {
        const a = added.get(tenant) as { calls: number; bytes: number };
        await boundTenant(trx, tenant, a.calls, a.bytes, caps);
      }
    });
  }

  /** A tenant's calls that pass the filter: newest first, or (with `afterSeq`) oldest first. */
  async list(tenant: string, filter: CallFilter, limit: number): Promise<LoggedCallRecord[]> {
    let q = this.db.selectFrom('request_log').select(COLUMNS).where('tenant', '=', tenant);
    if (filter.method !== undefined) q = q.where('method', '=', filter.method);
    if (filter.status !== undefined) q = q.where('status', '=', filter.status);
    if (filter.statusClass !== undefined) {
      q = q.where('status', '>=', filter.statusClass * 100).where('status', '<', filter.statusClass * 100 + 100);
    }
    if (filter.operationId !== undefined) q = q.where('operation_id', '=', filter.operationId);
    if (filter.pathPrefix !== undefined) {
      q = q.where('path', '>=', filter.pathPrefix).where('path', '<', `${filter.pathPrefix}\uFFFF`);
    }
    if (filter.since !== undefined) q = q.where('at', '>=', filter.since);
    if (filter.until !== undefined) q = q.where('at', '<', filter.until);
    if (filter.faulted === true) q = q.where('fault_id', 'is not', null);
    if (filter.faulted === false) q = q.where('fault_id', 'is', null);
    if (filter.beforeSeq !== undefined) q = q.where('seq', '<', filter.beforeSeq);
    if (filter.afterSeq !== undefined) q = q.where('seq', '>', filter.afterSeq);
    const rows = await q
      .orderBy('seq', filter.afterSeq !== undefined ? 'asc' : 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => toRecord(r as Row));
  }

  async find(tenant: string, seq: number): Promise<LoggedCallRecord | undefined> {
    const row = await this.db
      .selectFrom('request_log')
      .select(COLUMNS)
      .where('tenant', '=', tenant)
      .where('seq', '=', seq)
      .executeTakeFirst();
    return row && toRecord(row as Row);
  }

  /** The newest `seq` of a tenant (0 when none). */
  async lastSeq(tenant: string): Promise<number> {
    const row = await this.db
      .selectFrom('request_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('tenant', '=', tenant)
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** What a report reads: every call of a tenant in a time range, oldest first (bounded by the log's size). */
  async forReport(
    tenant: string,
    since: number,
    until: number,
  ): Promise<
    Pick<LoggedCallRecord, 'at' | 'method' | 'path' | 'operationId' | 'status' | 'durationMs' | 'flags' | 'faultId'>[]
  > {
    const rows = await this.db
      .selectFrom('request_log')
      .select(['at', 'method', 'path', 'operation_id', 'status', 'duration_ms', 'flags', 'fault_id'])
      .where('tenant', '=', tenant)
      .where('at', '>=', since)
      .where('at', '<', until)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({
      at: Number(r.at),
      method: r.method,
      path: r.path,
      operationId: r.operation_id,
      status: Number(r.status),
      durationMs: Number(r.duration_ms),
      flags: parseFlags(r.flags),
      faultId: r.fault_id,
    }));
  }

  /**
   * Deletes every call of a tenant and resets its usage, audited: in one transaction when the log shares the tenants'
   * database; else the audit entry is written once the journal's delete has committed. Answers how many.
   */
  async clear(tenant: string, audit: { at: number; actor: string }): Promise<number> {
    const record = (db: Db, deleted: number) =>
      new AdminAuditRepository(db).record({
        ...audit,
        action: 'tenant.requests_cleared',
        target: tenant,
        detail: { deleted },
      });
    if (!this.journal.separate) {
      return this.main.transaction().execute(async (trx) => {
        const deleted = await clearTenant(trx, tenant);
        await record(trx, deleted);
        return deleted;
      });
    }
    const deleted = await this.db.transaction().execute((trx) => clearTenant(trx, tenant));
    await record(this.main, deleted);
    return deleted;
  }

  /** Closes the journal's own file, if it has one (once the last batch is written). */
  close(): Promise<void> {
    return this.journal.close();
  }

  /** Deletes the calls older than `before` (the hourly retention sweep); answers how many. */
  sweep(before: number): Promise<number> {
    return sweepOlderThan(this.db, before);
  }
}
