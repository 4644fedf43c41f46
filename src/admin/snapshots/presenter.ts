import { formatDateTime } from '../../platform/time.js';
import type { SnapshotDetail, SnapshotRecord } from './repository.js';
import type { ReplaceResult, Snapshot } from './schemas.js';
import type { ReplaceOutcome } from './service.js';

export function presentSnapshot(snapshot: SnapshotRecord | SnapshotDetail): Snapshot {
  return {
    name: snapshot.name,
    tenant: snapshot.tenant,
    created_at: formatDateTime(snapshot.createdAt),
    created_by: snapshot.createdBy,
    rows_count: snapshot.rowsCount,
    files_count: snapshot.filesCount,
    size: snapshot.size,
    ...('tables' in snapshot ? { tables: snapshot.tables } : {}),
  };
}

export function presentReplaced(outcome: ReplaceOutcome): ReplaceResult {
  return {
    tenant: outcome.tenant.key,
    snapshot: outcome.snapshot,
    credentials: outcome.credentials,
    deleted_rows: outcome.deletedRows,
    restored_rows: outcome.restoredRows,
    cancelled_jobs: outcome.cancelledJobs,
    deleted_files: outcome.deletedFiles,
  };
}
