import { type Static, Type } from '@sinclair/typebox';

const MAX_SECONDS = 100 * 366 * 86_400;

export const ClockPut = Type.Object(
  {
    now: Type.Optional(
      Type.String({
        maxLength: 40,
        description: "The tenant's time from now on (datetime); not with `offset_seconds`.",
      }),
    ),
    offset_seconds: Type.Optional(
      Type.Integer({
        minimum: -MAX_SECONDS,
        maximum: MAX_SECONDS,
        description: "The tenant's time as the installation's plus this; not with `now`.",
      }),
    ),
    frozen: Type.Optional(
      Type.Boolean({
        description: 'Stop the time (at `now`, or where it is), or let it flow again; left out: as it is.',
      }),
    ),
  },
  { additionalProperties: false, title: 'AdminClockPut' },
);
export type ClockPut = Static<typeof ClockPut>;

const amount = (unit: string) =>
  Type.Optional(Type.Integer({ minimum: -MAX_SECONDS, maximum: MAX_SECONDS, description: `${unit} to add.` }));

export const ClockAdvance = Type.Object(
  { days: amount('Days'), hours: amount('Hours'), minutes: amount('Minutes'), seconds: amount('Seconds') },
  {
    additionalProperties: false,
    minProperties: 1,
    title: 'AdminClockAdvance',
    description: 'At least one; they add up (negative moves back).',
  },
);
export type ClockAdvance = Static<typeof ClockAdvance>;

export const TenantClock = Type.Object(
  {
    now: Type.String({ description: "The tenant's time (datetime)." }),
    installation_now: Type.String({ description: "The installation's time, read at the same moment." }),
    offset_seconds: Type.Integer({ description: "The tenant's time minus the installation's." }),
    frozen: Type.Boolean({ description: "Whether the tenant's time stands still." }),
    moved: Type.Boolean({ description: 'Whether the tenant has a time of its own (moved or frozen).' }),
  },
  { $id: 'AdminTenantClock', title: 'AdminTenantClock' },
);
export type TenantClock = Static<typeof TenantClock>;

/** The shared schemas of this resource, added to the admin API once. */
export const clockSchemas = [TenantClock];
