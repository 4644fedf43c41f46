/** Dataset imports (`/dataset_imports`): a CSV that replaces a dataset's values, in the background. */

import type { RequestOptions } from '../http.js';
import type { DatasetImport, DatasetImportCreate, DatasetImportListQuery } from '../schemas/hr/core/dataset-imports.js';
import { type DownloadResponse, enc, type HrCore, type Id, type Verbs } from './core.js';

/** `hr.datasetImports`. */
export function datasetImports(core: HrCore, v: Verbs) {
  const path = '/dataset_imports';
  return {
    /** `POST /dataset_imports`: `{dataset_id, upload_id}`; poll `retrieve` until `status` is `finished`. */
    create: v.create<DatasetImportCreate, DatasetImport>(path),
    list: v.list<DatasetImport, DatasetImportListQuery>(path),
    retrieve: v.retrieve<DatasetImport>(path),
    /** The CSV as uploaded (raw `Response`). */
    source: (id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${path}/${enc(id)}/source`, options),
    /** The report, CSV (raw `Response`); `HrPermissionError` (`report_file_not_ready`) until the import ends. */
    report: (id: Id, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${path}/${enc(id)}/report`, options),
  };
}
