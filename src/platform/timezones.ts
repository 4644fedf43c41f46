/**
 * Wall-clock arithmetic in IANA zones (with daylight-saving rules) and in
 * fixed offsets, on top of the zone database Node ships (Intl).
 */

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(zone: string): Intl.DateTimeFormat {
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormatters.set(zone, f);
  }
  return f;
}

/** True when Node knows the zone. */
export function isZone(zone: string): boolean {
  try {
    offsetFormatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** Offset of the zone from UTC at an instant, in minutes (east positive). */
export function zoneOffsetMinutes(zone: string, epochMs: number): number {
  const name = offsetFormatter(zone)
    .formatToParts(new Date(epochMs))
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** A place whose clock is either an IANA zone or a fixed offset in minutes. */
export type ZoneRule = { zone: string } | { offsetMinutes: number };

export function offsetAt(rule: ZoneRule, epochMs: number): number {
  return 'zone' in rule ? zoneOffsetMinutes(rule.zone, epochMs) : rule.offsetMinutes;
}

/**
 * The instant of a local wall time. In a DST gap (a local time that does not
 * exist) the time is read with the offset before the change, which moves it
 * forward; in an overlap the earlier instant is taken.
 */
export function localToEpoch(rule: ZoneRule, year: number, month: number, day: number, minutes: number): number {
  let asUtc: number;
  if (year >= 100) asUtc = Date.UTC(year, month - 1, day, 0, minutes);
  else {
    // Date.UTC reads years 0–99 as 1900–1999.
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    d.setUTCHours(0, minutes, 0, 0);
    asUtc = d.getTime();
  }
  if (!('zone' in rule)) return asUtc - rule.offsetMinutes * 60_000;
  const before = zoneOffsetMinutes(rule.zone, asUtc - 86_400_000);
  const after = zoneOffsetMinutes(rule.zone, asUtc + 86_400_000);
  const candidates = [...new Set([before, after])]
    .map((off) => asUtc - off * 60_000)
    .filter((t) => zoneOffsetMinutes(rule.zone, t) === Math.round((asUtc - t) / 60_000));
  if (candidates.length) return Math.min(...candidates);
  return asUtc - before * 60_000;
}

/** The local calendar date and time of an instant. */
export function epochToLocal(
  rule: ZoneRule,
  epochMs: number,
): { year: number; month: number; day: number; hour: number; minute: number; second: number; offsetMinutes: number } {
  const offsetMinutes = offsetAt(rule, epochMs);
  const d = new Date(epochMs + offsetMinutes * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    offsetMinutes,
  };
}

/** `+hh:mm` / `-hh:mm` for an offset in minutes. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const abbreviationCache = new Map<string, string>();
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-ZA', 'en-CA'];

/**
 * The zone's abbreviation at an instant (EEST, EDT, CET…) where one is in
 * common use, else `GMT+3`-style text. Fixed offsets give `GMT+2`, `GMT+5:30`.
 */
export function zoneAbbreviation(rule: ZoneRule, epochMs: number): string {
  const offset = offsetAt(rule, epochMs);
  const fallback =
    offset === 0
      ? 'UTC'
      : `GMT${offset < 0 ? '-' : '+'}${Math.floor(Math.abs(offset) / 60)}${Math.abs(offset) % 60 ? `:${String(Math.abs(offset) % 60).padStart(2, '0')}` : ''}`;
  if (!('zone' in rule)) return fallback;
  const key = `${rule.zone}|${offset}`;
  const cached = abbreviationCache.get(key);
  if (cached) return cached;
  let found = fallback;
  for (const locale of ABBREVIATION_LOCALES) {
    const name = new Intl.DateTimeFormat(locale, { timeZone: rule.zone, timeZoneName: 'short' })
      .formatToParts(new Date(epochMs))
      .find((p) => p.type === 'timeZoneName')?.value;
    if (name && !/^(GMT|UTC)[+-]/.test(name)) {
      found = name;
      break;
    }
  }
  abbreviationCache.set(key, found);
  return found;
}
