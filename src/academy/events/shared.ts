/**
 * What every events service shares: the lists' page limits, a page's start and size as the spec reads them, and
 * the field error of a refused body.
 */
import type { FieldError } from '../../platform/errors.js';

export const LIST_MAX_LIMIT = 100;
export const OFFERS_MAX_LIMIT = 20;
export const USERS_MAX_LIMIT = 100;
export const ATTENDANCE_MAX_LIMIT = 20;
const DEFAULT_LIMIT = 20;

export function clamp(limit: number | undefined, max: number): number {
  return Math.min(limit ?? DEFAULT_LIMIT, max);
}

/** A start position past any real list is simply past the end. */
export function position(start: number | undefined): number {
  return Math.min(start ?? 0, 2_147_483_647);
}

export function err(field: string, code: string, message: string): FieldError {
  return { field, code, message };
}
