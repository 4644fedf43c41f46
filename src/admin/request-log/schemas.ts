import { type Static, Type } from '@sinclair/typebox';
import { TenantParams } from '../tenant-ref.js';
import { NEAR_MISS_REASONS } from './near-miss.js';

export const LOG_PAGE_MAX = 200;

export const NearMissInfo = Type.Object(
  {
    reason: Type.Union(
      NEAR_MISS_REASONS.map((r) => Type.Literal(r)),
      { description: 'Why the call missed (docs/admin.md, "Near misses").' },
    ),
    suggestions: Type.Array(Type.Object({ method: Type.String(), path: Type.String(), operation_id: Type.String() }), {
      description: 'For `unknown_path` and `wrong_method`: the closest served operations, closest first.',
    }),
    unserved_reference_operation: Type.Optional(
      Type.Object(
        { method: Type.String(), path: Type.String() },
        { description: 'This operation exists in the real API but Atrium does not serve it yet.' },
      ),
    ),
  },
  { description: 'A call that failed authentication or hit no route.' },
);

export const LoggedCall = Type.Object(
  {
    seq: Type.Integer({ description: "The call's place in the log: larger is later." }),
    at: Type.String({ description: "When it was answered, in the installation's time (datetime)." }),
    tenant_at: Type.String({
      description: "The same instant on the tenant's clock (datetime): `at` unless the tenant's clock was moved.",
    }),
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
    near_miss: Type.Union([NearMissInfo, Type.Null()], {
      description: 'The call failed authentication or hit no route, and named this tenant; null: not a near miss.',
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

/** At most this many matching calls are listed, and this many closest calls (docs/admin.md, "Verification"). */
export const VERIFY_LISTED = 20;
export const VERIFY_CLOSEST = 5;

const Count = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });

/** `POST …/requests/verify`: which calls, and how many of them. Every member is optional; none matches every call. */
export const RequestMatcher = Type.Object(
  {
    operation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,16}$', description: 'Any case.' })),
    path: Type.Optional(
      Type.String({
        pattern: '^/',
        maxLength: 512,
        description:
          'The whole path as logged, without its query (`/api/v2/client/…`, `/v1/…`): `*` or `{name}` stands for one segment, `**` for any number of them.',
      }),
    ),
    status: Type.Optional(
      Type.Union([
        Type.Integer({ minimum: 100, maximum: 599 }),
        Type.String({ pattern: '^[1-5]xx$', description: 'A class: `2xx`.' }),
      ]),
    ),
    query: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 128 }),
        Type.Union([Type.String({ maxLength: 2048 }), Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 50 })]),
        {
          maxProperties: 50,
          description:
            'Parameters the query holds (others may be there too): a string is one of its values, an array all of them in order.',
        },
      ),
    ),
    body: Type.Optional(
      Type.Unknown({
        description:
          "A JSON subset of the request body: an object's members are compared in turn (others may be there), an array item by item (as many items), anything else for equality. A form body reads as an object of strings.",
      }),
    ),
    body_field: Type.Optional(
      Type.Object(
        {
          path: Type.String({
            maxLength: 256,
            pattern: '^\\$(\\.[A-Za-z_][A-Za-z0-9_-]*|\\[[0-9]{1,9}\\]|\\[\'[^\']*\'\\]|\\["[^"]*"\\])*$',
            description: "JSONPath-style: `$`, then `.name`, `['name']` or `[0]` steps (`$.employees[0].email`).",
          }),
          equals: Type.Unknown({ description: 'The value the field equals (JSON, exactly).' }),
        },
        { additionalProperties: false, description: 'One field of the request body, equal to a value.' },
      ),
    ),
    since: Type.Optional(
      Type.String({ format: 'date-time', description: "Answered at or after, on the tenant's clock (datetime)." }),
    ),
    until: Type.Optional(
      Type.String({ format: 'date-time', description: "Answered before, on the tenant's clock (datetime)." }),
    ),
    count: Type.Optional(
      Type.Union(
        [Count, Type.Object({ min: Type.Optional(Count), max: Type.Optional(Count) }, { additionalProperties: false })],
        {
          description:
            'How many calls must match: exactly `n`, or `{min, max}` (either may be left out). Default: at least one.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type RequestMatcher = Static<typeof RequestMatcher>;

const Difference = Type.Object({
  field: Type.String({ description: '`method`, `path`, `status`, `query.<name>`, `body.<member>…`, `since`…' }),
  expected: Type.Unknown(),
  actual: Type.Optional(Type.Unknown({ description: 'Left out when the call has no such field.' })),
});

export const Verification = Type.Object({
  ok: Type.Boolean({ description: 'Whether `matched` is what `count` asks.' }),
  matched: Type.Integer({ description: 'Calls that meet every criterion, among those scanned.' }),
  expected: Type.String({ description: 'What `count` asks, in words: `at least 1`, `exactly 2`, `between 1 and 3`.' }),
  scanned: Type.Integer({ description: "Calls read: the tenant's newest, at most 10,000." }),
  complete: Type.Boolean({ description: 'Whether every call of the log was scanned (false: older ones were not).' }),
  calls: Type.Array(Type.Ref(LoggedCall), { description: `The first ${VERIFY_LISTED} matching calls, oldest first.` }),
  closest: Type.Array(
    Type.Object({
      call: Type.Ref(LoggedCall),
      differences: Type.Array(Difference, { description: 'Each criterion the call fails.' }),
    }),
    {
      description: `When fewer calls matched than \`count\` asks: at most ${VERIFY_CLOSEST} others, fewest failed criteria first, then newest first. Empty otherwise.`,
    },
  ),
});
export type Verification = Static<typeof Verification>;

export const Cleared = Type.Object({ deleted: Type.Integer({ description: 'Calls deleted.' }) });

/** The shared schemas of this resource, added to the admin API once. */
export const requestLogSchemas = [LoggedCall];
