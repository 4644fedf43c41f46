import type { Db } from '../../platform/db/database.js';

/** An admin action, as the domain sees it (instants in epoch ms). */
export interface AdminActionRecord {
  seq: number;
  at: number;
  actor: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
}

export class AdminAuditRepository {
  constructor(readonly db: Db) {}

  async record(entry: Omit<AdminActionRecord, 'seq'>): Promise<void> {
    await this.db
      .insertInto('admin_audit')
      .values({
        at: entry.at,
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        detail: JSON.stringify(entry.detail),
      })
      .execute();
  }

  /** The newest actions first, `limit` of them, before `beforeSeq` if given. */
  async list(limit: number, beforeSeq?: number): Promise<AdminActionRecord[]> {
    let q = this.db
      .selectFrom('admin_audit')
      .select(['seq', 'at', 'actor', 'action', 'target', 'detail'])
      .orderBy('seq', 'desc')
      .limit(limit);
    if (beforeSeq !== undefined) q = q.where('seq', '<', beforeSeq);
    const rows = await q.execute();
    return rows.map((r) => ({
      seq: Number(r.seq),
      at: Number(r.at),
      actor: r.actor,
      action: r.action,
      target: r.target,
      detail: JSON.parse(r.detail) as Record<string, unknown>,
    }));
  }
}
