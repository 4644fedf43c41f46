import type { FolderRecord } from './repository.js';
import type { Folder } from './schemas.js';

/** A folder on the wire (reference §3c.5). */
export function presentFolder(folder: FolderRecord): Folder {
  return {
    id: folder.id,
    label: folder.label,
    localized_labels: folder.localizedLabels,
    parent_folder_id: folder.parentFolderId,
  };
}
