import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

const ACTOR_TYPES = ['application', 'user', 'employee', 'system'] as const;

export const EventActor = Type.Object(
  {
    type: Type.Union(
      ACTOR_TYPES.map((t) => Type.Literal(t)),
      {
        description:
          '`application`: an API call; `user`: an API call for the HR user named by `X-Atrium-User-Id`; `system`: a CLI command or background work.',
      },
    ),
    name: Type.Union([Type.String(), Type.Null()], {
      description: 'The application’s name, the user’s full name, or `atrium`.',
    }),
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'The application’s `id` and `name`; the user’s `id`, `firstname`, `middlename`, `lastname`.',
      },
    ),
  },
  { $id: 'EventActor', title: 'EventActor' },
);

export const Event = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    type: Type.String({ description: '`{resource_type}.{action}`, such as `employee.created`.' }),
    name: Type.Union([Type.String(), Type.Null()], {
      description: 'The resource’s name (an employee’s full name, a request’s title), when it has one.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    actor: Type.Ref(EventActor),
    data: Type.Unknown({
      description: 'The resource as `GET` presents it after the write; for a deletion, as it was before.',
    }),
    triggered: Type.Optional(
      Type.Literal(true, {
        description:
          'Atrium extension: present, and `true`, on an event an operator fired (`POST /admin/v1/tenants/hr/{id}/events/trigger`) rather than a write recorded. A webhook delivery of it carries no such field: its body is a real event’s.',
      }),
    ),
  },
  { $id: 'EventBase', title: 'EventBase' },
);
export type Event = Static<typeof Event>;

/** `GET /events`: newest first. */
export const EventList = declareList('events');

const Instant = (description: string) =>
  Type.Optional(
    Type.String({ maxLength: 40, 'x-date-or-datetime': true, description: `${description} A date or a datetime.` }),
  );

const filters = {
  resource_type: Type.Optional(
    Type.String({ maxLength: 60, description: 'Events of this resource type (`employee`).' }),
  ),
  action: Type.Optional(Type.String({ maxLength: 60, description: 'Events of this action (`created`).' })),
  resource_id: Type.Optional(Type.String({ maxLength: 255, description: 'Events of the resource with this id.' })),
  actor_type: Type.Optional(
    Type.Union(
      ACTOR_TYPES.map((t) => Type.Literal(t)),
      { description: 'Events made by this kind of actor.' },
    ),
  ),
  actor_id: Type.Optional(Type.String({ maxLength: 255, description: 'Events made by this application or HR user.' })),
  created_at_since: Instant('Recorded at or after.'),
  created_at_until: Instant('Recorded at or before (a date: until the end of that day).'),
};

export const EventListQuery = Type.Object({ ...PaginationQuery, ...filters }, { additionalProperties: false });
export type EventListQuery = Static<typeof EventListQuery>;

export const EventExportQuery = Type.Object(filters, { additionalProperties: false });
export type EventExportQuery = Static<typeof EventExportQuery>;

export const EventParams = Type.Object({ id: Type.String({ maxLength: 255 }) });

/** One line of `GET /events/export` (reference §4.4, `EventExportFields`: its keys hold spaces). */
export const EventExportLine = Type.Object(
  {
    'Trigger Type': Type.String({ description: 'The actor’s type.' }),
    Trigger: Type.String({ description: 'The actor’s name.' }),
    Action: Type.String(),
    'Item Type': Type.String({ description: 'The resource type, such as `employee_document`.' }),
    'Affected Item': Type.String({ description: 'The resource’s name, or its id when it has none.' }),
    Date: Type.String({ description: '`DD/MM/YYYY hh:mm`, in UTC.' }),
  },
  { $id: 'EventExportFields', title: 'EventExportFields' },
);
export type EventExportLine = Static<typeof EventExportLine>;

export const EventActions = Type.Array(
  Type.Object({
    application_name: Type.String({ description: 'Always `rh2`, the HR API’s name in the reference.' }),
    resources: Type.Array(Type.Object({ resource_name: Type.String(), actions: Type.Array(Type.String()) })),
  }),
);
