import { epochToLocal, formatOffset, zoneAbbreviation } from '../../platform/timezones.js';
import type { ParticipantRecord, RegistrationRecord } from './registrations-repository.js';
import type { ParticipantsResult } from './registrations-service.js';
import type { PersonRecord } from './repository.js';
import type {
  AttendanceResponse,
  EventDetail,
  EventListItem,
  Kind,
  ParticipantsResponse,
  RegistrationOut,
  SessionOut,
  UserEventRegistration,
} from './schemas.js';
import { clockText, isoDate, type TimedSession, usDate, wallText } from './sessions.js';
import type { EventState, EventView } from './state.js';

/** The spec's text forms of an event's times and the shapes of its responses. */

const UTC = { offsetMinutes: 0 };
const flag = (b: boolean) => (b ? 1 : 0);

function localText(view: EventState, at: number): string {
  return `${wallText(view.rule, at)} ${zoneAbbreviation(view.rule, at)}`;
}

function utcText(at: number): string {
  return `${wallText(UTC, at)} UTC`;
}

/** ISO 8601 with the event's offset at that instant, e.g. 2021-04-19T09:00:00+03:00. */
export function isoWithOffset(view: EventView, at: number): string {
  const l = epochToLocal(view.rule, at);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(l.year, 4)}-${p(l.month)}-${p(l.day)}T${p(l.hour)}:${p(l.minute)}:${p(l.second)}${formatOffset(l.offsetMinutes)}`;
}

function state(now: number, start: number, end: number) {
  return { upcoming: flag(now < start), inProgress: flag(now >= start && now < end), completed: flag(now >= end) };
}

/**
 * The wall-clock time of a session's instant in the event's zone. A time the zone skips (03:30 on a spring-forward
 * night, when clocks jump from 03:00 to 04:00) is the instant an hour later, 04:30, and reads so here as in the
 * list's local dates and the timestamps: one resolution everywhere (docs/academy-api.md, "Zones").
 */
function wall(view: EventView, date: string, minutes: number, epochMs: number): string {
  const local = epochToLocal(view.rule, epochMs);
  return clockText(isoDate(local) === date ? local.hour * 60 + local.minute : minutes);
}

function session(view: EventView, s: TimedSession, kind: Kind): SessionOut {
  const out: SessionOut = {
    topic: s.topic,
    date: usDate(s.date),
    dateUTC: `${wallText(UTC, s.start).slice(0, 10)}T00:00:00Z`,
    from: wall(view, s.date, s.from, s.start),
    to: wall(view, s.date, s.to, s.end),
    fromTimestamp: Math.floor(s.start / 1000),
    toTimestamp: Math.floor(s.end / 1000),
    ...state(view.now, s.start, s.end),
  };
  if (kind === 'ilt') {
    out.segments = s.timedSegments.map((g) => ({
      title: g.title,
      from: wall(view, g.date, g.from, g.start),
      to: wall(view, g.date, g.to, g.end),
      fromTimestamp: Math.floor(g.start / 1000),
      toTimestamp: Math.floor(g.end / 1000),
      ...state(view.now, g.start, g.end),
    }));
  }
  return out;
}

/** Where an in-class event takes place: its venue's, or else its own location. */
function place(view: EventState): { location: string; address: string; city: string } {
  const { row, venue } = view;
  return {
    location: venue?.name ?? row.location ?? '',
    address: venue?.address ?? row.location ?? '',
    city: venue?.city ?? '',
  };
}

/** The detail's `coordinates`: the venue's position, or else the event's own marker. */
function coordinates(view: EventView): string {
  const { row, venue } = view;
  const lat = venue ? venue.latitude : row.latitude;
  const lng = venue ? venue.longitude : row.longitude;
  return JSON.stringify({
    latitude: lat === null ? '' : String(lat),
    longitude: lng === null ? '' : String(lng),
  });
}

const CAN_MULTI_TEXT: Record<string, string> = {
  none: 'Single event: not a bundle of offers.',
  no: 'Users may attend only one offer of this bundle.',
  yes: 'Users may attend several offers of this bundle.',
  all: 'Users must attend all offers of this bundle.',
};

function offsetHours(view: EventState): number {
  return epochToLocal(view.rule, view.start).offsetMinutes / 60;
}

/**
 * The detail's `timeOffset`, typed "integer or string" by the spec: whole hours as an integer (`2`), any other
 * offset as a signed `±hh:mm` string (`+05:30`, `-03:30`), never a fraction (docs/academy-api.md).
 */
export function detailOffset(view: EventView): number | string {
  const minutes = epochToLocal(view.rule, view.start).offsetMinutes;
  return minutes % 60 === 0 ? minutes / 60 : formatOffset(minutes);
}

export function eventDetail(view: EventView): EventDetail {
  const { row, counters } = view;
  const kind = row.kind;
  const hasCategory = row.categoryId !== null;
  const detail: EventDetail = {
    id: row.id,
    picture: row.picture ?? '',
    status: view.status,
    categoryIds: [row.categoryId ?? -1],
    categoryId: row.categoryId ?? -1,
    category: hasCategory ? (view.categoryName ?? '') : 'Without Category',
    visible: row.visible,
    active: view.active,
    archived: view.archived,
    deleted: false,
    canceled: row.canceled,
    upcoming: view.upcoming,
    inProgress: view.inProgress,
    completed: view.completed,
    eventStartDate: utcText(view.start),
    eventEndDate: utcText(view.end),
    durationMinutes: view.durationMinutes,
    title: row.title,
    bundleTitle: row.bundleTitle ?? '',
    description: row.description,
    timeOffset: detailOffset(view),
    timezoneId: row.timezoneId ?? 0,
    timezone: view.timezoneLabel,
    registrationDeadline: row.registrationDeadline,
    sessions: view.sessions.map((s) => session(view, s, kind)),
    registrationBased: row.based === 2,
    // `based` is 1 (by invitation) or 2 (by registration), a code rather than a 0/1 flag.
    invitationBased: row.based !== 2,
    autoApproved: row.autoApproved,
    canMulti: row.canMulti === 'yes' || row.canMulti === 'all' ? 1 : 0,
    canMultiReadable: CAN_MULTI_TEXT[row.canMulti ?? 'none'] as string,
    retakeEvery: row.mustRetake ? row.retakeEvery : 0,
    maxAttendees: row.maxAttendees,
    seatsAvailable: view.seatsAvailable,
    maxed: view.maxed,
    blockReservations: row.blockReservations,
    autoArchive: row.autoArchive,
    courseConnected: row.courseId ?? 0,
    curriculumConnected: row.curriculumId ?? 0,
    partOfCourse: row.partOfCourse,
    partOfCurriculum: row.partOfCurriculum,
    externalInstructors: row.externalInstructors,
    schooxInstructors: view.instructors.map((i) => String(i.userId)),
    attendeesYes: counters.attendeesYes,
    attendeesPending: counters.attendeesPending,
    registered: counters.registered,
    cancelled: counters.cancelled,
    waitlisted: counters.waitlisted,
    customCalMessage: row.customCalMessage ?? '',
  };
  if (kind === 'ilt') {
    const p = place(view);
    Object.assign(detail, {
      passingScore: row.passingScore,
      venueId: row.venueId ?? 0,
      coordinates: coordinates(view),
      address: p.address,
      city: p.city,
      location: p.location,
    });
  } else {
    Object.assign(detail, {
      completionPercentage: row.completionPercentage,
      clientActivation: false,
      clientSessions: '',
    });
  }
  return detail;
}

export function eventListItem(view: EventState): EventListItem {
  const { row, counters } = view;
  const item: EventListItem = {
    id: row.id,
    title: row.title,
    description: row.description,
    attendeesNr: counters.registered,
    status: view.status,
    local_start_date: localText(view, view.start),
    local_end_date: localText(view, view.end),
    event_start_date: utcText(view.start),
    event_end_date: utcText(view.end),
    timezone: view.timezoneLabel,
    duration: view.durationMinutes,
    attendees_yes: counters.attendeesYes,
    attendees_pending: counters.attendeesPending,
    registered: counters.registered,
    completed: counters.completed,
    absent: counters.absent,
    cancelled: counters.cancelled,
    waitlisted: counters.waitlisted,
    available_seats: view.seatsAvailable,
    curriculum_connected: row.curriculumId ?? 0,
    course_connected: row.courseId ?? 0,
  };
  if (row.categoryId !== null) {
    item.categoryIds = [row.categoryId];
    item.category = view.categoryName ?? '';
  }
  if (row.timezoneId !== null) item.timezoneId = row.timezoneId;
  else item.timeOffset = offsetHours(view);
  if (row.kind === 'ilt') {
    const p = place(view);
    item.location = p.location;
    item.city = p.city;
  } else {
    item.attendance_duration = counters.attendanceMinutes;
  }
  return item;
}

function person(p: PersonRecord) {
  return { id: p.id, firstname: p.firstname, preferred_name: p.preferredName, lastname: p.lastname, email: p.email };
}

export function participants(result: ParticipantsResult, onlyCompleted: boolean): ParticipantsResponse {
  const { view } = result;
  return {
    title: view.row.title,
    start_date: isoWithOffset(view, view.start),
    end_date: isoWithOffset(view, view.end),
    users_count: result.total,
    instructors: result.instructors.map(person),
    users: result.users.map((u) => ({
      ...person(u),
      approved: u.approval === 'Yes' && u.state !== 'waitlisted' ? 'Yes' : 'No',
      ...(onlyCompleted && u.completedAt !== null ? { certificate_date: isoWithOffset(view, u.completedAt) } : {}),
    })),
  };
}

export function attendance(rows: ParticipantRecord[]): AttendanceResponse {
  return {
    usersAttendanceData: rows.map((r) => ({
      userId: r.id,
      firstname: r.firstname,
      preferred_name: r.preferredName,
      lastname: r.lastname,
      email: r.email,
      timeSpentInMinutes: r.attendanceMinutes,
    })),
  };
}

export function registration(r: RegistrationRecord): RegistrationOut {
  return {
    userId: r.userId,
    approved: r.approval === 'Yes' && r.state !== 'waitlisted' ? 'Yes' : 'No',
    state: r.state,
    timeSpentInMinutes: r.attendanceMinutes,
    certificate_date:
      r.completedAt !== null ? new Date(r.completedAt).toISOString().replace(/\.\d{3}Z$/, '+00:00') : null,
  };
}

export function userEventRegistration(event: { id: number; kind: Kind }, r: RegistrationRecord): UserEventRegistration {
  return { eventId: event.id, kind: event.kind, ...registration(r) };
}

function icsText(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/([,;])/g, '\\$1');
}

function icsTime(at: number): string {
  return new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** An iCalendar file of the event: one VEVENT per session; the description is customCalMessage. */
export function calendar(view: EventView, host: string): string {
  const { row } = view;
  const description = row.customCalMessage ?? row.description;
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Atrium//Academy events//EN', 'CALSCALE:GREGORIAN'];
  view.sessions.forEach((s, i) => {
    lines.push(
      'BEGIN:VEVENT',
      `UID:event-${row.id}-${i}@${host}`,
      `DTSTAMP:${icsTime(view.now)}`,
      `DTSTART:${icsTime(s.start)}`,
      `DTEND:${icsTime(s.end)}`,
      `SUMMARY:${icsText(s.topic ? `${row.title}: ${s.topic}` : row.title)}`,
      `DESCRIPTION:${icsText(description)}`,
      ...(row.kind === 'ilt' ? [`LOCATION:${icsText(place(view).location)}`] : []),
      'END:VEVENT',
    );
  });
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}
