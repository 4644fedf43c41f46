import { formatDateTime } from '../../../platform/time.js';
import type { ImportRecord } from './repository.js';
import type { Import } from './schemas.js';

/** `ImportFull`. */
export function presentImport(i: ImportRecord): Import {
  return {
    id: i.id,
    type: i.type,
    creator: i.creator,
    status: i.status,
    origin: 'api',
    rows_count: i.rowsCount,
    created_objects_count: i.createdCount,
    updated_objects_count: i.updatedCount,
    deleted_objects_count: 0,
    errors_count: i.errorsCount,
    created_at: formatDateTime(i.createdAt),
    updated_at: formatDateTime(i.updatedAt),
  };
}
