import { formatDateTime } from '../../platform/time.js';
import type { ViewPass } from './schemas.js';
import type { IssuedViewPass } from './service.js';

export function presentViewPass(issued: IssuedViewPass): ViewPass {
  return { pass: issued.pass, expires_at: formatDateTime(issued.expiresAt), expires_in: issued.ttlSeconds };
}
