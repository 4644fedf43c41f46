import { type Static, Type } from '@sinclair/typebox';

const Departure = Type.Object({
  direction: Type.Union([Type.Literal('request'), Type.Literal('response')]),
  kind: Type.String({ description: 'What departed (docs/proxy.md, "What is checked"): `wrong_type`, `extra_field`…' }),
  field: Type.String({ description: 'A JSON pointer: `/body/…`, `/query/…`, `/header/…` or `/status`; empty: none.' }),
  expected: Type.String({ description: "What Atrium's schema expects." }),
  actual: Type.String({ description: 'What came (cut at 120 characters, secrets redacted).' }),
  count: Type.Integer(),
  first_seen: Type.String(),
  last_seen: Type.String(),
  example: Type.Object(
    {
      method: Type.String(),
      path: Type.String({ description: 'Path and query, secrets redacted.' }),
      status: Type.Integer(),
    },
    { description: 'One call that departed so.' },
  ),
});

export const ProxyDepartures = Type.Object(
  {
    operations: Type.Array(
      Type.Object({
        operation: Type.String({ description: "Atrium's operationId, or `METHOD path` for a call it does not serve." }),
        api: Type.Union([Type.Literal('hr'), Type.Literal('academy'), Type.Null()]),
        calls: Type.Integer(),
        departing: Type.Integer({ description: 'Calls with at least one departure.' }),
        first_seen: Type.String(),
        last_seen: Type.String(),
        departures: Type.Array(Departure, { description: 'Most frequent first.' }),
      }),
      { description: 'Every operation seen, those with departures first.' },
    ),
    departures: Type.Integer({ description: "Every departure's count, summed." }),
    calls: Type.Integer(),
  },
  { $id: 'AdminProxyDepartures', title: 'AdminProxyDepartures' },
);
export type ProxyDepartures = Static<typeof ProxyDepartures>;

export const proxySchemas = [ProxyDepartures];
