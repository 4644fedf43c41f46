/**
 * The one place that reads and writes the HR API's ISO 8601 forms:
 *
 *   date                    YYYY-MM-DD
 *   datetime                YYYY-MM-DDThh:mi:ss±hh:mi   (Z accepted for +00:00)
 *   datetime with fraction  YYYY-MM-DDThh:mi:ss,fff±hh:mi (',' or '.')
 *
 * Instants are carried internally as epoch milliseconds (UTC).
 */

import { AsyncLocalStorage } from 'node:async_hooks';

/** One day in milliseconds (24 hours: calendar days across daylight saving are the zone helpers' business). */
export const DAY_MS = 86_400_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of a UTC wall time; unlike Date.UTC, years 0–99 are taken literally. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utc(year, month + 1, 0)).getUTCDate();
}

function validDate(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** A calendar date without time or zone. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Parses `YYYY-MM-DD`; returns undefined when the text is not a real calendar date. */
export function parseDate(text: string): CalendarDate | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return validDate(year, month, day) ? { year, month, day } : undefined;
}

/** Parses either datetime form; returns epoch milliseconds, or undefined when invalid. */
export function parseDateTime(text: string): number | undefined {
  const m = DATETIME_RE.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  let offsetMinutes = 0;
  const zone = m[8] as string;
  if (zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return utc(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}

/**
 * Parses a filter value that may be a date or a datetime (the reference types
 * some filters as dates but describes them as datetimes). A date means its
 * start, 00:00:00 UTC.
 */
export function parseDateOrDateTime(text: string): number | undefined {
  const d = parseDate(text);
  if (d) return utc(d.year, d.month, d.day);
  return parseDateTime(text);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Formats an instant as `YYYY-MM-DDThh:mi:ss±hh:mi`, in UTC (`+00:00`). */
export function formatDateTime(epochMs: number): string {
  const d = new Date(epochMs);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+00:00`
  );
}

/** Formats an instant for people, in UTC: `YYYY-MM-DD hh:mi:ss UTC` (stamped PDFs, the signing page). */
export function formatUtcStamp(epochMs: number): string {
  return `${formatDateTime(epochMs).slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A calendar date moved forward by years and months (the day kept, or the month's last day when the month is
 * shorter: 2024-01-31 plus one month is 2024-02-29), then by days. Past 9999-12-31, which `YYYY-MM-DD` cannot
 * write, it stays at 9999-12-31.
 */
export function addToDate(
  date: CalendarDate,
  by: { years?: number | undefined; months?: number | undefined; days?: number | undefined },
): CalendarDate {
  const monthIndex = date.year * 12 + (date.month - 1) + (by.years ?? 0) * 12 + (by.months ?? 0);
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  const day = Math.min(date.day, daysInMonth(year, month));
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day + (by.days ?? 0));
  if (at.getUTCFullYear() > 9999) return { year: 9999, month: 12, day: 31 };
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
}

/** Formats a calendar date as `YYYY-MM-DD`. */
export function formatDate(date: CalendarDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/**
 * A tenant's own time (the admin API's clock control): an offset from the installation's clock, or an instant it
 * stands still at. `frozenAt` wins over `offsetMs`.
 */
export interface TenantTime {
  offsetMs: number;
  frozenAt: number | null;
}

/** The tenant a piece of work is done for, and the clock it reads: one per request, once it is authenticated. */
interface TimeScope {
  clock: Clock;
  tenant: string;
}

const timeScope = new AsyncLocalStorage<TimeScope>();

/**
 * The installation's wall clock, whatever tenant's work this is: for what belongs to no tenant (the age of a
 * staged file, a process's own timers). The one read of `Date.now()` outside this module's `Clock`.
 */
export function wallClock(): number {
  return Date.now();
}

/**
 * The one clock of Atrium: every time-derived state reads it (docs/admin.md, "Clock"). It is the installation's
 * clock (the wall clock, which tests may move with `set`), and per tenant (`hr:<client_id>`, `academy:<acadId>`)
 * the time the admin API set for that tenant. Inside a tenant's request or job (`runAs`) `now()` answers that
 * tenant's time; a tenant whose clock nobody moved reads the installation's. Services are handed it and read it.
 */
export class Clock {
  private offsetMs = 0;
  private tenants = new Map<string, TenantTime>();

  now(): number {
    const scope = timeScope.getStore();
    return scope?.clock === this ? this.nowOf(scope.tenant) : this.wall();
  }

  /** The installation's time, whatever tenant's request this is. */
  wall(): number {
    return wallClock() + this.offsetMs;
  }

  /** A tenant's time. */
  nowOf(tenant: string): number {
    const time = this.tenants.get(tenant);
    if (!time) return this.wall();
    return time.frozenAt ?? this.wall() + time.offsetMs;
  }

  /** A tenant's clock setting, if it is moved or frozen. */
  timeOf(tenant: string): TenantTime | undefined {
    return this.tenants.get(tenant);
  }

  /** Sets (or, with undefined, resets) one tenant's time in this process. */
  setTenant(tenant: string, time: TenantTime | undefined): void {
    if (time) this.tenants.set(tenant, time);
    else this.tenants.delete(tenant);
  }

  /** Replaces every tenant's time (what another process set, read back from the database). */
  replaceTenants(times: ReadonlyMap<string, TenantTime>): void {
    this.tenants = new Map(times);
  }

  /** Runs `fn` as work of `tenant`: this clock's `now()` answers that tenant's time inside it. */
  runAs<T>(tenant: string, fn: () => T): T {
    return timeScope.run({ clock: this, tenant }, fn);
  }

  /** The tenant whose time this clock's `now()` answers here, if any. */
  currentTenant(): string | undefined {
    const scope = timeScope.getStore();
    return scope?.clock === this ? scope.tenant : undefined;
  }

  /** Makes this clock's `now()` answer `epochMs` from this moment on (time keeps flowing from there). */
  set(epochMs: number): void {
    this.offsetMs = epochMs - wallClock();
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

/** The UTC calendar day of an instant, as `YYYY-MM-DD`. */
export function dayOf(epochMs: number): string {
  return formatDateTime(epochMs).slice(0, 10);
}
