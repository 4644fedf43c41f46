import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { csvStream } from '../../../platform/csv-write.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentEvent, presentExportLine } from './present.js';
import type { EventRecord } from './repository.js';
import {
  Event,
  EventActions,
  EventExportLine,
  EventExportQuery,
  EventList,
  EventListQuery,
  EventParams,
} from './schemas.js';
import type { EventsService } from './service.js';

const TAG = ['Events'];
/** A JSON export waits for a slow reader with at most one batch (about half a megabyte) buffered. */
const JSON_STREAM = { objectMode: false, highWaterMark: 64 * 1024 } as const;
const COLUMNS = ['Trigger Type', 'Trigger', 'Action', 'Item Type', 'Affected Item', 'Date'] as const;

/** The export as a JSON array, written a batch at a time. */
async function* jsonLines(batches: AsyncGenerator<EventRecord[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const batch of batches) {
    let chunk = '';
    for (const event of batch) {
      chunk += (first ? '' : ',') + JSON.stringify(presentExportLine(event));
      first = false;
    }
    yield chunk;
  }
  yield ']';
}

/** The export as CSV (a header line, then one line per event), by the CSV library. */
function csvLines(batches: AsyncGenerator<EventRecord[]>): Readable {
  const csv = csvStream({ header: true, columns: [...COLUMNS] });
  const rows = Readable.from(
    (async function* () {
      for await (const batch of batches) for (const event of batch) yield presentExportLine(event);
    })(),
  );
  rows.on('error', (err) => csv.destroy(err));
  return rows.pipe(csv);
}

/** `/events` (reference §4.4): the audit trail, read-only. */
export async function eventRoutes(
  app: FastifyInstance,
  opts: { events: EventsService; paginator: Paginator },
): Promise<void> {
  const { events, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  listRoute(
    app,
    paginator,
    {
      path: '/events',
      tags: TAG,
      summary: 'List and search audit events',
      description:
        'Newest first, cursor-paginated. Every successful write of this API records one event in its own transaction (docs/hr-api.md, "Audit events"). `cursor` is taken although the reference does not declare it.',
      querystring: EventListQuery,
      item: Type.Ref(Event),
      list: EventList,
      errors: [403],
    },
    {
      page: (clientId, query, request) => events.list(clientId, query, request),
      present: presentEvent,
    },
  );

  api.get(
    '/events/export',
    {
      schema: {
        tags: TAG,
        summary: 'Export audit events',
        description:
          'The same filters as the list, every matching event, newest first, streamed: JSON by default, CSV with `Accept: text/csv`.',
        querystring: EventExportQuery,
        response: {
          200: {
            description: 'The events, one line each.',
            content: {
              'application/json': { schema: Type.Array(Type.Ref(EventExportLine)) },
              'text/csv': { schema: Type.String() },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const batches = events.export(request.hrAuth.clientId, request.query);
      const csv = /\btext\/csv\b/.test(request.headers.accept ?? '');
      reply.header('cache-control', 'no-store');
      // A stream is sent as it is: the response schema documents the lines, it does not serialise them.
      // The JSON side is a byte stream with a small high-water mark: one batch waits, not sixteen.
      const body = csv ? csvLines(batches) : Readable.from(jsonLines(batches), JSON_STREAM);
      return (reply as FastifyReply).type(`${csv ? 'text/csv' : 'application/json'}; charset=utf-8`).send(body);
    },
  );

  api.get(
    '/events/filters/actions',
    {
      schema: {
        tags: TAG,
        summary: 'Actions available per resource type',
        description: 'Derived from the resources that record events; the same types webhooks subscribe to.',
        response: { 200: EventActions, ...errorResponses(401, 403) },
      },
    },
    async () => [
      {
        application_name: 'rh2',
        resources: events.actions().map((r) => ({ resource_name: r.resource, actions: r.actions })),
      },
    ],
  );

  getRoute(
    app,
    { path: '/events/:id', tags: TAG, summary: 'Get an audit event', params: EventParams, item: Type.Ref(Event) },
    (clientId, { id }) => events.get(clientId, id),
    presentEvent,
  );
}
