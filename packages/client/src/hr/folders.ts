/** Folders of employee documents (`/employee_folders`) and of company documents (`/company_folders`). */
import type { Folder, FolderListQuery } from '../schemas/hr/documents/folders.js';
import type { Verbs } from './core.js';

/** `hr.employeeFolders` and `hr.companyFolders`: the same verbs at `path`. */
export function folders(v: Verbs, path: '/employee_folders' | '/company_folders') {
  return {
    list: v.list<Folder, FolderListQuery>(path),
    /** A folder and its ancestors, as the API answers it (an array). */
    retrieve: v.retrieve<Folder[]>(path),
  };
}
