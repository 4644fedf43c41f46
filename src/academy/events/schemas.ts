import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * Every schema of the events endpoints: request bodies and query strings
 * (validated), and responses (serialized and documented). Field descriptions
 * follow the spec's tables.
 */

export const KINDS = ['ilt', 'vc'] as const;
export type Kind = (typeof KINDS)[number];

// ---------------------------------------------------------------- request bodies

/** Ids and counts stay inside a 32-bit integer, as the database stores them. */
const INT32 = 2_147_483_647;
const Id = (description: string) => Type.Integer({ minimum: 1, maximum: INT32, description });

export const Time = Type.Object(
  {
    hours: Type.Integer({ minimum: 1, maximum: 12, description: 'Hour on a 12-hour clock, 1 to 12.' }),
    minutes: Type.Integer({ minimum: 0, maximum: 59 }),
    meridian: Type.Union([Type.Literal('AM'), Type.Literal('PM')], { description: '`AM` or `PM`.' }),
  },
  { description: 'A local time of day.' },
);
export type Time = Static<typeof Time>;

const BodyDate = Type.String({ pattern: '^[0-9]{2}/[0-9]{2}/[0-9]{4}$', description: 'Local date, `MM/DD/YYYY`.' });

export const Segment = Type.Object({
  title: Type.String({ maxLength: 500 }),
  date: Type.Optional(BodyDate),
  from: Time,
  to: Time,
});

export const Day = Type.Object({
  topic: Type.String({ maxLength: 500 }),
  date: BodyDate,
  from: Time,
  to: Time,
  segments: Type.Optional(Type.Array(Segment, { maxItems: 50, description: 'In-class only: parts of the day.' })),
});
export type Day = Static<typeof Day>;

const VcSessionBody = Type.Object({
  topic: Type.String({ maxLength: 500 }),
  date: BodyDate,
  from: Time,
  to: Time,
});

const commonBody = {
  title: Type.String({ minLength: 1, maxLength: 500 }),
  description: Type.String({ maxLength: 20_000 }),
  timeOffset: Type.Optional(
    Type.Number({
      minimum: -12,
      maximum: 14,
      description: 'Timezone offset in hours; required if timezoneId is absent.',
    }),
  ),
  timezoneId: Type.Optional(
    Type.Integer({
      description: 'Timezone id (GET /content/timezones); required if timeOffset is absent; wins over it.',
    }),
  ),
  registrationDeadline: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    description: 'Hours before the event that registration stays open.',
  }),
  autoApproved: Type.Optional(Type.Boolean({ description: 'Registrants are accepted automatically.' })),
  attendees: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Maximum attendees; default 20.' }),
  ),
  blockReservations: Type.Optional(Type.Boolean({ description: 'Enables (true) or disables the waiting list.' })),
  bundleTitle: Type.Optional(Type.String({ maxLength: 500, description: 'Title of the event bundle.' })),
  visible: Type.Optional(
    Type.Boolean({ description: 'Default non-visible. A visible event cannot be made invisible.' }),
  ),
  categoryId: Type.Optional(
    Type.Integer({
      minimum: -1,
      maximum: INT32,
      description:
        'Academy category id of a non-connected event (-1: none). Course-connected: a category of the course (default its first). Learning-path-connected: the learning path category (the default).',
    }),
  ),
  partOfCourse: Type.Optional(
    Type.Boolean({ description: 'Course-connected events: required for the completion. Default false.' }),
  ),
  partOfCurriculum: Type.Optional(
    Type.Boolean({ description: 'Learning-path-connected events: required for the completion. Default false.' }),
  ),
  customCalMessage: Type.Optional(Type.String({ maxLength: 5000, description: 'Description for the calendar file.' })),
  autoArchive: Type.Optional(Type.Boolean({ description: 'Archive the event once completed.' })),
  externalInstructors: Type.Optional(
    Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 255 }) }), {
      maxItems: 100,
      description: 'Instructors who are not academy users.',
    }),
  ),
  schooxInstructors: Type.Optional(
    Type.Array(
      Type.Object({
        id: Id('User id of the instructor.'),
        isPrimary: Type.Optional(Type.Boolean({ description: 'At most one primary instructor.' })),
      }),
      { maxItems: 100, description: 'Academy users who teach; default the super administrator as primary.' },
    ),
  ),
};

const createOnly = {
  based: Type.Union([Type.Literal(1), Type.Literal(2)], {
    description: '1 invitation-based, 2 registration-based. Connected events allow only 2.',
  }),
  courseId: Type.Optional(Type.Integer({ minimum: 0, maximum: INT32, description: 'Course to connect to (0: none).' })),
  curriculumId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: INT32,
      description: 'Learning path to connect to (0: none); ignored when courseId is also sent.',
    }),
  ),
};

const editFixed = {
  based: Type.Optional(
    Type.Union([Type.Literal(1), Type.Literal(2)], { description: 'Fixed at creation: only the same value.' }),
  ),
  courseId: Type.Optional(
    Type.Integer({ minimum: 0, maximum: INT32, description: 'Fixed at creation: only the same value.' }),
  ),
  curriculumId: Type.Optional(
    Type.Integer({ minimum: 0, maximum: INT32, description: 'Fixed at creation: only the same value.' }),
  ),
};

const iltBody = {
  days: Type.Array(Day, { minItems: 1, maxItems: 366, description: 'The days of the event.' }),
  passingScore: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100,
      description: 'Connected events that are part of the course or learning path. Default 0.',
    }),
  ),
  venue: Type.Optional(Id('Venue id (GET /content/venues); venue or location is required.')),
  venueSeats: Type.Optional(
    Type.Integer({ minimum: 1, maximum: INT32, description: 'Seats of the venue; required with venue.' }),
  ),
  location: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'A place findable on a public map; required without venue.',
    }),
  ),
  marker: Type.Optional(
    Type.Object(
      {
        coords: Type.Object({
          latitude: Type.Number({ minimum: -90, maximum: 90 }),
          longitude: Type.Number({ minimum: -180, maximum: 180 }),
        }),
      },
      { description: 'Required with location.' },
    ),
  ),
};

const vcBody = {
  sessions: Type.Array(VcSessionBody, { minItems: 1, maxItems: 366, description: 'The sessions; no segments.' }),
  completionPercentage: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100, description: 'As passingScore for in-class events. Default 80.' }),
  ),
};

export const IltCreate = Type.Object({ ...commonBody, ...createOnly, ...iltBody });
export const VcCreate = Type.Object({ ...commonBody, ...createOnly, ...vcBody });
export const IltEdit = Type.Object({ ...commonBody, ...editFixed, ...iltBody });
export const VcEdit = Type.Object({ ...commonBody, ...editFixed, ...vcBody });

/** What the service reads from a create or edit body, for either kind. */
export type EventBody = Partial<Static<typeof IltCreate>> &
  Partial<Static<typeof VcCreate>> & { title: string; description: string; registrationDeadline: number };

/** Offers a convertToBundle or addOffers request may add. */
export const MAX_OFFERS_PER_REQUEST = 60;

const CustomOffers = Type.Array(Type.Object({ date: BodyDate }), {
  minItems: 1,
  maxItems: MAX_OFFERS_PER_REQUEST,
  description: 'The dates of the offers, `MM/DD/YYYY`; at most 60 per request.',
});

export const ConvertBody = Type.Object({
  canMulti: Type.Union([Type.Literal('yes'), Type.Literal('no'), Type.Literal('all')], {
    description: '`yes` users may attend several offers; `no` only one; `all` must attend all.',
  }),
  mustRetake: Type.Optional(
    Type.Boolean({ description: 'Required only with canMulti `yes`: users re-attend periodically.' }),
  ),
  retakeEvery: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1200, description: 'Months; required only when mustRetake is true.' }),
  ),
  attendEvery: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1200, description: 'Alias of retakeEvery (the spec sample uses it).' }),
  ),
  customOffers: CustomOffers,
});
export type ConvertBody = Static<typeof ConvertBody>;

export const AddOffersBody = Type.Object({ customOffers: CustomOffers });
export type AddOffersBody = Static<typeof AddOffersBody>;

export const RegisterBody = Type.Object({
  userIds: Type.Array(Type.Integer({ minimum: 0, maximum: INT32 }), {
    minItems: 1,
    maxItems: 500,
    uniqueItems: true,
    description: 'Users to register.',
  }),
});

export const RegistrationUpdateBody = Type.Object({
  status: Type.Optional(
    Type.Union(
      [Type.Literal('approved'), Type.Literal('cancelled'), Type.Literal('absent'), Type.Literal('completed')],
      {
        description:
          'approve a pending registration, cancel it, or mark the user absent or completed (sets the certificate date).',
      },
    ),
  ),
  timeSpentInMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Attendance time.' })),
});
export type RegistrationUpdateBody = Static<typeof RegistrationUpdateBody>;

// ---------------------------------------------------------------- query strings

const Start = Type.Integer({ minimum: 0, default: 0, description: 'Position of the first item (0-based).' });
const limit = (max: number) =>
  Type.Integer({
    minimum: 0,
    default: 20,
    description: `Items per page, default 20; values above ${max} are clamped to ${max}.`,
  });

export const ListQuery = Type.Object({
  dateStart: Type.Optional(
    Type.String({ format: 'date', description: 'Events starting on or after this UTC date, YYYY-MM-DD.' }),
  ),
  dateEnd: Type.Optional(
    Type.String({ format: 'date', description: 'Events starting on or before this UTC date, YYYY-MM-DD.' }),
  ),
  start: Type.Optional(Start),
  limit: Type.Optional(limit(100)),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('archived'), Type.Literal('canceled')], {
      default: 'active',
      description:
        '`active` (the default: neither canceled nor archived), `archived` (completed with autoArchive) or `canceled`.',
    }),
  ),
});
export type ListQuery = Static<typeof ListQuery>;

export const OffersQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(limit(20)),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Filters by name (title).' })),
});
export type OffersQuery = Static<typeof OffersQuery>;

export const UsersQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(limit(100)),
  onlyCompleted: Type.Optional(Type.Boolean({ description: 'Only users who completed; adds certificate_date.' })),
});
export type UsersQuery = Static<typeof UsersQuery>;

export const AttendanceQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(limit(20)),
  search: Type.Optional(Type.String({ maxLength: 255, description: 'Filters by the user name.' })),
});
export type AttendanceQuery = Static<typeof AttendanceQuery>;

const UserId = Type.Integer({ minimum: 0, maximum: INT32 });
export const UserEventsQuery = Type.Object({
  userIds: Type.Union([Type.Array(UserId, { minItems: 1, maxItems: 10 }), UserId], {
    description:
      'Users to look up, at most 10: `userIds[]=1&userIds[]=2` (Spazz’s bracket style), or `userIds=1&userIds=2`.',
  }),
});
export type UserEventsQuery = Static<typeof UserEventsQuery>;

export const EventParams = Type.Object({ eventid: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const RegistrationParams = Type.Object({
  eventid: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  userId: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
});

// ---------------------------------------------------------------- responses

const Flag = (description: string) => Type.Integer({ minimum: 0, maximum: 1, description: `0 or 1: ${description}` });

export const SegmentOut = Type.Object({
  title: Type.String(),
  from: Type.String({ description: '`hh:mm AM` or `hh:mm PM`.' }),
  to: Type.String(),
  fromTimestamp: Type.Integer({ description: 'Unix timestamp.' }),
  toTimestamp: Type.Integer(),
  upcoming: Flag('not started yet.'),
  inProgress: Flag('started and not yet ended.'),
  completed: Flag('ended.'),
});

export const SessionOut = Type.Object({
  topic: Type.String({
    description: 'In-class sessions: the topic of the day. Atrium gives virtual classroom sessions theirs too.',
  }),
  date: Type.String({ description: 'Local date, `MM/DD/YYYY`.' }),
  dateUTC: Type.String({ description: 'UTC date of the start, `YYYY-MM-DDT00:00:00Z`.' }),
  from: Type.String({ description: '`hh:mm AM` or `hh:mm PM`, local.' }),
  to: Type.String(),
  fromTimestamp: Type.Integer({ description: 'Unix timestamp of the start.' }),
  toTimestamp: Type.Integer({ description: 'Unix timestamp of the end.' }),
  upcoming: Flag('not started yet.'),
  inProgress: Flag('started and not yet ended.'),
  completed: Flag('ended.'),
  segments: Type.Optional(Type.Array(SegmentOut, { description: 'In-class sessions only.' })),
});
export type SessionOut = Static<typeof SessionOut>;

const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

export const EventDetail = Type.Object(
  {
    id: Type.Integer(),
    picture: Type.String({ description: 'URL of the picture (empty when none).' }),
    status: Type.String({ description: '`Upcoming`, `In Progress`, `Completed` or `Canceled`.' }),
    categoryIds: Type.Array(Type.Integer(), { description: 'Category ids; `[-1]` means no category.' }),
    categoryId: Type.Integer({ description: 'The same category as a single id; -1 means no category.' }),
    category: Type.String({ description: 'Category name; `Without Category` when none.' }),
    visible: Type.Boolean({ description: 'State flag: shown to learners. A visible event cannot be made invisible.' }),
    active: Type.Boolean({ description: 'State flag: neither canceled nor archived.' }),
    archived: Type.Boolean({ description: 'State flag: completed with autoArchive.' }),
    deleted: Type.Boolean({ description: 'State flag: always false, as a deleted event is not served.' }),
    canceled: Type.Boolean({ description: 'State flag: canceled (Atrium extension PUT …/cancel).' }),
    upcoming: Type.Boolean({ description: 'State flag: the first session has not started.' }),
    inProgress: Type.Boolean({ description: 'State flag: started and not yet ended.' }),
    completed: Type.Boolean({ description: 'State flag: the last session has ended.' }),
    eventStartDate: Type.String({ description: '`YYYY-MM-DD hh:mm:ss UTC`.' }),
    eventEndDate: Type.String({ description: '`YYYY-MM-DD hh:mm:ss UTC`.' }),
    durationMinutes: Type.Integer({ description: 'Sum of the sessions, in minutes.' }),
    title: Type.String(),
    bundleTitle: Type.String(),
    description: Type.String(),
    timeOffset: Type.Union([Type.Integer(), Type.String({ pattern: '^[+-][0-9]{2}:[0-9]{2}$' })], {
      description:
        'Offset from UTC at the start of the event: whole hours as an integer (`2`), otherwise a signed `±hh:mm` string (`+05:30`).',
    }),
    timezoneId: Type.Integer({ description: 'Timezone id; 0 for an offset-only event.' }),
    timezone: Type.String({ description: '`(GMT+hh:mm) <cities>` label, or `(GMT+hh:mm)` for an offset-only event.' }),
    registrationDeadline: Type.Integer({ description: 'Hours before the event.' }),
    sessions: Type.Array(SessionOut),
    registrationBased: Type.Boolean(),
    invitationBased: Type.Boolean(),
    autoApproved: Type.Boolean(),
    canMulti: Type.Integer({ description: '0 for `no` (and for a single event), 1 for `yes` or `all`.' }),
    canMultiReadable: Type.String({ description: 'The multi-attendance rule in words.' }),
    retakeEvery: Type.Integer({ description: 'Months; 0 when users need not re-attend.' }),
    maxAttendees: Type.Integer(),
    seatsAvailable: Type.Integer(),
    maxed: Type.Boolean({ description: 'True when every seat is taken.' }),
    blockReservations: Type.Boolean({ description: 'Waiting list switch.' }),
    autoArchive: Type.Boolean(),
    courseConnected: Type.Integer({ description: 'Connected course id, or 0.' }),
    curriculumConnected: Type.Integer({ description: 'Connected learning path id, or 0.' }),
    partOfCourse: Type.Boolean(),
    partOfCurriculum: Type.Boolean(),
    passingScore: opt(Type.Integer({ description: 'In-class events.' })),
    externalInstructors: Type.Array(Type.String(), { description: 'Names.' }),
    schooxInstructors: Type.Array(Type.String(), { description: 'User ids as strings, primary first.' }),
    attendeesYes: Type.Integer({ description: 'Counter: users holding a seat whose registration is approved.' }),
    attendeesPending: Type.Integer({ description: 'Counter: registered users awaiting approval.' }),
    registered: Type.Integer({ description: 'Counter: users holding a seat (registered, absent or completed).' }),
    cancelled: Type.Integer({ description: 'Counter: cancelled registrations.' }),
    waitlisted: Type.Integer({ description: 'Counter: users on the waiting list.' }),
    customCalMessage: Type.String({ description: 'Description used in the calendar file.' }),
    venueId: opt(Type.Integer({ description: 'In-class only; 0 when none.' })),
    coordinates: opt(Type.String({ description: 'In-class only; JSON text with latitude and longitude as strings.' })),
    address: opt(Type.String({ description: 'In-class only.' })),
    city: opt(Type.String({ description: 'In-class only.' })),
    location: opt(Type.String({ description: 'In-class only: the venue name or the location.' })),
    completionPercentage: opt(Type.Integer({ description: 'Virtual classroom only.' })),
    clientActivation: opt(Type.Boolean({ description: 'Virtual classroom only.' })),
    clientSessions: opt(Type.String({ description: 'Virtual classroom only.' })),
  },
  { $id: 'AcademyEventDetail', title: 'AcademyEventDetail' },
);
export type EventDetail = Static<typeof EventDetail>;

export const EventListItem = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: Type.String(),
    attendeesNr: Type.Integer({ description: 'Users holding a seat.' }),
    categoryIds: opt(Type.Array(Type.Integer(), { description: 'Omitted when the event has no category.' })),
    category: opt(Type.String({ description: 'Omitted when the event has no category.' })),
    status: Type.String({ description: '`Upcoming`, `In Progress`, `Completed` or `Canceled`.' }),
    local_start_date: Type.String({ description: '`YYYY-MM-DD hh:mm:ss <zone abbreviation>`.' }),
    local_end_date: Type.String({ description: '`YYYY-MM-DD hh:mm:ss <zone abbreviation>`.' }),
    event_start_date: Type.String({ description: '`YYYY-MM-DD hh:mm:ss UTC`.' }),
    event_end_date: Type.String({ description: '`YYYY-MM-DD hh:mm:ss UTC`.' }),
    timeOffset: opt(Type.Number({ description: 'Offset-only events.' })),
    timezoneId: opt(Type.Integer({ description: 'Events with a timezone.' })),
    timezone: Type.String({ description: 'Display name of the timezone.' }),
    duration: Type.Integer({ description: 'Minutes.' }),
    attendees_yes: Type.Integer({ description: 'Counter: users holding a seat whose registration is approved.' }),
    attendees_pending: Type.Integer({ description: 'Counter: registered users awaiting approval.' }),
    registered: Type.Integer({ description: 'Counter: users holding a seat (registered, absent or completed).' }),
    completed: Type.Integer({ description: 'Counter: users who completed the event.' }),
    absent: Type.Integer({ description: 'Counter: users marked absent.' }),
    cancelled: Type.Integer({ description: 'Counter: cancelled registrations.' }),
    waitlisted: Type.Integer({ description: 'Counter: users on the waiting list.' }),
    available_seats: Type.Integer({ description: 'Seats left: maxAttendees minus the seats held.' }),
    curriculum_connected: Type.Integer({ description: 'Connected learning path id, or 0.' }),
    course_connected: Type.Integer({ description: 'Connected course id, or 0.' }),
    location: opt(Type.String({ description: 'In-class items only.' })),
    city: opt(Type.String({ description: 'In-class items only.' })),
    attendance_duration: opt(
      Type.Integer({ description: 'Virtual classroom items only: attendance recorded, in minutes.' }),
    ),
  },
  { $id: 'AcademyEventListItem', title: 'AcademyEventListItem' },
);
export type EventListItem = Static<typeof EventListItem>;

export const ListEnvelope = Type.Object({
  all: Type.Integer({ description: 'Total number of matching events.' }),
  events: Type.Array(Type.Ref(EventListItem)),
});

const Person = {
  id: Type.Integer(),
  firstname: Type.String(),
  preferred_name: Type.Union([Type.String(), Type.Null()]),
  lastname: Type.String(),
  email: Type.String(),
};

export const ParticipantsResponse = Type.Object({
  title: Type.String(),
  start_date: Type.String({ description: 'ISO 8601 with the event’s offset.' }),
  end_date: Type.String({ description: 'ISO 8601 with the event’s offset.' }),
  users_count: Type.Integer({ description: 'Users matching, before paging.' }),
  instructors: Type.Array(Type.Object(Person)),
  users: Type.Array(
    Type.Object({
      ...Person,
      approved: Type.String({ description: '`Yes` when approved, `No` while pending or waitlisted.' }),
      certificate_date: opt(Type.String({ description: 'With onlyCompleted: ISO 8601 with offset.' })),
    }),
  ),
});
export type ParticipantsResponse = Static<typeof ParticipantsResponse>;

export const AttendanceResponse = Type.Object({
  usersAttendanceData: Type.Array(
    Type.Object({
      userId: Type.Integer(),
      firstname: Type.String(),
      preferred_name: Type.Union([Type.String(), Type.Null()]),
      lastname: Type.String(),
      email: Type.String(),
      timeSpentInMinutes: Type.Integer(),
    }),
  ),
});
export type AttendanceResponse = Static<typeof AttendanceResponse>;

export const DeleteResponse = Type.Object({ status: Type.Integer(), message: Type.String() });

export const BundleResponse = Type.Object({
  status: Type.Integer(),
  lastEvent: Type.String({ description: 'Date of the bundle’s latest offer, `MM/DD/YYYY`.' }),
  addedOffers: Type.Array(Type.String(), { description: 'Dates added by this request, `MM/DD/YYYY`.' }),
  message: Type.String(),
});

export const RegistrationOut = Type.Object({
  userId: Type.Integer(),
  approved: Type.String({ description: '`Yes` or `No`.' }),
  state: Type.String({ description: '`registered`, `waitlisted`, `cancelled`, `absent` or `completed`.' }),
  timeSpentInMinutes: Type.Integer(),
  certificate_date: Type.Union([Type.String(), Type.Null()]),
});
export type RegistrationOut = Static<typeof RegistrationOut>;

export const UserEventRegistration = Type.Object({
  eventId: Type.Integer(),
  kind: Type.Union([Type.Literal('ilt'), Type.Literal('vc')], { description: 'The kind of the event.' }),
  ...RegistrationOut.properties,
});
export type UserEventRegistration = Static<typeof UserEventRegistration>;

export const UserEventsResponse = Type.Array(UserEventRegistration, {
  description: 'One item per requested user who is registered to the event (any state but cancelled).',
});

export const RegistrationsResponse = Type.Object({
  status: Type.Integer(),
  message: Type.String(),
  registrations: Type.Array(RegistrationOut),
});
