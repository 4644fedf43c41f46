import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { hrTenantId } from '../../../platform/db/tenant.js';
import type { Caller } from '../../audit/actor.js';

/** The resources with a bulk path, and what each call does to its items. */
export type BulkResource = 'employees' | 'users' | 'organizations';
/** `upsert`: an import's row, created or updated by its natural key (a manager's email). */
export type BulkAction = 'create' | 'replace' | 'patch' | 'upsert';
export type BulkStatus = 'queued' | 'in_progress' | 'completed';

/** A bulk call, as the domain sees it (instants in epoch ms). */
export interface BulkOperation {
  id: string;
  resource: BulkResource;
  action: BulkAction;
  status: BulkStatus;
  total: number;
  caller: Caller;
  jobId: number | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** One element of a call, waiting to be applied. */
export interface PendingBulkItem {
  operationId: string;
  index: number;
  /** The element as sent, decoded. */
  input: unknown;
}

/** How an item ended: `result` is the resource as its GET presents it, or the single endpoint's error body. */
export interface BulkSettlement {
  status: 'success' | 'failed';
  outcome: 'created' | 'updated' | 'failed';
  message: string;
  result: unknown;
  resourceId: string | null;
}

export type SettledBulkItem = BulkSettlement & { index: number };

/** The count on the call that each outcome adds to. */
const COUNT_OF = { created: 'created_count', updated: 'updated_count', failed: 'failed_count' } as const;

/** Items are inserted this many to a statement (8 columns each: under SQLite's 32,766 variables). */
const INSERT_BATCH = 500;

export class BulkRepository extends HrRepository {
  /** A call and its items, each pending. */
  async insert(
    clientId: HrTenantId,
    op: Omit<BulkOperation, 'status' | 'startedAt' | 'finishedAt' | 'total'>,
    inputs: readonly unknown[],
  ): Promise<void> {
    await this.insertOperation(clientId, op, inputs.length);
    await this.insertItems(
      clientId,
      op.id,
      inputs.map((input, index) => ({ index, input })),
      op.createdAt,
    );
  }

  /** A call without its items (an import adds them as it reads its file). */
  async insertOperation(
    clientId: HrTenantId,
    op: Omit<BulkOperation, 'status' | 'startedAt' | 'finishedAt' | 'total'>,
    total: number,
  ): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_bulk_operations', {
        id: op.id,
        resource: op.resource,
        action: op.action,
        status: 'queued',
        total,
        caller: JSON.stringify(op.caller),
        job_id: op.jobId,
        created_at: op.createdAt,
        started_at: null,
        finished_at: null,
      })
      .execute();
  }

  /**
   * Items of a call: pending, or already failed (`failure`: a row an import could not even read), at their
   * `index`.
   */
  async insertItems(
    clientId: HrTenantId,
    operationId: string,
    items: readonly { index: number; input: unknown; failure?: { code: string; message: string } }[],
    at: number,
  ): Promise<void> {
    for (let start = 0; start < items.length; start += INSERT_BATCH) {
      const rows = items.slice(start, start + INSERT_BATCH).map((item) => ({
        operation_id: operationId,
        item_index: item.index,
        input: JSON.stringify(item.input),
        status: item.failure ? 'failed' : 'pending',
        outcome: item.failure ? 'failed' : null,
        message: item.failure?.message ?? null,
        result: item.failure ? JSON.stringify(item.failure) : null,
        resource_id: null,
        settled_at: item.failure ? at : null,
      }));
      await this.tenant(clientId).insertInto('hr_bulk_items', rows).execute();
    }
  }

  /**
   * Deletes up to `limit` of a call's items, and zeroes its counts (an import reading its file again after a crash,
   * or failing): answers how many it deleted, so that the caller deletes a batch per turn of the event loop.
   */
  async resetItems(clientId: HrTenantId, operationId: string, limit: number): Promise<number> {
    const t = this.tenant(clientId);
    const deleted = await t
      .deleteFrom('hr_bulk_items as i')
      .where('i.operation_id', '=', operationId)
      .where(
        'i.item_index',
        'in',
        t
          .selectFrom('hr_bulk_items as s')
          .select('s.item_index')
          .where('s.operation_id', '=', operationId)
          .orderBy('s.item_index')
          .limit(limit),
      )
      .executeTakeFirst();
    await t
      .updateTable('hr_bulk_operations as o')
      .set({ created_count: 0, updated_count: 0, failed_count: 0 })
      .where('o.id', '=', operationId)
      .execute();
    return Number(deleted.numDeletedRows);
  }

  /** Sets a call's total once its items are stored, with those stored already failed (`insertItems`' `failure`). */
  async setTotal(clientId: HrTenantId, id: string, total: number, failed = 0): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_bulk_operations as o')
      .set({ total, failed_count: failed })
      .where('o.id', '=', id)
      .execute();
  }

  /**
   * Items settled so far, by outcome: the counts kept on the call (`settle`), one row read however many items
   * it has.
   */
  async counts(
    clientId: HrTenantId,
    id: string,
  ): Promise<Record<'created' | 'updated' | 'failed' | 'pending', number>> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_bulk_operations as o')
      .select(['o.total', 'o.created_count', 'o.updated_count', 'o.failed_count'])
      .where('o.id', '=', id)
      .executeTakeFirst();
    const [total, created, updated, failed] = row
      ? [row.total, row.created_count, row.updated_count, row.failed_count].map(Number)
      : [0, 0, 0, 0];
    return {
      created: created ?? 0,
      updated: updated ?? 0,
      failed: failed ?? 0,
      pending: Math.max(0, (total ?? 0) - (created ?? 0) - (updated ?? 0) - (failed ?? 0)),
    };
  }

  /** Settled items from `afterIndex` on, in order, `limit` at a time (an import's report, streamed). */
  async settledPage(
    clientId: HrTenantId,
    id: string,
    afterIndex: number,
    limit: number,
    onlyFailed: boolean,
  ): Promise<(SettledBulkItem & { input: unknown })[]> {
    let q = this.tenant(clientId)
      .selectFrom('hr_bulk_items as i')
      .select(['i.item_index', 'i.status', 'i.outcome', 'i.message', 'i.result', 'i.resource_id', 'i.input'])
      .where('i.operation_id', '=', id)
      .where('i.item_index', '>', afterIndex);
    q = onlyFailed ? q.where('i.status', '=', 'failed') : q.where('i.status', '!=', 'pending');
    const rows = await q.orderBy('i.item_index').limit(limit).execute();
    return rows.map((r) => ({
      index: Number(r.item_index),
      status: r.status as BulkSettlement['status'],
      outcome: (r.outcome ?? 'failed') as BulkSettlement['outcome'],
      message: r.message ?? '',
      result: r.result === null ? null : (JSON.parse(r.result) as unknown),
      resourceId: r.resource_id,
      input: JSON.parse(r.input) as unknown,
    }));
  }

  async find(clientId: HrTenantId, id: string): Promise<BulkOperation | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_bulk_operations as o')
      .select([
        'o.id',
        'o.resource',
        'o.action',
        'o.status',
        'o.total',
        'o.caller',
        'o.job_id',
        'o.created_at',
        'o.started_at',
        'o.finished_at',
      ])
      .where('o.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      resource: row.resource as BulkResource,
      action: row.action as BulkAction,
      status: row.status as BulkStatus,
      total: Number(row.total),
      caller: JSON.parse(row.caller) as Caller,
      jobId: row.job_id === null ? null : Number(row.job_id),
      createdAt: Number(row.created_at),
      startedAt: row.started_at === null ? null : Number(row.started_at),
      finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    };
  }

  /** Moves a call on: `in_progress` when its job starts, `completed` when no item is pending. */
  async mark(clientId: HrTenantId, id: string, status: 'in_progress' | 'completed', at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_bulk_operations as o')
      .set(status === 'in_progress' ? { status, started_at: at } : { status, finished_at: at })
      .where('o.id', '=', id)
      .where('o.status', '!=', status)
      .execute();
  }

  /** The next items to apply, in the call's order. */
  async pending(clientId: HrTenantId, id: string, limit: number): Promise<PendingBulkItem[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_bulk_items as i')
      .select(['i.item_index', 'i.input'])
      .where('i.operation_id', '=', id)
      .where('i.status', '=', 'pending')
      .orderBy('i.item_index')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ operationId: id, index: Number(r.item_index), input: JSON.parse(r.input) as unknown }));
  }

  /**
   * Writes how an item ended, if it is still pending: false when it was settled already (the call's job ran it
   * before being taken over), in which case the caller rolls its write back.
   */
  async settle(clientId: HrTenantId, item: PendingBulkItem, settlement: BulkSettlement, at: number): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_bulk_items as i')
      .set({
        status: settlement.status,
        outcome: settlement.outcome,
        message: settlement.message,
        result: JSON.stringify(settlement.result),
        resource_id: settlement.resourceId,
        settled_at: at,
      })
      .where('i.operation_id', '=', item.operationId)
      .where('i.item_index', '=', item.index)
      .where('i.status', '=', 'pending')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    // The call's count of this outcome, in the same transaction: an item rolled back takes its count with it.
    const column = COUNT_OF[settlement.outcome];
    await this.tenant(clientId)
      .updateTable('hr_bulk_operations as o')
      .set((eb) => ({ [column]: eb(`o.${column}`, '+', 1) }))
      .where('o.id', '=', item.operationId)
      .execute();
    return true;
  }

  /**
   * Fails every item still pending with one error body, counts them on the call, and completes it: the call's job
   * failed for good. Answers how many items it failed.
   */
  async abandon(
    clientId: HrTenantId,
    id: string,
    body: { code: string; message: string },
    at: number,
  ): Promise<number> {
    const t = this.tenant(clientId);
    const result = await t
      .updateTable('hr_bulk_items as i')
      .set({ status: 'failed', outcome: 'failed', message: body.message, result: JSON.stringify(body), settled_at: at })
      .where('i.operation_id', '=', id)
      .where('i.status', '=', 'pending')
      .executeTakeFirst();
    const failed = Number(result.numUpdatedRows);
    if (failed > 0) {
      await t
        .updateTable('hr_bulk_operations as o')
        .set((eb) => ({ failed_count: eb('o.failed_count', '+', failed) }))
        .where('o.id', '=', id)
        .execute();
    }
    await this.mark(clientId, id, 'completed', at);
    return failed;
  }

  /**
   * Deletes every client's calls completed before `cutoff`, with their items, a batch of calls at a time (not one
   * tenant's work). An import keeps its own row (its counts); its operation and rows go. Answers the calls deleted.
   */
  async sweep(cutoff: number, batch = 100): Promise<number> {
    let total = 0;
    for (;;) {
      const done = await this.db
        .selectFrom('hr_bulk_operations')
        .select(['client_id', 'id'])
        .where('status', '=', 'completed')
        .where('finished_at', '<', cutoff)
        .limit(batch)
        .execute();
      for (const op of done) {
        const tenant = this.tenant(hrTenantId(op.client_id));
        await tenant.deleteFrom('hr_bulk_items as i').where('i.operation_id', '=', op.id).execute();
        await tenant.deleteFrom('hr_bulk_operations as o').where('o.id', '=', op.id).execute();
      }
      total += done.length;
      if (done.length < batch) return total;
    }
  }

  /** The items settled so far, in the call's order. */
  async settled(clientId: HrTenantId, id: string): Promise<SettledBulkItem[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_bulk_items as i')
      .select(['i.item_index', 'i.status', 'i.outcome', 'i.message', 'i.result', 'i.resource_id'])
      .where('i.operation_id', '=', id)
      .where('i.status', '!=', 'pending')
      .orderBy('i.item_index')
      .execute();
    return rows.map((r) => ({
      index: Number(r.item_index),
      status: r.status as BulkSettlement['status'],
      outcome: (r.outcome ?? 'failed') as BulkSettlement['outcome'],
      message: r.message ?? '',
      result: r.result === null ? null : (JSON.parse(r.result) as unknown),
      resourceId: r.resource_id,
    }));
  }
}
