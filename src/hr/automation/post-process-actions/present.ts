import type { PostProcessActionRecord } from './repository.js';
import type { PostProcessAction } from './schemas.js';

export function presentPostProcessAction(row: PostProcessActionRecord): PostProcessAction {
  return { id: row.id, type: row.type, ids: row.ids };
}
