/** The audit trail (`/events`): list, retrieve, export, and the actions each resource type records. */
import type { RequestOptions } from '../http.js';
import type { Event, EventActions, EventExportQuery, EventListQuery } from '../schemas/hr/integrations/events.js';
import type { DownloadResponse, HrCore, QueryParams, Verbs } from './core.js';

/** The format of `events.export`: a JSON array of lines (the default) or CSV. */
export type EventExportFormat = 'json' | 'csv';

/** `hr.events`: the audit trail, read-only. */
export function events(core: HrCore, v: Verbs) {
  const path = '/events';
  return {
    /** Lists events, newest first (cursor pages), filtered by resource, action, actor and date. */
    list: v.list<Event, EventListQuery>(path),
    /** Gets an event. */
    retrieve: v.retrieve<Event>(path),
    /**
     * `GET /events/export`: every event matching the filters, newest first, as the raw `Response` (status checked,
     * body not read), like the SDK's downloads: stream it, or read it at once. `format: 'json'` (the default)
     * answers a JSON array of {@link AuditEventExportLine}s (`await response.json()`); `format: 'csv'` answers
     * CSV with a header line (`Accept: text/csv`).
     */
    export: (
      params?: QueryParams<EventExportQuery>,
      options: RequestOptions & { format?: EventExportFormat } = {},
    ): Promise<DownloadResponse> => {
      const { format = 'json', ...rest } = options;
      const accept = format === 'csv' ? 'text/csv' : 'application/json';
      return core
        .send(
          'GET',
          `${path}/export`,
          { query: params as Record<string, unknown> },
          { ...rest, headers: { ...(rest.headers ?? {}), accept } },
          true,
        )
        .then((r) => r.response);
    },
    /** `GET /events/filters/actions`: the actions each resource type records (the types webhooks subscribe to). */
    actions: (options?: RequestOptions): Promise<EventActions> =>
      core.json<EventActions>('GET', `${path}/filters/actions`, {}, options),
  };
}
