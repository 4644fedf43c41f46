/** Custom statuses of requests (`/custom_status`). */
import type {
  CustomStatus,
  CustomStatusCountQuery,
  CustomStatusListQuery,
  CustomStatusPut,
} from '../schemas/hr/people-assist/custom-statuses.js';
import type { Verbs } from './core.js';

/** `hr.customStatuses`. */
export function customStatuses(v: Verbs) {
  const path = '/custom_status';
  return {
    list: v.list<CustomStatus, CustomStatusListQuery>(path),
    count: v.count<CustomStatusCountQuery>(path),
    retrieve: v.retrieve<CustomStatus>(path),
    upsert: v.upsert<CustomStatusPut, CustomStatus>(path),
  };
}
