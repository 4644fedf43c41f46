import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import {
  ConflictError,
  type FieldError,
  FieldValidationError,
  InvalidRequestError,
  NotFoundError,
} from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { ZoneRule } from '../../platform/timezones.js';
import type { AcademyContext } from '../academies/service.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import {
  type Counters,
  type EventListFilter,
  type EventRow,
  type EventsRepository,
  type InstructorRow,
  type ListedEventRow,
  type NewEventRow,
  type PersonRow,
  type RegistrationRow,
  SEATED,
  type VenuePlace,
  type VenueRow,
  ZERO_COUNTERS,
} from './repository.js';
import {
  type AddOffersBody,
  type ConvertBody,
  type Day,
  type EventBody,
  type Kind,
  type ListQuery,
  MAX_OFFERS_PER_REQUEST,
  type RegistrationUpdateBody,
} from './schemas.js';
import {
  earliestDate,
  isoDate,
  minutesOf,
  parseUsDate,
  readIsoDate,
  type StoredSession,
  shiftSessions,
  spanOf,
  type TimedSession,
  timeSessions,
  usDate,
} from './sessions.js';

export const MAX_OFFERS_PER_EVENT = 6000;
export const LIST_MAX_LIMIT = 100;
export const OFFERS_MAX_LIMIT = 20;
export const USERS_MAX_LIMIT = 100;
export const ATTENDANCE_MAX_LIMIT = 20;
/** Users per `GET /users/{eventid}/events` request (Spazz's client says at most 10). */
export const USER_EVENTS_MAX_USERS = 10;
const DEFAULT_LIMIT = 20;
/** A list total at least this large may be reused for up to TOTAL_REUSE_MS (docs/academy-api.md, "all"). */
export const TOTAL_REUSE_MIN = 1000;
export const TOTAL_REUSE_MS = 1000;
const TOTALS_KEPT = 10_000;

export type StatusLabel = 'Upcoming' | 'In Progress' | 'Completed' | 'Canceled';

/**
 * Everything derived about one event at one instant that a list item shows: times, state flags, counters, names.
 * `R` is the row as read: a list's {@link ListedEventRow}, or the whole {@link EventRow}.
 */
export interface EventState<R extends ListedEventRow = ListedEventRow> {
  row: R;
  rule: ZoneRule;
  timezoneLabel: string;
  sessions: TimedSession[];
  start: number;
  end: number;
  durationMinutes: number;
  now: number;
  upcoming: boolean;
  inProgress: boolean;
  completed: boolean;
  archived: boolean;
  active: boolean;
  status: StatusLabel;
  counters: Counters;
  seatsAvailable: number;
  maxed: boolean;
  categoryName: string | undefined;
  venue: VenuePlace | undefined;
}

/** The same for one event read whole, with what its detail shows besides: instructors, the venue's position. */
export interface EventView extends EventState<EventRow> {
  instructors: InstructorRow[];
  venue: VenueRow | undefined;
}

export interface BundleResult {
  lastEvent: string;
  addedOffers: string[];
  message: string;
}

export interface ParticipantsResult {
  view: EventView;
  total: number;
  instructors: PersonRow[];
  users: (RegistrationRow & PersonRow)[];
}

function clamp(limit: number | undefined, max: number): number {
  return Math.min(limit ?? DEFAULT_LIMIT, max);
}

/** A start position past any real list is simply past the end. */
function position(start: number | undefined): number {
  return Math.min(start ?? 0, 2_147_483_647);
}

function err(field: string, code: string, message: string): FieldError {
  return { field, code, message };
}

/** The repositories this service's writes touch, bound to one transaction in `work.run`. */
export interface EventsWork {
  events: EventsRepository;
}

/**
 * In-class and virtual classroom events: validation of every create and edit
 * rule, bundles and offers, registrations and attendance. Times, state flags
 * and counters are derived on read from the sessions, the clock and the
 * registrations; nothing derived is stored except the start/end index.
 */
export class EventsService {
  /**
   * Totals (`all`) of large lists, by academy and filter, when counted: counting is the one part of a list whose
   * cost grows with the academy (every matching row is visited). Forgotten on every event write in this process.
   */
  private readonly totals = new Map<string, { at: number; total: Promise<number> }>();

  private readonly repo: EventsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, EventsWork>,
    private readonly timezones: TimezoneRegistry,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.events;
  }

  /** Forgets the academy's list totals after a write that may change them (or a snapshot restored). */
  forgetTotals(academyId: number): void {
    const prefix = `${academyId}:`;
    for (const key of this.totals.keys()) if (key.startsWith(prefix)) this.totals.delete(key);
  }

  /**
   * The number of events a list filter matches. A total of TOTAL_REUSE_MIN or more is reused for TOTAL_REUSE_MS
   * (by the services' clock): writes in this process are seen at once, those of other processes and events
   * reaching their end (archived) within that time. Smaller totals are always counted.
   */
  private total(academyId: number, kind: Kind, filter: EventListFilter): Promise<number> {
    const key = `${academyId}:${kind}:${filter.status}:${filter.from ?? ''}:${filter.to ?? ''}`;
    const at = this.clock.now();
    const kept = this.totals.get(key);
    if (kept && at >= kept.at && at - kept.at < TOTAL_REUSE_MS) return kept.total;
    const total = this.repo.count(academyId, kind, filter);
    if (this.totals.size >= TOTALS_KEPT) this.totals.clear();
    // Shared by the calls that arrive while it is counted; kept only if large.
    this.totals.set(key, { at, total });
    total.then(
      (n) => {
        if (n < TOTAL_REUSE_MIN && this.totals.get(key)?.total === total) this.totals.delete(key);
      },
      () => {
        if (this.totals.get(key)?.total === total) this.totals.delete(key);
      },
    );
    return total;
  }

  // ------------------------------------------------------------ reading

  private zoneRule(row: Pick<EventRow, 'timezone_id' | 'time_offset'>): ZoneRule {
    const zone = row.timezone_id !== null ? this.timezones.zone(row.timezone_id) : undefined;
    return zone ? { zone } : { offsetMinutes: Math.round((row.time_offset ?? 0) * 60) };
  }

  private views(academyId: number, rows: EventRow[]): Promise<EventView[]> {
    return this.viewsWith(this.repo, academyId, rows);
  }

  /** The views of `rows`, read through `repo` (inside a write, the unit of work's). */
  private async viewsWith(repo: EventsRepository, academyId: number, rows: EventRow[]): Promise<EventView[]> {
    const ids = rows.map((r) => r.id);
    const now = this.clock.now();
    const [counters, instructors, categories, venues] = await Promise.all([
      repo.counters(ids),
      repo.instructors(ids),
      repo.categoryNames(academyId, [
        ...new Set(rows.map((r) => r.category_id).filter((c): c is number => c !== null)),
      ]),
      repo.venues(academyId, [...new Set(rows.map((r) => r.venue_id).filter((v): v is number => v !== null))]),
    ]);
    return rows.map((row) => ({
      ...this.stateOf(
        row,
        counters.get(row.id) ?? ZERO_COUNTERS,
        row.category_id !== null ? categories.get(row.category_id) : undefined,
        row.venue_id !== null ? venues.get(row.venue_id) : undefined,
        now,
      ),
      instructors: instructors.get(row.id) ?? [],
    }));
  }

  /**
   * An event's times, state flags and seats at `now`, from its row, counters and names. Built as one literal: a
   * list makes one per item, and spreading it into another object cost a page about 4% of its CPU.
   */
  private stateOf<R extends ListedEventRow, V extends VenuePlace>(
    row: R,
    counters: Counters,
    categoryName: string | undefined,
    venue: V | undefined,
    now: number,
  ): EventState<R> & { venue: V | undefined } {
    const rule = this.zoneRule(row);
    const sessions = timeSessions(row.sessions, rule);
    const { start, end, durationMinutes } = spanOf(sessions);
    const completed = now >= end;
    const inProgress = !completed && now >= start;
    const canceled = row.canceled === 1;
    const archived = !canceled && row.auto_archive === 1 && completed;
    const seatsAvailable = Math.max(0, row.max_attendees - counters.registered);
    let timezoneLabel: string;
    if ('zone' in rule && row.timezone_id !== null) {
      timezoneLabel = this.timezones.describe(row.timezone_id, now)?.label ?? rule.zone;
    } else {
      const off = 'offsetMinutes' in rule ? rule.offsetMinutes : 0;
      const abs = Math.abs(off);
      timezoneLabel = `(GMT${off < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')})`;
    }
    return {
      row,
      rule,
      timezoneLabel,
      sessions,
      start,
      end,
      durationMinutes,
      now,
      upcoming: now < start,
      inProgress,
      completed,
      archived,
      active: !archived && !canceled,
      status: canceled ? 'Canceled' : completed ? 'Completed' : inProgress ? 'In Progress' : 'Upcoming',
      counters,
      seatsAvailable,
      maxed: seatsAvailable === 0,
      categoryName,
      venue,
    };
  }

  private async load(ctx: AcademyContext, kind: Kind, id: number, repo = this.repo): Promise<EventRow> {
    const row = await repo.find(ctx.academyId, kind, id);
    if (!row) throw new NotFoundError('event', String(id));
    return row;
  }

  /** One event's view, read in one statement (the GET's path; writes build theirs with `viewsWith`). */
  async view(ctx: AcademyContext, kind: Kind, id: number): Promise<EventView> {
    const found = await this.repo.findView(ctx.academyId, kind, id);
    if (!found) throw new NotFoundError('event', String(id));
    return {
      ...this.stateOf(found.row, found.counters, found.categoryName, found.venue, this.clock.now()),
      instructors: found.instructors,
    };
  }

  /**
   * A page of events and the filter's total. The page is one statement (the repository's `listPage`), and its
   * states are taken at the instant the filter used, so an item's status agrees with the filter that listed it.
   */
  async list(ctx: AcademyContext, kind: Kind, query: ListQuery): Promise<{ all: number; events: EventState[] }> {
    const dayStart = (iso: string) => {
      const d = readIsoDate(iso);
      return Date.UTC(d.year, d.month - 1, d.day);
    };
    if (query.dateStart && query.dateEnd && query.dateEnd < query.dateStart) {
      throw new FieldValidationError([err('dateEnd', 'invalid_range', 'dateEnd is before dateStart.')]);
    }
    const filter: EventListFilter = {
      status: query.status ?? 'active',
      ...(query.dateStart ? { from: dayStart(query.dateStart) } : {}),
      ...(query.dateEnd ? { to: dayStart(query.dateEnd) + 86_400_000 } : {}),
      now: this.clock.now(),
    };
    const [total, page] = await Promise.all([
      this.total(ctx.academyId, kind, filter),
      this.repo.listPage(ctx.academyId, kind, filter, position(query.start), clamp(query.limit, LIST_MAX_LIMIT)),
    ]);
    const events = page.map((e) => this.stateOf(e.row, e.counters, e.categoryName, e.venue, filter.now));
    return { all: total, events };
  }

  /** The bundle's events (main first), or only the event itself when it is not bundled. */
  async offers(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    q: { start?: number; limit?: number; search?: string },
  ): Promise<EventView[]> {
    const row = await this.load(ctx, kind, id);
    const start = position(q.start);
    const limit = clamp(q.limit, OFFERS_MAX_LIMIT);
    const rows =
      row.bundle_id === null
        ? [row]
            .filter((r) => !q.search || r.title.toLowerCase().includes(q.search.toLowerCase()))
            .slice(start, start + limit)
        : await this.repo.bundle(ctx.academyId, row.bundle_id, q.search || undefined, start, limit);
    return this.views(ctx.academyId, rows);
  }

  // ------------------------------------------------------------ create and edit

  private async build(
    ctx: AcademyContext,
    kind: Kind,
    body: EventBody & Record<string, unknown>,
    existing?: EventRow,
  ): Promise<{
    row: Omit<NewEventRow, 'created_at' | 'academy_id' | 'kind'>;
    instructors: { user_id: number; is_primary: number }[];
  }> {
    const errors: FieldError[] = [];

    // Timezone: timezoneId wins over timeOffset.
    let timezoneId: number | null = null;
    let timeOffset: number | null = null;
    if (body.timezoneId !== undefined) {
      if (this.timezones.zone(body.timezoneId)) timezoneId = body.timezoneId;
      else errors.push(err('timezoneId', 'not_found', 'No timezone has this id (GET /content/timezones).'));
    } else if (body.timeOffset !== undefined) {
      timeOffset = body.timeOffset;
    } else {
      errors.push(err('timeOffset', 'required', 'timeOffset or timezoneId is required.'));
    }

    // Sessions: in-class days (with segments) or virtual classroom sessions (without).
    const listName = kind === 'ilt' ? 'days' : 'sessions';
    const other = kind === 'ilt' ? 'sessions' : 'days';
    if (body[other] !== undefined)
      errors.push(err(other, 'not_allowed', `${other} is not accepted for ${kind} events; use ${listName}.`));
    const input = (kind === 'ilt' ? body.days : body.sessions) ?? [];
    const sessions: StoredSession[] = [];
    input.forEach((day, i) => {
      const path = `${listName}.${i}`;
      const date = parseUsDate(day.date);
      if (!date) errors.push(err(`${path}.date`, 'invalid_date', 'Expected a real date, MM/DD/YYYY.'));
      const from = minutesOf(day.from);
      const to = minutesOf(day.to);
      if (to <= from) errors.push(err(`${path}.to`, 'invalid_range', 'The end must be after the start, the same day.'));
      const segmentsIn = (day as { segments?: unknown[] }).segments;
      if (kind === 'vc' && segmentsIn !== undefined) {
        errors.push(err(`${path}.segments`, 'not_allowed', 'Virtual classroom sessions have no segments.'));
      }
      const segments = (kind === 'ilt' ? (day as Day).segments : undefined) ?? [];
      const stored: StoredSession = { topic: day.topic, date: date ? isoDate(date) : '1970-01-01', from, to };
      if (kind === 'ilt') {
        stored.segments = segments.map((s, j) => {
          const sPath = `${path}.segments.${j}`;
          const sDate = s.date !== undefined ? parseUsDate(s.date) : date;
          if (!sDate) errors.push(err(`${sPath}.date`, 'invalid_date', 'Expected a real date, MM/DD/YYYY.'));
          const sFrom = minutesOf(s.from);
          const sTo = minutesOf(s.to);
          if (sTo <= sFrom) errors.push(err(`${sPath}.to`, 'invalid_range', 'The end must be after the start.'));
          return { title: s.title, date: sDate ? isoDate(sDate) : stored.date, from: sFrom, to: sTo };
        });
      }
      sessions.push(stored);
    });

    // Place: in-class needs venue + venueSeats or location + marker; virtual classroom refuses them.
    let venueId: number | null = null;
    let venueSeats: number | null = null;
    let location: string | null = null;
    let latitude: number | null = null;
    let longitude: number | null = null;
    if (kind === 'vc') {
      for (const f of ['venue', 'venueSeats', 'location', 'marker'] as const) {
        if (body[f] !== undefined)
          errors.push(err(f, 'not_allowed', 'Virtual classroom events have no venue or location.'));
      }
    } else if (body.venue !== undefined) {
      const venues = await this.repo.venues(ctx.academyId, [body.venue]);
      if (!venues.has(body.venue))
        errors.push(err('venue', 'not_found', 'No venue has this id (GET /content/venues).'));
      if (body.venueSeats === undefined)
        errors.push(err('venueSeats', 'required', 'venueSeats is required with venue.'));
      venueId = body.venue;
      venueSeats = body.venueSeats ?? null;
    } else if (body.location !== undefined) {
      if (body.marker === undefined) errors.push(err('marker', 'required', 'marker is required with location.'));
      location = body.location;
      latitude = body.marker?.coords.latitude ?? null;
      longitude = body.marker?.coords.longitude ?? null;
    } else {
      errors.push(
        err('venue', 'required', 'An in-class event needs venue (with venueSeats) or location (with marker).'),
      );
    }

    // Connection: fixed at creation; the course wins over the learning path.
    let based: number;
    let courseId: number | null;
    let curriculumId: number | null;
    if (existing) {
      based = existing.based;
      courseId = existing.course_id;
      curriculumId = existing.curriculum_id;
      if (body.based !== undefined && body.based !== existing.based)
        errors.push(err('based', 'immutable', 'based cannot change after creation.'));
      if (body.courseId !== undefined && body.courseId !== (existing.course_id ?? 0)) {
        errors.push(err('courseId', 'immutable', 'courseId cannot change after creation.'));
      }
      // As at creation, a course in the body wins: a curriculumId sent with it (the create body repeated, for
      // an event the course won) is ignored rather than read as a change.
      const courseInBody = body.courseId !== undefined && body.courseId !== 0;
      if (!courseInBody && body.curriculumId !== undefined && body.curriculumId !== (existing.curriculum_id ?? 0)) {
        errors.push(err('curriculumId', 'immutable', 'curriculumId cannot change after creation.'));
      }
      if (courseId !== null && body.partOfCourse === undefined) {
        errors.push(err('partOfCourse', 'required', 'partOfCourse is required on a course-connected event.'));
      }
      if (curriculumId !== null && body.partOfCurriculum === undefined) {
        errors.push(
          err('partOfCurriculum', 'required', 'partOfCurriculum is required on a learning-path-connected event.'),
        );
      }
    } else {
      based = body.based ?? 2;
      courseId = body.courseId && body.courseId !== 0 ? body.courseId : null;
      curriculumId = courseId === null && body.curriculumId && body.curriculumId !== 0 ? body.curriculumId : null;
    }
    let courseCategories: number[] | undefined;
    let curriculumCategory: number | null | undefined;
    if (courseId !== null) {
      courseCategories = await this.repo.courseCategories(ctx.academyId, courseId);
      if (!courseCategories && !existing) errors.push(err('courseId', 'not_found', 'No course has this id.'));
    } else if (curriculumId !== null) {
      const found = await this.repo.curriculumCategory(ctx.academyId, curriculumId);
      curriculumCategory = found?.category_id;
      if (!found && !existing) errors.push(err('curriculumId', 'not_found', 'No learning path has this id.'));
    }
    if ((courseId !== null || curriculumId !== null) && based !== 2 && !existing) {
      errors.push(
        err('based', 'invalid_choice', 'Course- or learning-path-connected events must be registration-based (2).'),
      );
    }

    // Category, by connection.
    let categoryId: number | null = null;
    if (courseId !== null) {
      const allowed = courseCategories ?? [];
      if (body.categoryId !== undefined) {
        if (allowed.includes(body.categoryId)) categoryId = body.categoryId;
        else
          errors.push(
            err('categoryId', 'invalid_choice', 'A course-connected event takes one of the course’s categories.'),
          );
      } else {
        categoryId = allowed[0] ?? null;
      }
    } else if (curriculumId !== null) {
      if (body.categoryId !== undefined && body.categoryId !== curriculumCategory) {
        errors.push(
          err('categoryId', 'invalid_choice', 'A learning-path-connected event takes the learning path’s category.'),
        );
      }
      categoryId = curriculumCategory ?? null;
    } else if (body.categoryId !== undefined && body.categoryId !== -1) {
      if (await this.repo.category(ctx.academyId, body.categoryId)) categoryId = body.categoryId;
      else errors.push(err('categoryId', 'not_found', 'No academy category has this id (GET /content/categories).'));
    }

    // Instructors: omitted means the super administrator as primary.
    let instructors: { user_id: number; is_primary: number }[] = [{ user_id: ctx.superAdminId, is_primary: 1 }];
    if (body.schooxInstructors !== undefined) {
      const given = body.schooxInstructors;
      if (given.filter((i) => i.isPrimary === true).length > 1) {
        errors.push(err('schooxInstructors', 'too_many_primary', 'At most one instructor can be primary.'));
      }
      const known = await this.repo.existingUserIds(
        ctx.academyId,
        given.map((i) => i.id),
      );
      const seen = new Set<number>();
      given.forEach((i, n) => {
        if (!known.has(i.id))
          errors.push(err(`schooxInstructors.${n}.id`, 'not_found', 'No academy user has this id.'));
        if (seen.has(i.id))
          errors.push(err(`schooxInstructors.${n}.id`, 'duplicate', 'This instructor is listed twice.'));
        seen.add(i.id);
      });
      instructors = [...given]
        .sort((a, b) => Number(b.isPrimary === true) - Number(a.isPrimary === true))
        .map((i) => ({ user_id: i.id, is_primary: i.isPrimary === true ? 1 : 0 }));
    }

    // Visibility: a visible event stays visible.
    let visible = body.visible ?? (existing ? existing.visible === 1 : false);
    if (existing?.visible === 1 && body.visible === false) {
      errors.push(err('visible', 'invalid_transition', 'A visible event cannot be made invisible.'));
      visible = true;
    }

    if (errors.length) throw new FieldValidationError(errors);

    const rule: ZoneRule =
      timezoneId !== null
        ? { zone: this.timezones.zone(timezoneId) as string }
        : { offsetMinutes: Math.round((timeOffset ?? 0) * 60) };
    const { start, end } = spanOf(timeSessions(sessions, rule));
    const at = this.clock.now();
    return {
      row: {
        title: body.title,
        description: body.description,
        bundle_title: body.bundleTitle ?? null,
        picture: existing?.picture ?? null,
        time_offset: timeOffset,
        timezone_id: timezoneId,
        registration_deadline: body.registrationDeadline,
        based,
        auto_approved: body.autoApproved ? 1 : 0,
        max_attendees: body.attendees ?? 20,
        block_reservations: body.blockReservations ? 1 : 0,
        visible: visible ? 1 : 0,
        category_id: categoryId,
        course_id: courseId,
        curriculum_id: curriculumId,
        part_of_course: body.partOfCourse ? 1 : 0,
        part_of_curriculum: body.partOfCurriculum ? 1 : 0,
        custom_cal_message: body.customCalMessage ?? null,
        auto_archive: body.autoArchive ? 1 : 0,
        passing_score: kind === 'ilt' ? (body.passingScore ?? 0) : 0,
        completion_percentage: kind === 'vc' ? (body.completionPercentage ?? 80) : 0,
        venue_id: venueId,
        venue_seats: venueSeats,
        location,
        latitude,
        longitude,
        canceled: existing?.canceled ?? 0,
        sessions,
        // Omitted on edit: the list is cleared (edit rule 1).
        external_instructors: (body.externalInstructors ?? []).map((e) => e.name),
        bundle_id: existing?.bundle_id ?? null,
        can_multi: existing?.can_multi ?? null,
        must_retake: existing?.must_retake ?? 0,
        retake_every: existing?.retake_every ?? 0,
        start_at: start,
        end_at: end,
        updated_at: at,
      },
      instructors,
    };
  }

  async create(ctx: AcademyContext, kind: Kind, body: EventBody): Promise<EventView> {
    const { row, instructors } = await this.build(ctx, kind, body as EventBody & Record<string, unknown>);
    const id = await this.work.run(async ({ events: repo }) => {
      const newId = await repo.insert({
        ...row,
        academy_id: ctx.academyId,
        kind,
        created_at: row.updated_at as number,
      });
      await repo.replaceInstructors([newId], instructors);
      return newId;
    });
    this.forgetTotals(ctx.academyId);
    return this.view(ctx, kind, id);
  }

  async edit(ctx: AcademyContext, kind: Kind, id: number, body: EventBody): Promise<EventView> {
    const existing = await this.load(ctx, kind, id);
    const { row, instructors } = await this.build(ctx, kind, body as EventBody & Record<string, unknown>, existing);
    await this.work.run(async ({ events: repo }) => {
      await repo.update(id, row);
      await repo.replaceInstructors([id], instructors);
    });
    this.forgetTotals(ctx.academyId);
    return this.view(ctx, kind, id);
  }

  async delete(ctx: AcademyContext, kind: Kind, id: number): Promise<void> {
    const row = await this.load(ctx, kind, id);
    await this.repo.deleteBundleOrEvent(row);
    this.forgetTotals(ctx.academyId);
  }

  /** Cancels an event (Atrium extension): it leaves `status=active` and appears under `status=canceled`. */
  async cancel(ctx: AcademyContext, kind: Kind, id: number): Promise<EventView> {
    await this.load(ctx, kind, id);
    await this.repo.update(id, { canceled: 1, updated_at: this.clock.now() });
    this.forgetTotals(ctx.academyId);
    return this.view(ctx, kind, id);
  }

  // ------------------------------------------------------------ bundles

  private offerDates(body: AddOffersBody): string[] {
    if (body.customOffers.length > MAX_OFFERS_PER_REQUEST) {
      throw new InvalidRequestError(
        `At most ${MAX_OFFERS_PER_REQUEST} offers can be added per request; this one has ${body.customOffers.length}.`,
      );
    }
    const errors: FieldError[] = [];
    const dates = body.customOffers.map((o, i) => {
      const d = parseUsDate(o.date);
      if (!d) errors.push(err(`customOffers.${i}.date`, 'invalid_date', 'Expected a real date, MM/DD/YYYY.'));
      return d ? isoDate(d) : '';
    });
    if (errors.length) throw new FieldValidationError(errors);
    return dates;
  }

  private async addOfferRows(repo: EventsRepository, main: EventRow, dates: string[]): Promise<void> {
    const sessions = main.sessions;
    const rule = this.zoneRule(main);
    const at = this.clock.now();
    const { id: _id, ...copy } = main;
    const rows: NewEventRow[] = dates.map((date) => {
      const shifted = shiftSessions(sessions, date);
      const { start, end } = spanOf(timeSessions(shifted, rule));
      return {
        ...copy,
        bundle_id: main.id,
        sessions: shifted,
        start_at: start,
        end_at: end,
        created_at: at,
        updated_at: at,
      };
    });
    // The main event's instructors, read once: every offer gets the same.
    const instructors = ((await repo.instructors([main.id])).get(main.id) ?? []).map((x) => ({
      user_id: x.user_id,
      is_primary: x.is_primary,
    }));
    for (let i = 0; i < rows.length; i += 20) {
      const ids = await repo.insertMany(rows.slice(i, i + 20));
      await repo.replaceInstructors(ids, instructors);
    }
  }

  private async bundleResult(
    repo: EventsRepository,
    mainId: number,
    dates: string[],
    message: string,
  ): Promise<BundleResult> {
    const latest = await repo.latestOfferStart(mainId);
    const first = latest ? earliestDate(latest.sessions) : undefined;
    return { lastEvent: first ? usDate(first) : '', addedOffers: dates.map(usDate), message };
  }

  private requireRegistrationBased(row: EventRow): void {
    if (row.based !== 2) {
      throw new InvalidRequestError(
        'Only registration-based events (based = 2) can be converted to a bundle or receive offers.',
      );
    }
  }

  async convertToBundle(ctx: AcademyContext, kind: Kind, id: number, body: ConvertBody): Promise<BundleResult> {
    const errors: FieldError[] = [];
    let mustRetake = false;
    let retakeEvery = 0;
    if (body.canMulti === 'yes') {
      if (body.mustRetake === undefined)
        errors.push(err('mustRetake', 'required', 'mustRetake is required when canMulti is yes.'));
      mustRetake = body.mustRetake === true;
      if (mustRetake) {
        const every = body.retakeEvery ?? body.attendEvery;
        if (every === undefined)
          errors.push(
            err('retakeEvery', 'required', 'retakeEvery (or attendEvery) is required when mustRetake is true.'),
          );
        retakeEvery = every ?? 0;
      }
    }
    if (errors.length) throw new FieldValidationError(errors);
    const dates = this.offerDates(body);
    const result = await this.work.run(async ({ events: repo }) => {
      const main = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!main) throw new NotFoundError('event', String(id));
      this.requireRegistrationBased(main);
      if (main.bundle_id !== null) throw new ConflictError('This event is already part of a bundle; use addOffers.');
      await repo.update(main.id, {
        bundle_id: main.id,
        can_multi: body.canMulti,
        must_retake: mustRetake ? 1 : 0,
        retake_every: retakeEvery,
        updated_at: this.clock.now(),
      });
      await this.addOfferRows(
        repo,
        {
          ...main,
          bundle_id: main.id,
          can_multi: body.canMulti,
          must_retake: mustRetake ? 1 : 0,
          retake_every: retakeEvery,
        },
        dates,
      );
      return this.bundleResult(repo, main.id, dates, `Event converted to a bundle with ${dates.length} offer(s).`);
    });
    this.forgetTotals(ctx.academyId);
    return result;
  }

  async addOffers(ctx: AcademyContext, kind: Kind, id: number, body: AddOffersBody): Promise<BundleResult> {
    const dates = this.offerDates(body);
    const result = await this.work.run(async ({ events: repo }) => {
      // The main event's row is locked, so parallel requests count and insert one after the other.
      const main = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!main) throw new NotFoundError('event', String(id));
      this.requireRegistrationBased(main);
      if (main.bundle_id === null)
        throw new ConflictError('This event is not a bundle yet; use convertToBundle first.');
      if (main.bundle_id !== main.id)
        throw new ConflictError(`This event is an offer; add offers to the bundle's main event ${main.bundle_id}.`);
      const existing = await repo.offerCount(main.id);
      if (existing + dates.length > MAX_OFFERS_PER_EVENT) {
        throw new ConflictError(
          `An event holds at most ${MAX_OFFERS_PER_EVENT} offers; it has ${existing}, so ${dates.length} more do not fit.`,
        );
      }
      await this.addOfferRows(repo, main, dates);
      return this.bundleResult(repo, main.id, dates, `${dates.length} offer(s) added.`);
    });
    this.forgetTotals(ctx.academyId);
    return result;
  }

  // ------------------------------------------------------------ participants and attendance

  async participants(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    q: { start?: number; limit?: number; onlyCompleted?: boolean },
  ): Promise<ParticipantsResult> {
    const view = await this.view(ctx, kind, id);
    const { total, rows } = await this.repo.participants(
      ctx.academyId,
      id,
      { states: q.onlyCompleted ? ['completed'] : ['registered', 'waitlisted', 'completed', 'absent'] },
      position(q.start),
      clamp(q.limit, USERS_MAX_LIMIT),
    );
    const people = await this.repo.people(
      ctx.academyId,
      view.instructors.map((i) => i.user_id),
    );
    const instructors = view.instructors
      .map((i) => people.get(i.user_id))
      .filter((p): p is PersonRow => p !== undefined);
    return { view, total, instructors, users: rows };
  }

  async attendance(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    q: { start?: number; limit?: number; search?: string },
  ): Promise<(RegistrationRow & PersonRow)[]> {
    await this.load(ctx, kind, id);
    const { rows } = await this.repo.participants(
      ctx.academyId,
      id,
      { states: [...SEATED], ...(q.search ? { search: q.search } : {}) },
      position(q.start),
      clamp(q.limit, ATTENDANCE_MAX_LIMIT),
    );
    return rows;
  }

  // ------------------------------------------------------------ registrations (Atrium extension)

  /**
   * Which of these users are registered to an event of either kind (Spazz's
   * `GET /users/{eventid}/events`): their registrations that are not
   * cancelled, in the order the users were asked for, each user once.
   */
  async registrationsOfUsers(
    ctx: AcademyContext,
    id: number,
    userIds: number[],
  ): Promise<{ event: EventRow; registrations: RegistrationRow[] }> {
    if (userIds.length > USER_EVENTS_MAX_USERS) {
      throw new FieldValidationError([
        err('userIds', 'too_many', `At most ${USER_EVENTS_MAX_USERS} user ids per request.`),
      ]);
    }
    const event = await this.repo.findAnyKind(ctx.academyId, id);
    if (!event) throw new NotFoundError('event', String(id));
    const wanted = [...new Set(userIds)];
    const rows = new Map((await this.repo.activeRegistrationsOf(event.id, wanted)).map((r) => [r.user_id, r]));
    return { event, registrations: wanted.flatMap((u) => rows.get(u) ?? []) };
  }

  /**
   * Registers users. Approval follows autoApproved; beyond maxAttendees users
   * go to the waiting list when blockReservations is on, else the request is
   * refused. canMulti applies across a bundle's offers: `no` allows one offer
   * per user, `all` registers the user to every offer of the bundle.
   */
  async register(ctx: AcademyContext, kind: Kind, id: number, userIds: number[]): Promise<RegistrationRow[]> {
    return this.work.run(async ({ events: repo }) => {
      const event = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!event) throw new NotFoundError('event', String(id));
      const [view] = await this.viewsWith(repo, ctx.academyId, [event]);
      const v = view as EventView;
      if (event.canceled === 1) throw new ConflictError('The event is canceled; registration is closed.');
      const closesAt = v.start - event.registration_deadline * 3_600_000;
      if (v.now >= closesAt) {
        throw new ConflictError(
          `Registration closed at ${new Date(closesAt).toISOString()} (${event.registration_deadline} hours before the event).`,
        );
      }
      const known = await repo.existingUserIds(ctx.academyId, userIds);
      const unknown = userIds.flatMap((u, i) =>
        known.has(u) ? [] : [err(`userIds.${i}`, 'not_found', 'No academy user has this id.')],
      );
      if (unknown.length) throw new FieldValidationError(unknown);

      const bundleIds = event.bundle_id !== null ? await repo.bundleIds(event.bundle_id) : [event.id];
      const targets = event.bundle_id !== null && event.can_multi === 'all' ? bundleIds : [event.id];
      for (const userId of userIds) {
        if (event.can_multi === 'no') {
          const elsewhere = (await repo.activeRegistrationsOn(bundleIds, userId)).find((r) => r.event_id !== event.id);
          if (elsewhere) {
            throw new ConflictError(
              `User ${userId} is already registered to offer ${elsewhere.event_id} of this bundle, which allows one offer per user (canMulti no).`,
            );
          }
        }
        for (const target of targets) await this.registerOne(repo, target, userId);
      }
      const out: RegistrationRow[] = [];
      for (const userId of userIds) {
        const r = await repo.registration(event.id, userId);
        if (r) out.push(r);
      }
      return out;
    });
  }

  private async registerOne(repo: EventsRepository, eventId: number, userId: number): Promise<void> {
    const existing = await repo.registration(eventId, userId);
    if (existing && existing.state !== 'cancelled') return;
    const row = (await repo.findById(eventId)) as EventRow;
    const counters = (await repo.counters([eventId])).get(eventId) ?? ZERO_COUNTERS;
    let state: RegistrationRow['state'] = 'registered';
    if (counters.registered >= row.max_attendees) {
      if (row.block_reservations !== 1) {
        throw new ConflictError(`Event ${eventId} is full (${row.max_attendees} seats) and its waiting list is off.`);
      }
      state = 'waitlisted';
    }
    const at = this.clock.now();
    await repo.upsertRegistration({
      event_id: eventId,
      user_id: userId,
      approval: row.auto_approved === 1 && state === 'registered' ? 'Yes' : 'Pending',
      state,
      attendance_minutes: existing?.attendance_minutes ?? 0,
      registered_at: at,
      completed_at: null,
      updated_at: at,
    });
  }

  /** Approve, cancel, or mark absent or completed; record the attendance time. */
  async updateRegistration(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    userId: number,
    body: RegistrationUpdateBody,
  ): Promise<RegistrationRow> {
    return this.work.run(async ({ events: repo }) => {
      const event = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!event) throw new NotFoundError('event', String(id));
      const reg = await repo.registration(id, userId);
      if (!reg) throw new NotFoundError('registration of user', String(userId));
      const at = this.clock.now();
      const changes: Partial<RegistrationRow> = { updated_at: at };
      const wasSeated = (SEATED as readonly string[]).includes(reg.state);
      switch (body.status) {
        case 'approved':
          if (reg.state === 'cancelled')
            throw new ConflictError('A cancelled registration cannot be approved; register the user again.');
          changes.approval = 'Yes';
          break;
        case 'cancelled':
          changes.state = 'cancelled';
          break;
        case 'absent':
          if (reg.state === 'cancelled' || reg.state === 'waitlisted')
            throw new ConflictError(`A ${reg.state} registration cannot be marked absent.`);
          changes.state = 'absent';
          break;
        case 'completed':
          if (reg.state === 'cancelled' || reg.state === 'waitlisted')
            throw new ConflictError(`A ${reg.state} registration cannot be completed.`);
          changes.state = 'completed';
          changes.approval = 'Yes';
          changes.completed_at = at;
          break;
      }
      if (body.timeSpentInMinutes !== undefined) changes.attendance_minutes = body.timeSpentInMinutes;
      await repo.updateRegistration(id, userId, changes);
      // A freed seat goes to the first user on the waiting list.
      if (changes.state === 'cancelled' && wasSeated) {
        const next = await repo.firstWaitlisted(id);
        if (next) {
          await repo.updateRegistration(id, next.user_id, {
            state: 'registered',
            approval: event.auto_approved === 1 ? 'Yes' : 'Pending',
            updated_at: at,
          });
        }
      }
      return (await repo.registration(id, userId)) as RegistrationRow;
    });
  }
}
