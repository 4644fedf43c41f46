import { type Static, Type } from '@sinclair/typebox';

/** `POST /tenants/hr/{id}/events/trigger`'s body (docs/admin.md, "Event triggers"). */
export const EventTrigger = Type.Object(
  {
    type: Type.String({
      minLength: 1,
      maxLength: 120,
      description:
        'An event type of the HR API’s catalogue, `{resource_type}.{action}` (`employee.updated`); the HR API’s `GET /events/filters/actions` lists them.',
    }),
    resource_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'The resource the event is about (its id, as events show it). Left out: the tenant’s resource of that type written last.',
      }),
    ),
  },
  { additionalProperties: false, title: 'AdminEventTrigger' },
);
export type EventTrigger = Static<typeof EventTrigger>;

/** The event fired, as the HR API's audit trail (`GET /events/{id}`) shows it. */
const TriggeredEventBody = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    type: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time', description: 'In the tenant’s time.' }),
    actor: Type.Object(
      {
        type: Type.String({ description: '`system`.' }),
        name: Type.Union([Type.String(), Type.Null()], { description: '`admin token {id} ({name})`: the operator.' }),
        data: Type.Object({}, { additionalProperties: true }),
      },
      { additionalProperties: false },
    ),
    data: Type.Unknown({ description: 'The resource as the HR API’s `GET` presents it.' }),
    triggered: Type.Literal(true),
  },
  { additionalProperties: false },
);

export const TriggeredEvent = Type.Object(
  {
    event: TriggeredEventBody,
    webhooks: Type.Integer({
      minimum: 0,
      description:
        'How many webhook deliveries it was queued for: the tenant’s active webhooks whose patterns match it.',
    }),
  },
  { additionalProperties: false, $id: 'AdminTriggeredEvent', title: 'AdminTriggeredEvent' },
);

export const eventSchemas = [TriggeredEvent];
