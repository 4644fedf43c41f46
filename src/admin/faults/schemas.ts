import { type Static, Type } from '@sinclair/typebox';
import { TenantParams } from '../tenant-ref.js';

const METHOD = Type.Union(
  ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => Type.Literal(m)),
  {
    description: 'Only calls of this method.',
  },
);

const Match = Type.Object(
  {
    api: Type.Optional(
      Type.Union([Type.Literal('hr'), Type.Literal('academy')], {
        description: "The tenant's API (the only one its calls use): a check, if given.",
      }),
    ),
    method: Type.Optional(METHOD),
    operation_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'Only calls of this operation, by its operationId in /openapi.json (`hr_employees_list`).',
      }),
    ),
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        pattern: '^(?!.*/\\.\\.?(/|$))/[^?#]*$',
        description:
          "Only calls whose path, after the API's prefix, matches: `*` is one segment (or part of one), `**` any rest (`/employees/*`). A `.` or `..` segment is refused: a request's path never has one once the server normalised it.",
      }),
    ),
    before_authentication: Type.Optional(
      Type.Boolean({
        description:
          "Apply before the credentials are checked (default false: after), to the calls that name the tenant: HR, the token endpoint (`POST /tokens`, `POST /revoke_token`), named by the application id of its Basic credentials; Academy, every call's key check, named by `acadId`. Such a rule applies there only.",
      }),
    ),
  },
  { additionalProperties: false, description: 'Which calls the rule applies to; left out, every call of the tenant.' },
);

const Effect = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('latency'),
        distribution: Type.Optional(Type.Literal('fixed')),
        latency_ms: Type.Integer({ minimum: 1, maximum: 60_000 }),
      },
      { additionalProperties: false, description: 'Delay the call by `latency_ms`, then serve it.' },
    ),
    Type.Object(
      {
        type: Type.Literal('latency'),
        distribution: Type.Literal('uniform'),
        min_ms: Type.Integer({ minimum: 0, maximum: 60_000 }),
        max_ms: Type.Integer({ minimum: 1, maximum: 60_000, description: 'At least `min_ms` (else 422).' }),
      },
      {
        additionalProperties: false,
        description: 'Delay the call by a whole number of ms drawn uniformly in [min_ms, max_ms], then serve it.',
      },
    ),
    Type.Object(
      {
        type: Type.Literal('latency'),
        distribution: Type.Literal('log_normal'),
        median_ms: Type.Integer({ minimum: 1, maximum: 60_000 }),
        sigma: Type.Number({ minimum: 0, maximum: 4, description: 'The spread: the standard deviation of ln(delay).' }),
      },
      {
        additionalProperties: false,
        description:
          'Delay the call by a log-normal draw (median `median_ms`, `sigma` the standard deviation of its logarithm), rounded to whole ms and cut at 60,000, then serve it.',
      },
    ),
    Type.Object(
      {
        type: Type.Literal('status'),
        status: Type.Union([
          Type.Literal(429),
          Type.Literal(500),
          Type.Literal(502),
          Type.Literal(503),
          Type.Literal(504),
        ]),
        retry_after_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
      },
      {
        additionalProperties: false,
        description: "Answer this status in the API's own error body, without serving the call.",
      },
    ),
    Type.Object(
      { type: Type.Literal('reset') },
      { additionalProperties: false, description: 'Drop the connection without an answer.' },
    ),
    Type.Object(
      { type: Type.Literal('slow_body'), bytes_per_second: Type.Integer({ minimum: 1, maximum: 10_000_000 }) },
      { additionalProperties: false, description: 'Serve the call, and send its body at this rate.' },
    ),
    Type.Object(
      {
        type: Type.Literal('chunked_body'),
        chunks: Type.Integer({ minimum: 2, maximum: 1000 }),
        total_ms: Type.Integer({ minimum: 0, maximum: 60_000 }),
      },
      {
        additionalProperties: false,
        description:
          'Serve the call, and send its body in `chunks` pieces of about the same size (fewer if it is shorter), the first at once, the last `total_ms` later, evenly spread.',
      },
    ),
    Type.Object(
      {
        type: Type.Literal('malformed'),
        form: Type.Union(
          [
            Type.Literal('empty'),
            Type.Literal('invalid_json'),
            Type.Literal('truncated'),
            Type.Literal('close_after_headers'),
          ],
          {
            description:
              '`empty`: a 200 with an empty body; `invalid_json`: the status and headers, a body that is not JSON; `truncated`: the whole Content-Length, half the body, then the connection closes; `close_after_headers`: the status and headers, then the connection closes.',
          },
        ),
      },
      { additionalProperties: false, description: 'Serve the call, and answer it malformed.' },
    ),
  ],
  { description: 'What the rule does to a call it applies to.' },
);

export const FaultCreate = Type.Object(
  {
    match: Type.Optional(Match),
    effect: Effect,
    probability: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description: 'The chance a matching call is affected (default 1).',
      }),
    ),
    remaining_count: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Stop after affecting this many calls.' }),
    ),
    until: Type.Optional(
      Type.String({ maxLength: 40, description: "Stop at this instant of the tenant's time (datetime)." }),
    ),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 4_294_967_295,
        description:
          "Draw the probability and the latency from this seed: the n-th call the rule matches (counted across processes) gets the same draws whenever the rule has this seed. Left out: Math.random's.",
      }),
    ),
  },
  { additionalProperties: false, title: 'AdminFaultCreate' },
);
export type FaultCreate = Static<typeof FaultCreate>;

export const Fault = Type.Object(
  {
    id: Type.String(),
    match: Type.Object({
      api: Type.Union([Type.Literal('hr'), Type.Literal('academy')]),
      method: Type.Union([Type.String(), Type.Null()]),
      operation_id: Type.Union([Type.String(), Type.Null()]),
      path: Type.Union([Type.String(), Type.Null()]),
      before_authentication: Type.Boolean(),
    }),
    effect: Effect,
    probability: Type.Number(),
    remaining_count: Type.Union([Type.Integer(), Type.Null()], { description: 'Uses left; null: uncounted.' }),
    until: Type.Union([Type.String(), Type.Null()]),
    seed: Type.Union([Type.Integer(), Type.Null()]),
    applied_count: Type.Integer({ description: 'Calls it affected so far (within about a second).' }),
    created_at: Type.String(),
  },
  { $id: 'AdminFault', title: 'AdminFault' },
);
export type Fault = Static<typeof Fault>;

export const FaultParams = Type.Object(
  { ...TenantParams.properties, fault_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** The shared schemas of this resource, added to the admin API once. */
export const faultSchemas = [Fault];

/** `GET /tenants/{kind}/{id}/operations`: what `match.operation_id` may name for this tenant. */
export const FaultOperations = Type.Object({
  operation_ids: Type.Array(Type.String(), {
    description:
      "The operationIds of the tenant's own API in /openapi.json, sorted: the values `match.operation_id` accepts.",
  }),
});
