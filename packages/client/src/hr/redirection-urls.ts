/** The URLs to redirect to (`/redirection_urls`): on Atrium, the client API's own resources. */

import type { RequestOptions } from '../http.js';
import type { RedirectionUrls, RedirectionUrlsQuery } from '../schemas/hr/documents/redirection-urls.js';
import type { HrCore } from './core.js';

/** `hr.redirectionUrls`. */
export function redirectionUrls(core: HrCore) {
  return {
    /** The URLs, with those of an employee (`employee_id`) and of a document type (`doctype_id`). */
    retrieve: (params?: RedirectionUrlsQuery, options?: RequestOptions): Promise<RedirectionUrls> =>
      core.json('GET', '/redirection_urls', { query: { ...params } }, options),
  };
}
