import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** How many types and patterns one webhook may subscribe to. */
export const MAX_WEBHOOK_EVENTS = 200;

export const WebhookCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  callback_url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'An absolute `http` or `https` URL. Redirects it answers are not followed.',
  }),
  events: Type.Array(Type.String({ minLength: 1, maxLength: 120 }), {
    minItems: 1,
    maxItems: MAX_WEBHOOK_EVENTS,
    description:
      'Event types (`employee.created`), a resource type’s every action (`employee.*`), or every event (`*`). `GET /events/filters/actions` lists the types.',
  }),
  is_active: Type.Boolean({ description: 'Only active webhooks receive callbacks.' }),
});
export type WebhookCreate = Static<typeof WebhookCreate>;

export const Webhook = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    callback_url: Type.String(),
    events: Type.Array(Type.String()),
    is_active: Type.Boolean(),
    signature_key: Type.String({
      description:
        'Signs each callback’s `X-Event-Signature` (docs/hr-api.md, "Webhooks"). Rotated by `refresh_signature_key`.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WebhookFull', title: 'WebhookFull' },
);
export type Webhook = Static<typeof Webhook>;

/** `GET /webhooks`: in creation order. */
export const WebhookList = declareList('webhooks');
export const WebhookListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });

export const WebhookParams = Type.Object({ id: Type.String({ maxLength: 255 }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 255 }),
  delivery_id: Type.String({ maxLength: 255 }),
});

export const WebhookAttempt = Type.Object(
  {
    delivery_id: Type.String({ format: 'uuid', description: 'What `redeliver` takes.' }),
    event_id: Type.String({ description: 'Sent as `X-Event-Id`.' }),
    event_type: Type.String(),
    attempt: Type.Integer({
      description: '1 for the first try of a delivery; on a `dropped` entry, the tries it had made (0 for none).',
    }),
    status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('dropped')], {
      description:
        '`dropped`: not a try, but the delivery dropped unsent, the oldest waiting past `ATRIUM_MAX_PENDING_DELIVERIES` (`error` says so).',
    }),
    response_code: Type.Union([Type.Integer(), Type.Null()], { description: 'The receiver’s status, if it answered.' }),
    duration_ms: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it failed: a status outside 2xx, a timeout, a refused connection or a refused address.',
    }),
    response_excerpt: Type.Union([Type.String(), Type.Null()], {
      description: 'The first 512 bytes of the answer.',
    }),
    delivery_status: Type.Union(
      [
        Type.Literal('pending'),
        Type.Literal('succeeded'),
        Type.Literal('failed'),
        Type.Literal('skipped'),
        Type.Literal('dropped'),
      ],
      {
        description:
          'Where the delivery stands now: `pending` while retries remain; `skipped` when the webhook was made inactive before its next attempt; `dropped` when more deliveries than `ATRIUM_MAX_PENDING_DELIVERIES` were waiting for the webhook and it was among the oldest.',
      },
    ),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WebhookDeliveryAttempt', title: 'WebhookDeliveryAttempt' },
);
export type WebhookAttempt = Static<typeof WebhookAttempt>;

/** `GET /webhooks/{id}/deliveries`: newest attempt first. */
export const WebhookAttemptList = declareList('webhook-attempts');
export const WebhookAttemptListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
