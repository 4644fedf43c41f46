import { type Static, Type } from '@sinclair/typebox';
import { TenantParams } from '../tenant-ref.js';

export const LOG_PAGE_MAX = 200;

export const LoggedCall = Type.Object(
  {
    seq: Type.Integer({ description: "The call's place in the log: larger is later." }),
    at: Type.String({ description: "When it was answered, in the installation's time (datetime)." }),
    credential_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The HR application id, or the Academy key id.',
    }),
    method: Type.String(),
    path: Type.String({ description: 'Path and query, secrets redacted.' }),
    operation_id: Type.Union([Type.String(), Type.Null()]),
    status: Type.Integer(),
    duration_ms: Type.Number(),
    request: Type.Object({
      headers: Type.Record(Type.String(), Type.String()),
      body: Type.Union([Type.String(), Type.Null()]),
      body_truncated: Type.Boolean(),
    }),
    response: Type.Object({
      headers: Type.Record(Type.String(), Type.String()),
      body: Type.Union([Type.String(), Type.Null()]),
      body_truncated: Type.Boolean(),
    }),
    fault_id: Type.Union([Type.String(), Type.Null()], { description: 'The fault rule that shaped the answer.' }),
    extension: Type.Boolean({ description: 'An Atrium extension: the real service has no such operation.' }),
    deprecated: Type.Boolean({ description: 'The real API marks the operation deprecated.' }),
    ignored_parameters: Type.Array(Type.String(), {
      description: 'Query parameters the operation ignored (undeclared), or clamped (`per_page`).',
    }),
  },
  { $id: 'AdminLoggedCall', title: 'AdminLoggedCall' },
);
export type LoggedCall = Static<typeof LoggedCall>;

export const LogQuery = Type.Object(
  {
    method: Type.Optional(Type.String({ maxLength: 8 })),
    status: Type.Optional(
      Type.String({ pattern: '^[1-5]([0-9]{2}|xx)$', description: 'A status (`503`) or a class (`5xx`).' }),
    ),
    operation_id: Type.Optional(Type.String({ maxLength: 128 })),
    path: Type.Optional(Type.String({ maxLength: 512, description: 'Calls whose path starts with this.' })),
    since: Type.Optional(Type.String({ maxLength: 40, description: 'Answered at or after (datetime).' })),
    until: Type.Optional(Type.String({ maxLength: 40, description: 'Answered before (datetime).' })),
    faulted: Type.Optional(Type.Boolean({ description: 'Only calls a fault rule shaped (true), or none (false).' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LOG_PAGE_MAX, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 64, description: "From a previous page's `next_cursor`." })),
  },
  { additionalProperties: false },
);
export type LogQuery = Static<typeof LogQuery>;

export const LogPage = Type.Object({
  requests: Type.Array(Type.Ref(LoggedCall), { description: 'Newest first.' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'The page of older calls; null: none.' }),
});

export const CallParams = Type.Object(
  { ...TenantParams.properties, seq: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) },
  { additionalProperties: false },
);

export const TailQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Start after this `seq` (default: the newest).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The shared schemas of this resource, added to the admin API once. */
export const requestLogSchemas = [LoggedCall];
