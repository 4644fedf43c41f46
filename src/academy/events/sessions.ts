import { epochToLocal, localToEpoch, type ZoneRule } from '../../platform/timezones.js';
import type { Time } from './schemas.js';

/**
 * Sessions as stored (local dates and minutes from midnight, the only source
 * of an event's times) and everything derived from them: instants in the
 * event's zone, the event's start, end and duration, and the spec's text forms.
 */

export interface StoredSegment {
  title: string;
  date: string;
  from: number;
  to: number;
}

export interface StoredSession {
  topic: string;
  /** Local date, YYYY-MM-DD. */
  date: string;
  /** Minutes from local midnight. */
  from: number;
  to: number;
  segments?: StoredSegment[];
}

export interface Timed {
  start: number;
  end: number;
}

export interface TimedSession extends StoredSession, Timed {
  timedSegments: (StoredSegment & Timed)[];
}

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export function minutesOf(t: Time): number {
  return ((t.hours % 12) + (t.meridian === 'PM' ? 12 : 0)) * 60 + t.minutes;
}

/** `MM/DD/YYYY` → a real calendar date, or undefined. */
export function parseUsDate(text: string): LocalDate | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return undefined;
  const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  if (year < 1970 || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function isoDate(d: LocalDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

export function readIsoDate(text: string): LocalDate {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  return { year: y, month: m, day: d };
}

/** YYYY-MM-DD → MM/DD/YYYY. */
export function usDate(iso: string): string {
  const d = readIsoDate(iso);
  return `${pad(d.month)}/${pad(d.day)}/${pad(d.year, 4)}`;
}

/** Minutes from midnight → `hh:mm AM`. */
export function clockText(minutes: number): string {
  const h24 = Math.floor(minutes / 60) % 24;
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  return `${pad(h12)}:${pad(minutes % 60)} ${h24 < 12 ? 'AM' : 'PM'}`;
}

function addDays(iso: string, days: number): string {
  const d = readIsoDate(iso);
  const t = new Date(0);
  t.setUTCFullYear(d.year, d.month - 1, d.day + days);
  return isoDate({ year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() });
}

function dayNumber(iso: string): number {
  const d = readIsoDate(iso);
  const t = new Date(0);
  t.setUTCFullYear(d.year, d.month - 1, d.day);
  return Math.round(t.getTime() / 86_400_000);
}

function instant(rule: ZoneRule, iso: string, minutes: number): number {
  const d = readIsoDate(iso);
  return localToEpoch(rule, d.year, d.month, d.day, minutes);
}

/** The sessions with their instants. Written out field by field: spreading each one cost a list page about 5%. */
export function timeSessions(sessions: StoredSession[], rule: ZoneRule): TimedSession[] {
  return sessions.map((s) => {
    const timed: TimedSession = {
      topic: s.topic,
      date: s.date,
      from: s.from,
      to: s.to,
      start: instant(rule, s.date, s.from),
      end: instant(rule, s.date, s.to),
      timedSegments: (s.segments ?? []).map((g) => ({
        title: g.title,
        date: g.date,
        from: g.from,
        to: g.to,
        start: instant(rule, g.date, g.from),
        end: instant(rule, g.date, g.to),
      })),
    };
    if (s.segments !== undefined) timed.segments = s.segments;
    return timed;
  });
}

/** Start, end and duration (sum of the sessions, in minutes) of an event. */
export function spanOf(timed: Timed[]): { start: number; end: number; durationMinutes: number } {
  const start = Math.min(...timed.map((t) => t.start));
  const end = Math.max(...timed.map((t) => t.end));
  const durationMinutes = Math.round(timed.reduce((sum, t) => sum + (t.end - t.start), 0) / 60_000);
  return { start, end, durationMinutes };
}

/** The earliest local date of the sessions (YYYY-MM-DD strings sort as dates). */
export function earliestDate(sessions: StoredSession[]): string | undefined {
  return sessions.map((s) => s.date).sort()[0];
}

/** The same sessions moved so the first one falls on `firstDate`, keeping their times and spacing. */
export function shiftSessions(sessions: StoredSession[], firstDate: string): StoredSession[] {
  const origin = earliestDate(sessions) ?? firstDate;
  const delta = dayNumber(firstDate) - dayNumber(origin);
  return sessions.map((s) => ({
    ...s,
    date: addDays(s.date, delta),
    ...(s.segments ? { segments: s.segments.map((g) => ({ ...g, date: addDays(g.date, delta) })) } : {}),
  }));
}

/** `YYYY-MM-DD hh:mm:ss` of an instant in a zone (or UTC). */
export function wallText(rule: ZoneRule, epochMs: number): string {
  const l = epochToLocal(rule, epochMs);
  return `${pad(l.year, 4)}-${pad(l.month)}-${pad(l.day)} ${pad(l.hour)}:${pad(l.minute)}:${pad(l.second)}`;
}
