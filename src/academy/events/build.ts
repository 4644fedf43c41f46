/**
 * An event's body checked against every create and edit rule (timezone, sessions, place, connection, category,
 * instructors, visibility), every refusal gathered into one validation error, and the row it becomes.
 */
import { type FieldError, FieldValidationError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { ZoneRule } from '../../platform/timezones.js';
import type { AcademyContext } from '../academies/service.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import type { EventRecord, EventsRepository, InstructorRecord, NewEventRecord } from './repository.js';
import type { Day, EventBody, Kind } from './schemas.js';
import { isoDate, minutesOf, parseUsDate, type StoredSession, spanOf, timeSessions } from './sessions.js';
import { err } from './shared.js';

type Body = EventBody & Record<string, unknown>;

/** The row an event body becomes (the caller adds its academy, kind and creation time), and its instructors. */
export interface BuiltEvent {
  row: Omit<NewEventRecord, 'createdAt' | 'academyId' | 'kind'>;
  instructors: Pick<InstructorRecord, 'userId' | 'isPrimary'>[];
}

/** The event's body as a row, with `existing` on edit; every broken rule is reported at once. */
export async function buildEvent(
  repo: EventsRepository,
  timezones: TimezoneRegistry,
  clock: Clock,
  ctx: AcademyContext,
  kind: Kind,
  body: Body,
  existing?: EventRecord,
): Promise<BuiltEvent> {
  const errors: FieldError[] = [];
  const { timezoneId, timeOffset } = readZone(timezones, body, errors);
  const sessions = readSessions(kind, body, errors);
  const place = await readPlace(repo, ctx, kind, body, errors);
  const connection = await readConnection(repo, ctx, body, existing, errors);
  const categoryId = await readCategory(repo, ctx, body, connection, errors);
  const instructors = await readInstructors(repo, ctx, body, errors);

  // Visibility: a visible event stays visible.
  let visible = body.visible ?? existing?.visible ?? false;
  if (existing?.visible === true && body.visible === false) {
    errors.push(err('visible', 'invalid_transition', 'A visible event cannot be made invisible.'));
    visible = true;
  }

  if (errors.length) throw new FieldValidationError(errors);

  const rule: ZoneRule =
    timezoneId !== null
      ? { zone: timezones.zone(timezoneId) as string }
      : { offsetMinutes: Math.round((timeOffset ?? 0) * 60) };
  const { start, end } = spanOf(timeSessions(sessions, rule));
  const at = clock.now();
  return {
    row: {
      title: body.title,
      description: body.description,
      bundleTitle: body.bundleTitle ?? null,
      picture: existing?.picture ?? null,
      timeOffset,
      timezoneId,
      registrationDeadline: body.registrationDeadline,
      based: connection.based,
      autoApproved: body.autoApproved === true,
      maxAttendees: body.attendees ?? 20,
      blockReservations: body.blockReservations === true,
      visible,
      categoryId,
      courseId: connection.courseId,
      curriculumId: connection.curriculumId,
      partOfCourse: body.partOfCourse === true,
      partOfCurriculum: body.partOfCurriculum === true,
      customCalMessage: body.customCalMessage ?? null,
      autoArchive: body.autoArchive === true,
      passingScore: kind === 'ilt' ? (body.passingScore ?? 0) : 0,
      completionPercentage: kind === 'vc' ? (body.completionPercentage ?? 80) : 0,
      venueId: place.venueId,
      venueSeats: place.venueSeats,
      location: place.location,
      latitude: place.latitude,
      longitude: place.longitude,
      canceled: existing?.canceled ?? false,
      sessions,
      // Omitted on edit: the list is cleared (edit rule 1).
      externalInstructors: (body.externalInstructors ?? []).map((e) => e.name),
      bundleId: existing?.bundleId ?? null,
      canMulti: existing?.canMulti ?? null,
      mustRetake: existing?.mustRetake ?? false,
      retakeEvery: existing?.retakeEvery ?? 0,
      startAt: start,
      endAt: end,
      updatedAt: at,
    },
    instructors,
  };
}

/** Timezone: timezoneId wins over timeOffset. */
function readZone(
  timezones: TimezoneRegistry,
  body: Body,
  errors: FieldError[],
): { timezoneId: number | null; timeOffset: number | null } {
  let timezoneId: number | null = null;
  let timeOffset: number | null = null;
  if (body.timezoneId !== undefined) {
    if (timezones.zone(body.timezoneId)) timezoneId = body.timezoneId;
    else errors.push(err('timezoneId', 'not_found', 'No timezone has this id (GET /content/timezones).'));
  } else if (body.timeOffset !== undefined) {
    timeOffset = body.timeOffset;
  } else {
    errors.push(err('timeOffset', 'required', 'timeOffset or timezoneId is required.'));
  }
  return { timezoneId, timeOffset };
}

/** Sessions: in-class days (with segments) or virtual classroom sessions (without). */
function readSessions(kind: Kind, body: Body, errors: FieldError[]): StoredSession[] {
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
  return sessions;
}

interface Place {
  venueId: number | null;
  venueSeats: number | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** Place: in-class needs venue + venueSeats or location + marker; virtual classroom refuses them. */
async function readPlace(
  repo: EventsRepository,
  ctx: AcademyContext,
  kind: Kind,
  body: Body,
  errors: FieldError[],
): Promise<Place> {
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
    const venues = await repo.venues(ctx.academyId, [body.venue]);
    if (!venues.has(body.venue)) errors.push(err('venue', 'not_found', 'No venue has this id (GET /content/venues).'));
    if (body.venueSeats === undefined) errors.push(err('venueSeats', 'required', 'venueSeats is required with venue.'));
    venueId = body.venue;
    venueSeats = body.venueSeats ?? null;
  } else if (body.location !== undefined) {
    if (body.marker === undefined) errors.push(err('marker', 'required', 'marker is required with location.'));
    location = body.location;
    latitude = body.marker?.coords.latitude ?? null;
    longitude = body.marker?.coords.longitude ?? null;
  } else {
    errors.push(err('venue', 'required', 'An in-class event needs venue (with venueSeats) or location (with marker).'));
  }
  return { venueId, venueSeats, location, latitude, longitude };
}

interface Connection {
  based: number;
  courseId: number | null;
  curriculumId: number | null;
  courseCategories: number[] | undefined;
  curriculumCategory: number | null | undefined;
}

/** Connection: fixed at creation; the course wins over the learning path. */
async function readConnection(
  repo: EventsRepository,
  ctx: AcademyContext,
  body: Body,
  existing: EventRecord | undefined,
  errors: FieldError[],
): Promise<Connection> {
  let based: number;
  let courseId: number | null;
  let curriculumId: number | null;
  if (existing) {
    based = existing.based;
    courseId = existing.courseId;
    curriculumId = existing.curriculumId;
    if (body.based !== undefined && body.based !== existing.based)
      errors.push(err('based', 'immutable', 'based cannot change after creation.'));
    if (body.courseId !== undefined && body.courseId !== (existing.courseId ?? 0)) {
      errors.push(err('courseId', 'immutable', 'courseId cannot change after creation.'));
    }
    // As at creation, a course in the body wins: a curriculumId sent with it (the create body repeated, for
    // an event the course won) is ignored rather than read as a change.
    const courseInBody = body.courseId !== undefined && body.courseId !== 0;
    if (!courseInBody && body.curriculumId !== undefined && body.curriculumId !== (existing.curriculumId ?? 0)) {
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
    courseCategories = await repo.courseCategories(ctx.academyId, courseId);
    if (!courseCategories && !existing) errors.push(err('courseId', 'not_found', 'No course has this id.'));
  } else if (curriculumId !== null) {
    const found = await repo.curriculumCategory(ctx.academyId, curriculumId);
    curriculumCategory = found?.categoryId;
    if (!found && !existing) errors.push(err('curriculumId', 'not_found', 'No learning path has this id.'));
  }
  if ((courseId !== null || curriculumId !== null) && based !== 2 && !existing) {
    errors.push(
      err('based', 'invalid_choice', 'Course- or learning-path-connected events must be registration-based (2).'),
    );
  }
  return { based, courseId, curriculumId, courseCategories, curriculumCategory };
}

/** Category, by connection. */
async function readCategory(
  repo: EventsRepository,
  ctx: AcademyContext,
  body: Body,
  { courseId, curriculumId, courseCategories, curriculumCategory }: Connection,
  errors: FieldError[],
): Promise<number | null> {
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
    if (await repo.category(ctx.academyId, body.categoryId)) categoryId = body.categoryId;
    else errors.push(err('categoryId', 'not_found', 'No academy category has this id (GET /content/categories).'));
  }
  return categoryId;
}

/** Instructors: omitted means the super administrator as primary. */
async function readInstructors(
  repo: EventsRepository,
  ctx: AcademyContext,
  body: Body,
  errors: FieldError[],
): Promise<BuiltEvent['instructors']> {
  let instructors: BuiltEvent['instructors'] = [{ userId: ctx.superAdminId, isPrimary: true }];
  if (body.schooxInstructors !== undefined) {
    const given = body.schooxInstructors;
    if (given.filter((i) => i.isPrimary === true).length > 1) {
      errors.push(err('schooxInstructors', 'too_many_primary', 'At most one instructor can be primary.'));
    }
    const known = await repo.existingUserIds(
      ctx.academyId,
      given.map((i) => i.id),
    );
    const seen = new Set<number>();
    given.forEach((i, n) => {
      if (!known.has(i.id)) errors.push(err(`schooxInstructors.${n}.id`, 'not_found', 'No academy user has this id.'));
      if (seen.has(i.id))
        errors.push(err(`schooxInstructors.${n}.id`, 'duplicate', 'This instructor is listed twice.'));
      seen.add(i.id);
    });
    instructors = [...given]
      .sort((a, b) => Number(b.isPrimary === true) - Number(a.isPrimary === true))
      .map((i) => ({ userId: i.id, isPrimary: i.isPrimary === true }));
  }
  return instructors;
}
