import { formatDateTime } from '../../platform/time.js';
import type { TenantClock as Wire } from './schemas.js';
import type { TenantClock } from './service.js';

export function presentClock(clock: TenantClock): Wire {
  const moved = clock.frozen || clock.offsetMs !== 0;
  return {
    now: formatDateTime(clock.now),
    installation_now: formatDateTime(clock.installationNow),
    offset_seconds: Math.round(clock.offsetMs / 1000),
    frozen: clock.frozen,
    moved,
  };
}
