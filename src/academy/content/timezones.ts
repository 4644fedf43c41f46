import { formatOffset, isZone, zoneOffsetMinutes } from '../../platform/timezones.js';
import { TIMEZONE_IDS } from './timezone-ids.js';

export interface Timezone {
  id: number;
  /** IANA name, for example `Europe/Athens`. */
  name: string;
  /** `(GMT+hh:mm) <cities>`, with the offset in force now. */
  label: string;
  /** Offset from UTC in force now, in hours (5.5 for India). */
  offset: number;
}

function cities(zone: string): string {
  const parts = zone.split('/');
  return (parts.length > 1 ? parts.slice(1).reverse().join(', ') : zone).replace(/_/g, ' ');
}

/**
 * The timezone list of `GET /content/timezones`, built from the IANA
 * database Node ships. Ids are stable (see timezone-ids.ts).
 */
export class TimezoneRegistry {
  private readonly byId = new Map<number, string>();
  private readonly byName = new Map<string, number>();

  constructor() {
    const known = new Set(Intl.supportedValuesOf('timeZone'));
    TIMEZONE_IDS.forEach((name, i) => {
      if (known.has(name) || isZone(name)) this.add(i + 1, name);
    });
    [...known]
      .filter((z) => !this.byName.has(z))
      .sort()
      .forEach((name, i) => {
        this.add(10_001 + i, name);
      });
  }

  private add(id: number, name: string): void {
    this.byId.set(id, name);
    this.byName.set(name, id);
  }

  zone(id: number): string | undefined {
    return this.byId.get(id);
  }

  idOf(name: string): number | undefined {
    return this.byName.get(name);
  }

  describe(id: number, at: number): Timezone | undefined {
    const name = this.byId.get(id);
    if (!name) return undefined;
    const offsetMinutes = zoneOffsetMinutes(name, at);
    return { id, name, label: `(GMT${formatOffset(offsetMinutes)}) ${cities(name)}`, offset: offsetMinutes / 60 };
  }

  list(at: number): Timezone[] {
    return [...this.byId.keys()].sort((a, b) => a - b).map((id) => this.describe(id, at) as Timezone);
  }
}
