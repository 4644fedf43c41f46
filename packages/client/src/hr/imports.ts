/** Imports (`/imports`): CSV files of employees, managers or organizations, applied in the background. */

import type { RequestOptions } from '../http.js';
import type { Import, ImportCreate, ImportListQuery } from '../schemas/hr/core/imports.js';
import { type DownloadResponse, enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.imports`. */
export function imports(core: HrCore, v: Verbs) {
  const path = '/imports';
  const file = (id: Id, name: string, options?: RequestOptions) => core.download(`${path}/${enc(id)}/${name}`, options);
  return {
    /** `POST /imports`: `{type, uploaded_file: {file_id}}`; poll `retrieve` until the status is final. */
    create: v.create<ImportCreate, Import>(path),
    list: v.list<Import, ImportListQuery>(path),
    retrieve: v.retrieve<Import>(path),
    /** The CSV as uploaded (raw `Response`). */
    source: (id: Id, options?: RequestOptions): Promise<DownloadResponse> => file(id, 'source', options),
    /** The XML report (raw `Response`); `HrPermissionError` (`report_file_not_ready`) until the import ends. */
    report: (id: Id, options?: RequestOptions): Promise<DownloadResponse> => file(id, 'report', options),
    /** The XML report of the failed rows only (raw `Response`). */
    errorsReport: (id: Id, options?: RequestOptions): Promise<DownloadResponse> => file(id, 'errors_report', options),
  };
}
