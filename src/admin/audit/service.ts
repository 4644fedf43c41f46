import { formatDateTime } from '../../platform/time.js';
import type { AdminAuditRepository } from './repository.js';

/** An admin action as the CLI (and the admin API) show it. */
export interface ListedAdminAction {
  seq: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
}

/** The admin audit log: every admin action, written by the action's own transaction; read newest first. */
export class AdminAuditService {
  constructor(private readonly repo: AdminAuditRepository) {}

  async list(limit: number, beforeSeq?: number): Promise<ListedAdminAction[]> {
    const rows = await this.repo.list(limit, beforeSeq);
    return rows.map((r) => ({ ...r, at: formatDateTime(r.at) }));
  }
}
