import { type Expression, type Insertable, type Selectable, sql } from 'kysely';
import { type Db, type DialectName, dialectOf } from '../../platform/db/database.js';
import { jsonArrayText, jsonRowsText } from '../../platform/db/json-sql.js';
import { prepared } from '../../platform/db/prepared.js';
import { AcademyRepository } from '../../platform/db/repository.js';
import type { Tables } from '../../platform/db/schema.js';
import { containsText } from '../../platform/db/search.js';
import { Tenant } from '../../platform/db/tenant.js';
import type { Kind } from './schemas.js';
import type { StoredSession } from './sessions.js';
import type { AcademyEventsTable, AcademyRegistrationsTable } from './tables.js';

type StoredEvent = Selectable<AcademyEventsTable>;

/** An event as the domain sees it: its sessions and external instructors decoded. */
export type EventRow = Omit<StoredEvent, 'sessions' | 'external_instructors'> & {
  sessions: StoredSession[];
  external_instructors: string[];
};

export type NewEventRow = Omit<Insertable<AcademyEventsTable>, 'sessions' | 'external_instructors'> & {
  sessions: StoredSession[];
  external_instructors: string[];
};

function toEvent(row: StoredEvent): EventRow {
  return {
    ...row,
    sessions: JSON.parse(row.sessions) as StoredSession[],
    external_instructors: JSON.parse(row.external_instructors) as string[],
  };
}

const maybeEvent = (row: StoredEvent | undefined): EventRow | undefined => (row ? toEvent(row) : undefined);

function eventColumns<V extends Partial<Pick<EventRow, 'sessions' | 'external_instructors'>>>(values: V) {
  const { sessions, external_instructors, ...plain } = values;
  return {
    ...plain,
    ...(sessions !== undefined ? { sessions: JSON.stringify(sessions) } : {}),
    ...(external_instructors !== undefined ? { external_instructors: JSON.stringify(external_instructors) } : {}),
  };
}
export type RegistrationRow = Selectable<AcademyRegistrationsTable>;

export interface Counters {
  registered: number;
  attendees_yes: number;
  attendees_pending: number;
  completed: number;
  absent: number;
  cancelled: number;
  waitlisted: number;
  attendance_minutes: number;
}

export const ZERO_COUNTERS: Counters = {
  registered: 0,
  attendees_yes: 0,
  attendees_pending: 0,
  completed: 0,
  absent: 0,
  cancelled: 0,
  waitlisted: 0,
  attendance_minutes: 0,
};

export interface InstructorRow {
  event_id: number;
  user_id: number;
  is_primary: number;
}

export interface PersonRow {
  id: number;
  firstname: string;
  preferred_name: string | null;
  lastname: string;
  email: string;
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
const findEvent = prepared((db: Db, p: { academyId: number; kind: Kind; id: number }) =>
  new Tenant<Tables, 'academy_id'>(db, p.academyId, 'academy_id')
    .selectFrom('academy_events')
    .selectAll()
    .where('kind', '=', p.kind)
    .where('id', '=', p.id),
);
const categoryNamesOf = prepared((db: Db, p: { academyId: number; ids: number[] }) =>
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

/** Counters as read (PostgreSQL's sums are bigint, read as strings; an event without registrations has none). */
function toCounters(r: { [K in keyof Counters]: number | string | null }): Counters {
  return {
    registered: Number(r.registered ?? 0),
    attendees_yes: Number(r.attendees_yes ?? 0),
    attendees_pending: Number(r.attendees_pending ?? 0),
    completed: Number(r.completed ?? 0),
    absent: Number(r.absent ?? 0),
    cancelled: Number(r.cancelled ?? 0),
    waitlisted: Number(r.waitlisted ?? 0),
    attendance_minutes: Number(r.attendance_minutes ?? 0),
  };
}

/** The counters as {@link countersOfRow} reads them: a JSON array of the sums, in {@link COUNTER_SUMS}' order. */
function countersOfArray(text: string): Counters {
  const [registered, attendees_yes, attendees_pending, completed, absent, cancelled, waitlisted, attendance_minutes] =
    JSON.parse(text) as (number | string | null)[];
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
function venueRowOfArray(text: string | null): VenueRow | undefined {
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
export type ListedEventRow = Omit<Pick<StoredEvent, (typeof LISTED_COLUMNS)[number]>, 'sessions'> & {
  sessions: StoredSession[];
};

/** What a list item shows of a venue. */
export interface VenuePlace {
  name: string;
  address: string | null;
  city: string | null;
}

export interface VenueRow extends VenuePlace {
  latitude: number | null;
  longitude: number | null;
}

/** One event of a list page with what its item shows of other tables, read in the page's own statement. */
export interface ListedEvent {
  row: ListedEventRow;
  counters: Counters;
  categoryName: string | undefined;
  venue: VenuePlace | undefined;
}

/** One event read whole with what its detail shows of other tables, in one statement. */
export interface ViewedEvent {
  row: EventRow;
  counters: Counters;
  categoryName: string | undefined;
  venue: VenueRow | undefined;
  instructors: InstructorRow[];
}

type ListFilterShape = Pick<EventListFilter, 'status'> & { from: boolean; to: boolean };
type ListPageParams = {
  academyId: number;
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
function eventView(db: Db, p: { academyId: number; kind: Kind; id: number }) {
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
const findEventViewJson = prepared((db: Db, p: { academyId: number; kind: Kind; id: number }) =>
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

  async existingUserIds(academyId: number, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.tenant(academyId).selectFrom('academy_users').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  category(academyId: number, id: number): Promise<{ id: number; name: string } | undefined> {
    return this.tenant(academyId)
      .selectFrom('academy_categories')
      .select(['id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async categoryNames(academyId: number, ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await categoryNamesOf.all(this.db, { academyId, ids });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async courseCategories(academyId: number, id: number): Promise<number[] | undefined> {
    const row = await this.tenant(academyId)
      .selectFrom('academy_courses')
      .select('category_ids')
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? (JSON.parse(row.category_ids) as number[]) : undefined;
  }

  async curriculumCategory(academyId: number, id: number): Promise<{ category_id: number | null } | undefined> {
    return this.tenant(academyId)
      .selectFrom('academy_curriculums')
      .select('category_id')
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async venues(academyId: number, ids: number[]): Promise<Map<number, VenueRow>> {
    if (!ids.length) return new Map();
    const rows = await this.tenant(academyId)
      .selectFrom('academy_venues')
      .select(['id', 'name', 'address', 'city', 'latitude', 'longitude'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  async people(academyId: number, ids: number[]): Promise<Map<number, PersonRow>> {
    if (!ids.length) return new Map();
    const rows = await this.tenant(academyId)
      .selectFrom('academy_users')
      .select(['id', 'firstname', 'preferred_name', 'lastname', 'email'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  // ------------------------------------------------------------ events

  find(academyId: number, kind: Kind, id: number): Promise<EventRow | undefined> {
    return findEvent.first(this.db, { academyId, kind, id }).then(maybeEvent);
  }

  /** An event with its counters, category's name, venue and instructors, in one statement ({@link findEventView}). */
  async findView(academyId: number, kind: Kind, id: number): Promise<ViewedEvent | undefined> {
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
      row: toEvent(stored),
      counters: countersOfArray(counters),
      categoryName: category_name ?? undefined,
      venue: venueRowOfArray(venue),
      instructors: (JSON.parse(instructors) as [number, number][]).map(([user_id, is_primary]) => ({
        event_id: id,
        user_id,
        is_primary,
      })),
    };
  }

  /** An event of the academy by id, of either kind (Spazz's `GET /users/{eventid}/events` names no kind). */
  findAnyKind(academyId: number, id: number): Promise<EventRow | undefined> {
    return this.tenant(academyId)
      .selectFrom('academy_events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
      .then(maybeEvent);
  }

  /** An event by id alone, for internal follow-ups of an access already scoped to its academy. */
  findById(id: number): Promise<EventRow | undefined> {
    return this.db.selectFrom('academy_events').selectAll().where('id', '=', id).executeTakeFirst().then(maybeEvent);
  }

  /** The same, locking the row until the transaction ends (PostgreSQL; SQLite has one writer anyway). */
  findForUpdate(academyId: number, kind: Kind, id: number): Promise<EventRow | undefined> {
    let q = this.tenant(academyId)
      .selectFrom('academy_events')
      .selectAll()
      .where('kind', '=', kind)
      .where('id', '=', id);
    if (this.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst().then(maybeEvent);
  }

  async insert(row: NewEventRow): Promise<number> {
    const out = await this.db
      .insertInto('academy_events')
      .values(eventColumns(row) as Insertable<AcademyEventsTable>)
      .returning('id')
      .executeTakeFirstOrThrow();
    return out.id;
  }

  async insertMany(rows: NewEventRow[]): Promise<number[]> {
    if (!rows.length) return [];
    const out = await this.db
      .insertInto('academy_events')
      .values(rows.map((r) => eventColumns(r) as Insertable<AcademyEventsTable>))
      .returning('id')
      .execute();
    return out.map((r) => r.id).sort((a, b) => a - b);
  }

  async update(id: number, changes: Partial<NewEventRow>): Promise<void> {
    await this.db.updateTable('academy_events').set(eventColumns(changes)).where('id', '=', id).execute();
  }

  async deleteBundleOrEvent(event: EventRow): Promise<void> {
    // Deleting a bundle's main event deletes its offers with it.
    await this.tenant(event.academy_id)
      .deleteFrom('academy_events')
      .where((eb) =>
        event.bundle_id === event.id
          ? eb.or([eb('id', '=', event.id), eb('bundle_id', '=', event.id)])
          : eb('id', '=', event.id),
      )
      .execute();
  }

  private listBase(academyId: number, kind: Kind, filter: EventListFilter) {
    const shape = { status: filter.status, from: filter.from !== undefined, to: filter.to !== undefined };
    return listed(this.tenant(academyId), kind, shape, filter);
  }

  /** How many events a list filter matches (every matching row is visited). */
  async count(academyId: number, kind: Kind, filter: EventListFilter): Promise<number> {
    const row = await this.listBase(academyId, kind, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** One page of a list, by start date then id, in one statement ({@link listPageQuery}). */
  async listPage(
    academyId: number,
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
        academy_id: r.academy_id,
        kind: r.kind,
        title: r.title,
        description: r.description,
        category_id: r.category_id,
        timezone_id: r.timezone_id,
        time_offset: r.time_offset,
        sessions: JSON.parse(r.sessions) as StoredSession[],
        canceled: r.canceled,
        auto_archive: r.auto_archive,
        max_attendees: r.max_attendees,
        venue_id: r.venue_id,
        location: r.location,
        curriculum_id: r.curriculum_id,
        course_id: r.course_id,
        start_at: r.start_at,
        end_at: r.end_at,
      },
      counters: countersOfArray(r.counters),
      categoryName: r.category_name ?? undefined,
      venue: venueOfArray(r.venue),
    }));
  }

  /** A bundle's events (main first, then offers by id), optionally filtered by title. */
  async bundle(
    academyId: number,
    mainId: number,
    search: string | undefined,
    start: number,
    limit: number,
  ): Promise<EventRow[]> {
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
      .then((rows) => rows.map(toEvent));
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
  async latestOfferStart(mainId: number): Promise<EventRow | undefined> {
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

  async instructors(eventIds: number[]): Promise<Map<number, InstructorRow[]>> {
    const out = new Map<number, InstructorRow[]>();
    if (!eventIds.length) return out;
    const rows = await instructorsOf.all(this.db, { ids: eventIds });
    for (const r of rows) {
      const list = out.get(r.event_id) ?? [];
      list.push(r);
      out.set(r.event_id, list);
    }
    return out;
  }

  async replaceInstructors(eventIds: number[], instructors: { user_id: number; is_primary: number }[]): Promise<void> {
    if (!eventIds.length) return;
    await this.db.deleteFrom('academy_event_instructors').where('event_id', 'in', eventIds).execute();
    const rows = eventIds.flatMap((event_id) => instructors.map((i, position) => ({ event_id, ...i, position })));
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
