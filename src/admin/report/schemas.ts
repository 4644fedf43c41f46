import { type Static, Type } from '@sinclair/typebox';
import { NEAR_MISS_REASONS } from '../request-log/near-miss.js';

export const ReportQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({ maxLength: 40, description: 'From this instant (datetime); default: 24 hours ago.' }),
    ),
    until: Type.Optional(Type.String({ maxLength: 40, description: 'Up to this instant (datetime); default: now.' })),
  },
  { additionalProperties: false },
);
export type ReportQuery = Static<typeof ReportQuery>;

const Line = Type.Object({
  operation_id: Type.Union([Type.String(), Type.Null()], { description: 'Null: calls of a path no operation serves.' }),
  method: Type.String(),
  example_path: Type.String(),
  calls: Type.Integer(),
  errors: Type.Integer({ description: 'Calls answered 400 or more.' }),
  error_rate: Type.Number(),
  statuses: Type.Record(Type.String(), Type.Integer()),
  latency_ms: Type.Object({ p50: Type.Number(), p95: Type.Number(), p99: Type.Number(), max: Type.Number() }),
  faulted: Type.Integer({ description: 'Calls a fault rule shaped.' }),
  extension: Type.Boolean({ description: 'An Atrium extension: it would fail on the real service.' }),
  deprecated: Type.Boolean({ description: 'The real API marks the operation deprecated.' }),
  ignored_parameters: Type.Record(Type.String(), Type.Integer(), {
    description:
      'Query parameters the operation does not take (the real API ignores or refuses them), with how many calls sent each.',
  }),
});

export const Report = Type.Object(
  {
    tenant: Type.String(),
    since: Type.String(),
    until: Type.String(),
    calls: Type.Integer(),
    errors: Type.Integer(),
    error_rate: Type.Number(),
    operations: Type.Array(Line, { description: 'Most called first.' }),
    timeline: Type.Object(
      {
        bucket_seconds: Type.Integer({
          description: 'The width of each point: a minute up to a week, the narrowest that keeps 60 points or fewer.',
        }),
        points: Type.Array(
          Type.Object({
            at: Type.String({ description: "The bucket's start (datetime)." }),
            calls: Type.Integer(),
            errors: Type.Integer({ description: 'Calls answered 400 or more.' }),
          }),
          { description: 'Every bucket from `since` to `until`, oldest first, empty ones included.' },
        ),
      },
      { description: 'Calls and errors over time (the console draws it).' },
    ),
    near_misses: Type.Object(Object.fromEntries(NEAR_MISS_REASONS.map((r) => [r, Type.Integer()])), {
      description:
        'Calls that failed authentication or hit no route and named this tenant, by reason (docs/admin.md, "Near misses").',
    }),
  },
  { $id: 'AdminReport', title: 'AdminReport' },
);
export type Report = Static<typeof Report>;

/** The shared schemas of this resource, added to the admin API once. */
export const reportSchemas = [Report];
