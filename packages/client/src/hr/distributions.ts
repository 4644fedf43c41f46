/**
 * Distributions (`/distribution_projects`, `/distributions`): a PDF split between the employees its pages name,
 * filed as their documents in the background; the projects that group them, and the Atrium extensions that
 * validate and cancel a project (docs/hr-api.md, "Distributions"). Ids are integers.
 */
import type { RequestOptions } from '../http.js';
import type {
  Distribution,
  DistributionCreate,
  DistributionListQuery,
  DistributionProject,
  DistributionProjectCreate,
  DistributionProjectListQuery,
} from '../schemas/hr/documents/distributions.js';
import { type DownloadResponse, enc, type HrCore, type Verbs } from './core.js';

type IntId = number | string;

/** `hr.distributionProjects`. */
export function distributionProjects(core: HrCore, v: Verbs) {
  const path = '/distribution_projects';
  const of = (id: IntId) => `${path}/${enc(String(id))}`;
  return {
    /** Lists projects (`status`), newest first. */
    list: v.list<DistributionProject, DistributionProjectListQuery>(path),
    /** Creates a project (200, `new`). */
    create: v.create<DistributionProjectCreate, DistributionProject>(path),
    retrieve: (id: IntId, options?: RequestOptions) => core.json<DistributionProject>('GET', of(id), {}, options),
    /** Lets the distributions waiting for validation go on (Atrium extension). */
    validate: (id: IntId, options?: RequestOptions) =>
      core.json<DistributionProject>('POST', `${of(id)}/validate`, {}, options),
    /** Cancels the project and its distributions not ended (Atrium extension). */
    cancel: (id: IntId, options?: RequestOptions) =>
      core.json<DistributionProject>('POST', `${of(id)}/cancel`, {}, options),
  };
}

/** `hr.distributions`. */
export function distributions(core: HrCore, v: Verbs) {
  const path = '/distributions';
  const of = (id: IntId) => `${path}/${enc(String(id))}`;
  return {
    /** Lists distributions (`distribution_project_id`), newest first. */
    list: v.list<Distribution, DistributionListQuery>(path),
    /** Creates a distribution of an uploaded PDF in a project (200, `new`); poll `retrieve` for its `status`. */
    create: v.create<DistributionCreate, Distribution>(path),
    retrieve: (id: IntId, options?: RequestOptions) => core.json<Distribution>('GET', of(id), {}, options),
    /** The report, CSV (raw `Response`). */
    report: (id: IntId, options?: RequestOptions): Promise<DownloadResponse> =>
      core.download(`${of(id)}/report`, options),
  };
}
