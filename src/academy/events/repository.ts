import { type Expression, type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import { type Db, type DialectName, dialectOf } from '../../platform/db/database.js';
import { jsonArrayText, jsonRowsText } from '../../platform/db/json-sql.js';
import { prepared } from '../../platform/db/prepared.js';
import { AcademyRepository } from '../../platform/db/repository.js';
import type { Tables } from '../../platform/db/schema.js';
import { containsText } from '../../platform/db/search.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { academyTenantId, Tenant } from '../../platform/db/tenant.js';
import type { AcademyUsersTable } from '../directory/tables.js';
import type { Kind } from './schemas.js';
import type { StoredSession } from './sessions.js';
import type { AcademyEventsTable } from './tables.js';

type StoredEvent = Selectable<AcademyEventsTable>;

/** An event as the domain sees it: its sessions and external instructors decoded, its flags booleans. */
export interface EventRecord {
  id: number;
  academyId: AcademyTenantId;
  kind: 'ilt' | 'vc';
  title: string;
  description: string;
  bundleTitle: string | null;
  picture: string | null;
  timeOffset: number | null;
  timezoneId: number | null;
  /** Hours before the start at which registration closes. */
  registrationDeadline: number;
  /** 1: invitation-based, 2: registration-based. */
  based: number;
  autoApproved: boolean;
  maxAttendees: number;
  blockReservations: boolean;
  visible: boolean;
  categoryId: number | null;
  courseId: number | null;
  curriculumId: number | null;
  partOfCourse: boolean;
  partOfCurriculum: boolean;
  customCalMessage: string | null;
  autoArchive: boolean;
  passingScore: number;
  completionPercentage: number;
  venueId: number | null;
  venueSeats: number | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  canceled: boolean;
  sessions: StoredSession[];
  externalInstructors: string[];
  /** The bundle's main event (itself for the main event); null when not bundled. */
  bundleId: number | null;
  canMulti: 'no' | 'yes' | 'all' | null;
  mustRetake: boolean;
  retakeEvery: number;
  startAt: number;
  endAt: number;
  createdAt: number;
  updatedAt: number;
}

export type NewEventRecord = Omit<EventRecord, 'id'>;

function toRecord(row: StoredEvent): EventRecord {
  return {
    id: row.id,
    academyId: academyTenantId(row.academy_id),
    kind: row.kind,
    title: row.title,
    description: row.description,
    bundleTitle: row.bundle_title,
    picture: row.picture,
    timeOffset: row.time_offset,
    timezoneId: row.timezone_id,
    registrationDeadline: row.registration_deadline,
    based: row.based,
    autoApproved: row.auto_approved === 1,
    maxAttendees: row.max_attendees,
    blockReservations: row.block_reservations === 1,
    visible: row.visible === 1,
    categoryId: row.category_id,
    courseId: row.course_id,
    curriculumId: row.curriculum_id,
    partOfCourse: row.part_of_course === 1,
    partOfCurriculum: row.part_of_curriculum === 1,
    customCalMessage: row.custom_cal_message,
    autoArchive: row.auto_archive === 1,
    passingScore: row.passing_score,
    completionPercentage: row.completion_percentage,
    venueId: row.venue_id,
    venueSeats: row.venue_seats,
    location: row.location,
    latitude: row.latitude,
    longitude: row.longitude,
    canceled: row.canceled === 1,
    sessions: JSON.parse(row.sessions) as StoredSession[],
    externalInstructors: JSON.parse(row.external_instructors) as string[],
    bundleId: row.bundle_id,
    canMulti: row.can_multi,
    mustRetake: row.must_retake === 1,
    retakeEvery: row.retake_every,
    startAt: row.start_at,
    endAt: row.end_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const maybeEvent = (row: StoredEvent | undefined): EventRecord | undefined => (row ? toRecord(row) : undefined);

const bit = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);
const json = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));

/** An event's columns: every one of them from a whole event; from a patch, those it sets (Kysely skips undefined). */
function toColumns(v: NewEventRecord): Insertable<AcademyEventsTable>;
function toColumns(v: Partial<NewEventRecord>): Updateable<AcademyEventsTable>;
function toColumns(v: Partial<NewEventRecord>): Updateable<AcademyEventsTable> {
  return {
    academy_id: v.academyId,
    kind: v.kind,
    title: v.title,
    description: v.description,
    bundle_title: v.bundleTitle,
    picture: v.picture,
    time_offset: v.timeOffset,
    timezone_id: v.timezoneId,
    registration_deadline: v.registrationDeadline,
    based: v.based,
    auto_approved: bit(v.autoApproved),
    max_attendees: v.maxAttendees,
    block_reservations: bit(v.blockReservations),
    visible: bit(v.visible),
    category_id: v.categoryId,
    course_id: v.courseId,
    curriculum_id: v.curriculumId,
    part_of_course: bit(v.partOfCourse),
    part_of_curriculum: bit(v.partOfCurriculum),
    custom_cal_message: v.customCalMessage,
    auto_archive: bit(v.autoArchive),
    passing_score: v.passingScore,
    completion_percentage: v.completionPercentage,
    venue_id: v.venueId,
    venue_seats: v.venueSeats,
    location: v.location,
    latitude: v.latitude,
    longitude: v.longitude,
    canceled: bit(v.canceled),
    sessions: json(v.sessions),
    external_instructors: json(v.externalInstructors),
    bundle_id: v.bundleId,
    can_multi: v.canMulti,
    must_retake: bit(v.mustRetake),
    retake_every: v.retakeEvery,
    start_at: v.startAt,
    end_at: v.endAt,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
  };
}

/** An event's registrations' counts. */
export interface Counters {
  registered: number;
  attendeesYes: number;
  attendeesPending: number;
  completed: number;
  absent: number;
  cancelled: number;
  waitlisted: number;
  attendanceMinutes: number;
}

export const ZERO_COUNTERS: Counters = {
  registered: 0,
  attendeesYes: 0,
  attendeesPending: 0,
  completed: 0,
  absent: 0,
  cancelled: 0,
  waitlisted: 0,
  attendanceMinutes: 0,
};

/** An instructor of an event, in the event's order of instructors. */
export interface InstructorRecord {
  eventId: number;
  userId: number;
  isPrimary: boolean;
}

/** What an event's lists show of a directory user. */
export interface PersonRecord {
  id: number;
  firstname: string;
  preferredName: string | null;
  lastname: string;
  email: string;
}

/** A directory user's row as a person (the participants list reads it joined with registrations). */
export function toPerson(
  row: Pick<Selectable<AcademyUsersTable>, 'id' | 'firstname' | 'preferred_name' | 'lastname' | 'email'>,
): PersonRecord {
  return {
    id: row.id,
    firstname: row.firstname,
    preferredName: row.preferred_name,
    lastname: row.lastname,
    email: row.email,
  };
}

export type EventStatusFilter = 'active' | 'archived' | 'canceled';

/** What a list selects: a status, an optional start-date range [from, to), at the instant `now`. */
export interface EventListFilter {
  status: EventStatusFilter;
  from?: number;
  to?: number;
  now: number;
}

/** States of a registration that hold a seat. */
export const SEATED = ['registered', 'completed', 'absent'] as const;

// The reads of every event view, prepared once (src/platform/db/prepared.ts).
const findEvent = prepared((db: Db, p: { academyId: AcademyTenantId; kind: Kind; id: number }) =>
  new Tenant<Tables, 'academy_id'>(db, p.academyId, 'academy_id')
    .selectFrom('academy_events')
    .selectAll()
    .where('kind', '=', p.kind)
    .where('id', '=', p.id),
);
const categoryNamesOf = prepared((db: Db, p: { academyId: AcademyTenantId; ids: number[] }) =>
  new Tenant<Tables, 'academy_id'>(db, p.academyId, 'academy_id')
    .selectFrom('academy_categories')
    .select(['id', 'name'])
    .where('id', 'in', p.ids),
);
const instructorsOf = prepared((db: Db, p: { ids: number[] }) =>
  db
    .selectFrom('academy_event_instructors')
    .select(['event_id', 'user_id', 'is_primary'])
    .where('event_id', 'in', p.ids)
    .orderBy('event_id')
    .orderBy('position'),
);
const SEATED_SQL = sql.join(SEATED.map((s) => sql.lit(s)));
/** The registrations' counts of an event, summed over its rows of `academy_registrations` (by `event_id`). */
const COUNTER_SUMS = [
  sql<number>`sum(case when state in (${SEATED_SQL}) then 1 else 0 end)`.as('registered'),
  sql<number>`sum(case when state in (${SEATED_SQL}) and approval = 'Yes' then 1 else 0 end)`.as('attendees_yes'),
  sql<number>`sum(case when state = 'registered' and approval = 'Pending' then 1 else 0 end)`.as('attendees_pending'),
  sql<number>`sum(case when state = 'completed' then 1 else 0 end)`.as('completed'),
  sql<number>`sum(case when state = 'absent' then 1 else 0 end)`.as('absent'),
  sql<number>`sum(case when state = 'cancelled' then 1 else 0 end)`.as('cancelled'),
  sql<number>`sum(case when state = 'waitlisted' then 1 else 0 end)`.as('waitlisted'),
  sql<number>`sum(attendance_minutes)`.as('attendance_minutes'),
] as const;
const countersOf = prepared((db: Db, p: { ids: number[] }) =>
  db
    .selectFrom('academy_registrations')
    .select(['event_id', ...COUNTER_SUMS])
    .where('event_id', 'in', p.ids)
    .groupBy('event_id'),
);

type Sum = number | string | null;

/** Counters as read (PostgreSQL's sums are bigint, read as strings; an event without registrations has none). */
function toCounters(r: {
  registered: Sum;
  attendees_yes: Sum;
  attendees_pending: Sum;
  completed: Sum;
  absent: Sum;
  cancelled: Sum;
  waitlisted: Sum;
  attendance_minutes: Sum;
}): Counters {
  return {
    registered: Number(r.registered ?? 0),
    attendeesYes: Number(r.attendees_yes ?? 0),
    attendeesPending: Number(r.attendees_pending ?? 0),
    completed: Number(r.completed ?? 0),
    absent: Number(r.absent ?? 0),
    cancelled: Number(r.cancelled ?? 0),
    waitlisted: Number(r.waitlisted ?? 0),
    attendanceMinutes: Number(r.attendance_minutes ?? 0),
  };
}

/** The counters as {@link countersOfRow} reads them: a JSON array of the sums, in {@link COUNTER_SUMS}' order. */
function countersOfArray(text: string): Counters {
  const [registered, attendees_yes, attendees_pending, completed, absent, cancelled, waitlisted, attendance_minutes] =
    JSON.parse(text) as Sum[];
  return toCounters({
    registered: registered ?? null,
    attendees_yes: attendees_yes ?? null,
    attendees_pending: attendees_pending ?? null,
    completed: completed ?? null,
    absent: absent ?? null,
    cancelled: cancelled ?? null,
    waitlisted: waitlisted ?? null,
    attendance_minutes: attendance_minutes ?? null,
  });
}

/** The venue as {@link venueOfRow} reads it for a list: `[name, address, city]`, or null without one. */
function venueOfArray(text: string | null): VenuePlace | undefined {
  if (text === null) return undefined;
  const [name, address, city] = JSON.parse(text) as [string, string | null, string | null];
  return { name, address, city };
}

/** The same for a detail, with the venue's position. */
function venueRecordOfArray(text: string | null): VenueRecord | undefined {
  if (text === null) return undefined;
  const [name, address, city, latitude, longitude] = JSON.parse(text) as [
    string,
    string | null,
    string | null,
    number | null,
    number | null,
  ];
  return { name, address, city, latitude, longitude };
}

/** The columns of an event that a list item shows or is derived from: a list reads these, not the detail's. */
const LISTED_COLUMNS = [
  'id',
  'academy_id',
  'kind',
  'title',
  'description',
  'category_id',
  'timezone_id',
  'time_offset',
  'sessions',
  'canceled',
  'auto_archive',
  'max_attendees',
  'venue_id',
  'location',
  'curriculum_id',
  'course_id',
  'start_at',
  'end_at',
] as const;

/** An event as a list reads it: {@link LISTED_COLUMNS}, its sessions decoded. */
export type ListedEventRecord = Pick<
  EventRecord,
  | 'id'
  | 'academyId'
  | 'kind'
  | 'title'
  | 'description'
  | 'categoryId'
  | 'timezoneId'
  | 'timeOffset'
  | 'sessions'
  | 'canceled'
  | 'autoArchive'
  | 'maxAttendees'
  | 'venueId'
  | 'location'
  | 'curriculumId'
  | 'courseId'
  | 'startAt'
  | 'endAt'
>;

/** What a list item shows of a venue. */
export interface VenuePlace {
  name: string;
  address: string | null;
  city: string | null;
}

/** What an event's detail shows of its venue. */
export interface VenueRecord extends VenuePlace {
  latitude: number | null;
  longitude: number | null;
}

/** One event of a list page with what its item shows of other tables, read in the page's own statement. */
export interface ListedEvent {
  row: ListedEventRecord;
  counters: Counters;
  categoryName: string | undefined;
  venue: VenuePlace | undefined;
}

/** One event read whole with what its detail shows of other tables, in one statement. */
export interface ViewedEvent {
  row: EventRecord;
  counters: Counters;
  categoryName: string | undefined;
  venue: VenueRecord | undefined;
  instructors: InstructorRecord[];
}

type ListFilterShape = Pick<EventListFilter, 'status'> & { from: boolean; to: boolean };
type ListPageParams = {
  academyId: AcademyTenantId;
  kind: Kind;
  now: number;
  from: number;
  to: number;
  start: number;
  limit: number;
};

/** The rows a list filter matches, read through `tenant`: the list's page and its count share it. */
function listed(
  tenant: Tenant<Tables, 'academy_id'>,
  kind: Kind,
  shape: ListFilterShape,
  values: { now: number; from?: number | undefined; to?: number | undefined },
) {
  let q = tenant.selectFrom('academy_events').where('kind', '=', kind);
  if (shape.status === 'canceled') q = q.where('canceled', '=', 1);
  else if (shape.status === 'archived')
    q = q.where('canceled', '=', 0).where('auto_archive', '=', 1).where('end_at', '<=', values.now);
  else
    q = q.where('canceled', '=', 0).where((eb) => eb.or([eb('auto_archive', '=', 0), eb('end_at', '>', values.now)]));
  if (shape.from) q = q.where('start_at', '>=', values.from as number);
  if (shape.to) q = q.where('start_at', '<', values.to as number);
  return q;
}

/**
 * A list page in one statement (issue 23): the page's events (only {@link LISTED_COLUMNS}), with their
 * registrations' counters, their category's name and their venue read by subqueries of each row. One prepared
 * query per filter shape (status, and whether `from` and `to` are given); the values are the call's.
 *
 * Measured against a join of the page (a CTE) with the registrations grouped, on SQLite: 163 against 409 µs a page
 * of 20 (SQLite built an automatic index for the join on every call; docs/PERFORMANCE.md). The counters and the venue come back as JSON
 * arrays, one column each: each column of each row costs a page about 4 µs in values made for JavaScript.
 */
const listPages = new Map<string, ReturnType<typeof listPageQuery>>();
function listPageQuery(shape: ListFilterShape) {
  return prepared((db: Db, p: ListPageParams) => {
    const dialect = dialectOf(db);
    return listed(new Tenant<Tables, 'academy_id'>(db, p.academyId, 'academy_id'), p.kind, shape, p)
      .select(LISTED_COLUMNS)
      .select([
        countersOfRow(dialect).as('counters'),
        categoryOfRow.as('category_name'),
        venueOfRow(dialect, false).as('venue'),
      ])
      .orderBy('start_at')
      .orderBy('id')
      .offset(p.start)
      .limit(p.limit);
  });
}

/**
 * An event and everything its detail shows of other tables, in one statement (a GET: on PostgreSQL each statement is
 * a round trip, 35–50 µs of the server's CPU).
 */
function eventView(db: Db, p: { academyId: AcademyTenantId; kind: Kind; id: number }) {
  const dialect = dialectOf(db);
  return new Tenant<Tables, 'academy_id'>(db, p.academyId, 'academy_id')
    .selectFrom('academy_events')
    .selectAll()
    .select([
      countersOfRow(dialect).as('counters'),
      categoryOfRow.as('category_name'),
      venueOfRow(dialect, true).as('venue'),
      instructorsOfRow(dialect).as('instructors'),
    ])
    .where('kind', '=', p.kind)
    .where('id', '=', p.id);
}
const findEventView = prepared(eventView);
/**
 * On PostgreSQL, the same row as one JSON text. `pg` parses each column's description and value at every call: the
 * event's 56 columns cost its client about 35 µs a call more than one column (docs/PERFORMANCE.md). The columns are
 * integers, doubles and text, which JSON gives as `pg` would (`int8` read as numbers: `pgTypes`).
 */
const findEventViewJson = prepared((db: Db, p: { academyId: AcademyTenantId; kind: Kind; id: number }) =>
  db.selectFrom(eventView(db, p).as('v')).select(sql<string>`row_to_json(v)::text`.as('json')),
);

// tenant-by-hand: the subqueries below are tied to the row of `academy_events` that the statement reads through
// `Tenant`: its registrations and instructors by event id, its category and venue by the row's own academy.
// Another academy's names cannot be reached.

/** The row's registrations' counters, a JSON array in {@link COUNTER_SUMS}' order (zeros without any). */
function countersOfRow(dialect: DialectName) {
  const zero = (sum: Expression<number>) => sql`coalesce(${sum}, 0)`;
  return sql<string>`(select ${jsonArrayText(
    dialect,
    COUNTER_SUMS.map((c) => zero(c.expression)),
  )} from academy_registrations r where r.event_id = academy_events.id)`;
}

/** The row's category's name, or null. tenant-by-hand: by the row's own academy (above). */
const categoryOfRow = sql<string | null>`(select c.name from academy_categories c
  where c.academy_id = academy_events.academy_id and c.id = academy_events.category_id)`;

/**
 * The row's venue: a JSON array `[name, address, city]`, with `latitude, longitude` after for a detail; or null.
 * tenant-by-hand: by the row's own academy (above).
 */
function venueOfRow(dialect: DialectName, position: boolean) {
  const columns = ['name', 'address', 'city', ...(position ? ['latitude', 'longitude'] : [])];
  return sql<string | null>`(select ${jsonArrayText(
    dialect,
    columns.map((c) => sql.ref(`v.${c}`)),
  )} from academy_venues v where v.academy_id = academy_events.academy_id and v.id = academy_events.venue_id)`;
}

/** The row's instructors in their order: a JSON array of `[user_id, is_primary]`. */
function instructorsOfRow(dialect: DialectName) {
  return jsonRowsText(
    dialect,
    [sql.ref('i.user_id'), sql.ref('i.is_primary')],
    sql`from academy_event_instructors i where i.event_id = academy_events.id`,
    sql`i.position`,
  );
}

/**
 * Queries of events, their instructors and registrations' counters, and the directory rows they refer to (the
 * registrations themselves: registrations-repository.ts).
 */
export class EventsRepository extends AcademyRepository {
  constructor(
    db: Db,
    private readonly dialect: DialectName,
  ) {
    super(db);
  }

  // ------------------------------------------------------------ directory look-ups

  async existingUserIds(academyId: AcademyTenantId, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.tenant(academyId).selectFrom('academy_users').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  category(academyId: AcademyTenantId, id: number): Promise<{ id: number; name: string } | undefined> {
    return this.tenant(academyId)
      .selectFrom('academy_categories')
      .select(['id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async categoryNames(academyId: AcademyTenantId, ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await categoryNamesOf.all(this.db, { academyId, ids });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async courseCategories(academyId: AcademyTenantId, id: number): Promise<number[] | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_courses')
      .select('category_ids')
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? (JSON.parse(row.category_ids) as number[]) : undefined;
  }

  async curriculumCategory(academyId: AcademyTenantId, id: number): Promise<{ categoryId: number | null } | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_curriculums')
      .select('category_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { categoryId: row.category_id };
  }

  async venues(academyId: AcademyTenantId, ids: number[]): Promise<Map<number, VenueRecord>> {
    if (!ids.length) return new Map();
    const rows = await this.tenant(academyId)
      .selectFrom('academy_venues')
      .select(['id', 'name', 'address', 'city', 'latitude', 'longitude'])
      .where('id', 'in', ids)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        { name: r.name, address: r.address, city: r.city, latitude: r.latitude, longitude: r.longitude },
      ]),
    );
  }

  async people(academyId: AcademyTenantId, ids: number[]): Promise<Map<number, PersonRecord>> {
    if (!ids.length) return new Map();
    const rows = await this.tenant(academyId)
      .selectFrom('academy_users')
      .select(['id', 'firstname', 'preferred_name', 'lastname', 'email'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, toPerson(r)]));
  }

  // ------------------------------------------------------------ events

  find(academyId: AcademyTenantId, kind: Kind, id: number): Promise<EventRecord | undefined> {
    return findEvent.first(this.db, { academyId, kind, id }).then(maybeEvent);
  }

  /** An event with its counters, category's name, venue and instructors, in one statement ({@link findEventView}). */
  async findView(academyId: AcademyTenantId, kind: Kind, id: number): Promise<ViewedEvent | undefined> {
    const params = { academyId, kind, id };
    const r =
      dialectOf(this.db) === 'postgres'
        ? await findEventViewJson
            .first(this.db, params)
            .then((j) => (j ? (JSON.parse(j.json) as Awaited<ReturnType<typeof findEventView.first>>) : undefined))
        : await findEventView.first(this.db, params);
    if (!r) return undefined;
    const { counters, category_name, venue, instructors, ...stored } = r;
    return {
      row: toRecord(stored),
      counters: countersOfArray(counters),
      categoryName: category_name ?? undefined,
      venue: venueRecordOfArray(venue),
      instructors: (JSON.parse(instructors) as [number, number][]).map(([userId, isPrimary]) => ({
        eventId: id,
        userId,
        isPrimary: isPrimary === 1,
      })),
    };
  }

  /** An event of the academy by id, of either kind (Spazz's `GET /users/{eventid}/events` names no kind). */
  findAnyKind(academyId: AcademyTenantId, id: number): Promise<EventRecord | undefined> {
    return this.tenant(academyId)
      .selectFrom('academy_events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
      .then(maybeEvent);
  }

  /** An event by id alone, for internal follow-ups of an access already scoped to its academy. */
  findById(id: number): Promise<EventRecord | undefined> {
    return this.db.selectFrom('academy_events').selectAll().where('id', '=', id).executeTakeFirst().then(maybeEvent);
  }

  /** The same, locking the row until the transaction ends (PostgreSQL; SQLite has one writer anyway). */
  findForUpdate(academyId: AcademyTenantId, kind: Kind, id: number): Promise<EventRecord | undefined> {
    let q = this.tenant(academyId)
      .selectFrom('academy_events')
      .selectAll()
      .where('kind', '=', kind)
      .where('id', '=', id);
    if (this.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst().then(maybeEvent);
  }

  async insert(event: NewEventRecord): Promise<number> {
    const out = await this.db
      .insertInto('academy_events')
      .values(toColumns(event))
      .returning('id')
      .executeTakeFirstOrThrow();
    return out.id;
  }

  async insertMany(events: NewEventRecord[]): Promise<number[]> {
    if (!events.length) return [];
    const out = await this.db
      .insertInto('academy_events')
      .values(events.map((e) => toColumns(e)))
      .returning('id')
      .execute();
    return out.map((r) => r.id).sort((a, b) => a - b);
  }

  async update(id: number, changes: Partial<NewEventRecord>): Promise<void> {
    await this.db.updateTable('academy_events').set(toColumns(changes)).where('id', '=', id).execute();
  }

  async deleteBundleOrEvent(event: EventRecord): Promise<void> {
    // Deleting a bundle's main event deletes its offers with it.
    await this.tenant(event.academyId)
      .deleteFrom('academy_events')
      .where((eb) =>
        event.bundleId === event.id
          ? eb.or([eb('id', '=', event.id), eb('bundle_id', '=', event.id)])
          : eb('id', '=', event.id),
      )
      .execute();
  }

  private listBase(academyId: AcademyTenantId, kind: Kind, filter: EventListFilter) {
    const shape = { status: filter.status, from: filter.from !== undefined, to: filter.to !== undefined };
    return listed(this.tenant(academyId), kind, shape, filter);
  }

  /** How many events a list filter matches (every matching row is visited). */
  async count(academyId: AcademyTenantId, kind: Kind, filter: EventListFilter): Promise<number> {
    const row = await this.listBase(academyId, kind, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** One page of a list, by start date then id, in one statement ({@link listPageQuery}). */
  async listPage(
    academyId: AcademyTenantId,
    kind: Kind,
    filter: EventListFilter,
    start: number,
    limit: number,
  ): Promise<ListedEvent[]> {
    if (limit === 0) return [];
    const shape = { status: filter.status, from: filter.from !== undefined, to: filter.to !== undefined };
    const key = `${shape.status}:${shape.from}:${shape.to}`;
    let query = listPages.get(key);
    if (!query) {
      query = listPageQuery(shape);
      listPages.set(key, query);
    }
    const rows = await query.all(this.db, {
      academyId,
      kind,
      now: filter.now,
      from: filter.from ?? 0,
      to: filter.to ?? 0,
      start,
      limit,
    });
    return rows.map((r) => ({
      row: {
        id: r.id,
        academyId: academyTenantId(r.academy_id),
        kind: r.kind,
        title: r.title,
        description: r.description,
        categoryId: r.category_id,
        timezoneId: r.timezone_id,
        timeOffset: r.time_offset,
        sessions: JSON.parse(r.sessions) as StoredSession[],
        canceled: r.canceled === 1,
        autoArchive: r.auto_archive === 1,
        maxAttendees: r.max_attendees,
        venueId: r.venue_id,
        location: r.location,
        curriculumId: r.curriculum_id,
        courseId: r.course_id,
        startAt: r.start_at,
        endAt: r.end_at,
      },
      counters: countersOfArray(r.counters),
      categoryName: r.category_name ?? undefined,
      venue: venueOfArray(r.venue),
    }));
  }

  /** A bundle's events (main first, then offers by id), optionally filtered by title. */
  async bundle(
    academyId: AcademyTenantId,
    mainId: number,
    search: string | undefined,
    start: number,
    limit: number,
  ): Promise<EventRecord[]> {
    let q = this.tenant(academyId)
      .selectFrom('academy_events')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', mainId), eb('bundle_id', '=', mainId)]));
    if (search) q = q.where(containsText(['title'], search));
    return q
      .orderBy('id')
      .offset(start)
      .limit(limit)
      .execute()
      .then((rows) => rows.map(toRecord));
  }

  async offerCount(mainId: number): Promise<number> {
    const row = await this.db
      .selectFrom('academy_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('bundle_id', '=', mainId)
      .where('id', '!=', mainId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * The bundle's event that starts last. A bundle's main event has its own id as `bundle_id`, so the bundle is
   * `bundle_id = mainId`, and the index on (bundle_id, start_at, id) finds the row in one seek, however many
   * offers the bundle holds (the cost of addOffers no longer grows with the bundle).
   */
  async latestOfferStart(mainId: number): Promise<EventRecord | undefined> {
    return this.db
      .selectFrom('academy_events')
      .selectAll()
      .where('bundle_id', '=', mainId)
      .orderBy('start_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
      .then(maybeEvent);
  }

  async bundleIds(mainId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('academy_events')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', mainId), eb('bundle_id', '=', mainId)]))
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  // ------------------------------------------------------------ instructors

  async instructors(eventIds: number[]): Promise<Map<number, InstructorRecord[]>> {
    const out = new Map<number, InstructorRecord[]>();
    if (!eventIds.length) return out;
    const rows = await instructorsOf.all(this.db, { ids: eventIds });
    for (const r of rows) {
      const list = out.get(r.event_id) ?? [];
      list.push({ eventId: r.event_id, userId: r.user_id, isPrimary: r.is_primary === 1 });
      out.set(r.event_id, list);
    }
    return out;
  }

  /** Gives each event these instructors, in this order. */
  async replaceInstructors(
    eventIds: number[],
    instructors: Pick<InstructorRecord, 'userId' | 'isPrimary'>[],
  ): Promise<void> {
    if (!eventIds.length) return;
    await this.db.deleteFrom('academy_event_instructors').where('event_id', 'in', eventIds).execute();
    const rows = eventIds.flatMap((event_id) =>
      instructors.map((i, position) => ({
        event_id,
        user_id: i.userId,
        is_primary: i.isPrimary ? 1 : 0,
        position,
      })),
    );
    if (rows.length) await this.db.insertInto('academy_event_instructors').values(rows).execute();
  }

  // ------------------------------------------------------------ registrations' counters

  async counters(eventIds: number[]): Promise<Map<number, Counters>> {
    const out = new Map<number, Counters>();
    if (!eventIds.length) return out;
    const rows = await countersOf.all(this.db, { ids: eventIds });
    for (const r of rows) out.set(r.event_id, toCounters(r));
    return out;
  }
}
