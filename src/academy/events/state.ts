/**
 * An event's state at an instant, derived on read from its sessions, the clock and its registrations (times, state
 * flags, counters, names), and the views the events services build from it: a list item's, an event read whole.
 */

import type { AcademyTenantId } from '../../platform/db/tenant.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { ZoneRule } from '../../platform/timezones.js';
import type { AcademyContext } from '../academies/service.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import {
  type Counters,
  type EventRecord,
  type EventsRepository,
  type InstructorRecord,
  type ListedEventRecord,
  type VenuePlace,
  type VenueRecord,
  ZERO_COUNTERS,
} from './repository.js';
import type { Kind } from './schemas.js';
import { spanOf, type TimedSession, timeSessions } from './sessions.js';

export type StatusLabel = 'Upcoming' | 'In Progress' | 'Completed' | 'Canceled';

/**
 * Everything derived about one event at one instant that a list item shows: times, state flags, counters, names.
 * `R` is the row as read: a list's {@link ListedEventRecord}, or the whole {@link EventRecord}.
 */
export interface EventState<R extends ListedEventRecord = ListedEventRecord> {
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
export interface EventView extends EventState<EventRecord> {
  instructors: InstructorRecord[];
  venue: VenueRecord | undefined;
}

export function zoneRule(timezones: TimezoneRegistry, row: Pick<EventRecord, 'timezoneId' | 'timeOffset'>): ZoneRule {
  const zone = row.timezoneId !== null ? timezones.zone(row.timezoneId) : undefined;
  return zone ? { zone } : { offsetMinutes: Math.round((row.timeOffset ?? 0) * 60) };
}

/** The views of `rows`, read through `repo` (inside a write, the unit of work's). */
export async function viewsWith(
  repo: EventsRepository,
  timezones: TimezoneRegistry,
  clock: Clock,
  academyId: AcademyTenantId,
  rows: EventRecord[],
): Promise<EventView[]> {
  const ids = rows.map((r) => r.id);
  const now = clock.now();
  const [counters, instructors, categories, venues] = await Promise.all([
    repo.counters(ids),
    repo.instructors(ids),
    repo.categoryNames(academyId, [...new Set(rows.map((r) => r.categoryId).filter((c): c is number => c !== null))]),
    repo.venues(academyId, [...new Set(rows.map((r) => r.venueId).filter((v): v is number => v !== null))]),
  ]);
  return rows.map((row) => ({
    ...stateOf(
      timezones,
      row,
      counters.get(row.id) ?? ZERO_COUNTERS,
      row.categoryId !== null ? categories.get(row.categoryId) : undefined,
      row.venueId !== null ? venues.get(row.venueId) : undefined,
      now,
    ),
    instructors: instructors.get(row.id) ?? [],
  }));
}

/**
 * An event's times, state flags and seats at `now`, from its row, counters and names. Built as one literal: a
 * list makes one per item, and spreading it into another object cost a page about 4% of its CPU.
 */
export function stateOf<R extends ListedEventRecord, V extends VenuePlace>(
  timezones: TimezoneRegistry,
  row: R,
  counters: Counters,
  categoryName: string | undefined,
  venue: V | undefined,
  now: number,
): EventState<R> & { venue: V | undefined } {
  const rule = zoneRule(timezones, row);
  const sessions = timeSessions(row.sessions, rule);
  const { start, end, durationMinutes } = spanOf(sessions);
  const completed = now >= end;
  const inProgress = !completed && now >= start;
  const canceled = row.canceled;
  const archived = !canceled && row.autoArchive && completed;
  const seatsAvailable = Math.max(0, row.maxAttendees - counters.registered);
  let timezoneLabel: string;
  if ('zone' in rule && row.timezoneId !== null) {
    timezoneLabel = timezones.describe(row.timezoneId, now)?.label ?? rule.zone;
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

/** The event's row, or not found. */
export async function loadEvent(
  repo: EventsRepository,
  ctx: AcademyContext,
  kind: Kind,
  id: number,
): Promise<EventRecord> {
  const row = await repo.find(ctx.academyId, kind, id);
  if (!row) throw new NotFoundError('event', String(id));
  return row;
}

/** One event's view, read in one statement (the GET's path; writes build theirs with `viewsWith`). */
export async function readView(
  repo: EventsRepository,
  timezones: TimezoneRegistry,
  clock: Clock,
  ctx: AcademyContext,
  kind: Kind,
  id: number,
): Promise<EventView> {
  const found = await repo.findView(ctx.academyId, kind, id);
  if (!found) throw new NotFoundError('event', String(id));
  return {
    ...stateOf(timezones, found.row, found.counters, found.categoryName, found.venue, clock.now()),
    instructors: found.instructors,
  };
}
