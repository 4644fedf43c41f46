import { formatDateTime } from '../../../platform/time.js';
import type { MigrationRecord } from './repository.js';
import type { MigrationCampaign, MigrationStatus } from './schemas.js';

/** The client's migration, and whether a template still needs it (`GET …/status`). */
export interface MigrationView {
  migration: MigrationRecord;
  available: boolean;
}

export function presentStatus(view: MigrationView): MigrationStatus {
  const { migration: m } = view;
  return {
    status: m.status,
    auto_start: m.autoStart,
    new_migration_available: view.available,
    started_at: m.startedAt === null ? null : formatDateTime(m.startedAt),
    ended_at: m.endedAt === null ? null : formatDateTime(m.endedAt),
  };
}

/** `DocGenMigrationCampaign`: a restart's run, queued. */
export function presentRestart(view: MigrationView): MigrationCampaign {
  return { status: 'created', new_migration_available: view.available };
}
