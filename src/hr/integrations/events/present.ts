import { formatDateTime } from '../../../platform/time.js';
import type { RecordedEvent } from '../../audit/trail.js';
import type { EventRecord } from './repository.js';
import type { Event, EventExportLine } from './schemas.js';

/** An audit event on the wire (reference §4.4, `EventBase`). */
export function presentEvent(event: EventRecord): Event {
  return {
    id: event.id,
    type: event.type,
    name: event.name,
    created_at: formatDateTime(event.createdAt),
    actor: { type: event.actor.type as Event['actor']['type'], name: event.actor.name, data: event.actor.data },
    data: event.data,
    ...(event.triggered ? { triggered: true } : {}),
  } as Event;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `DD/MM/YYYY hh:mm` in UTC, the export's date form (reference §4.4). */
function exportDate(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** One line of the export (`EventExportFields`). */
export function presentExportLine(event: EventRecord): EventExportLine {
  return {
    'Trigger Type': event.actor.type,
    Trigger: event.actor.name ?? '',
    Action: event.action,
    'Item Type': event.resourceType,
    'Affected Item': event.name ?? event.resourceId,
    Date: exportDate(event.createdAt),
  };
}

/**
 * An event just recorded, as `GET /events/{id}` shows it: the body a webhook delivery sends. A triggered event's
 * body is a real one's, without the trail's `triggered` mark (docs/admin.md, "Event triggers").
 */
export function presentRecordedEvent(event: RecordedEvent): Event {
  return presentEvent({ ...event, pk: 0, actor: { ...event.actor }, triggered: false });
}
