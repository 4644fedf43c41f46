import { isDeepStrictEqual } from 'node:util';
import { InvalidRequestError } from '../../platform/errors.js';
import { formatDateTime, parseDateTime } from '../../platform/time.js';
import type { LoggedCallRecord } from './repository.js';
import type { RequestMatcher } from './schemas.js';

/** One criterion a call failed: the matcher's field, what it asked, and what the call had (left out: nothing). */
export interface Difference {
  field: string;
  expected: unknown;
  actual?: unknown;
}

/** A criterion of a matcher: the difference of a call that fails it, undefined for one that passes. */
type Criterion = (call: LoggedCallRecord) => Difference | undefined;

/** A matcher ready to run: its criteria, and the number of matching calls it wants. */
export interface CompiledMatcher {
  criteria: Criterion[];
  count: { min: number; max: number | null };
}

/** The steps of a body field's path (its schema's pattern checked it): `.name`, `['name']`, `["name"]`, `[3]`. */
const STEP = /\.([A-Za-z_][A-Za-z0-9_-]*)|\[([0-9]{1,9})\]|\['([^']*)'\]|\["([^"]*)"\]/g;

function bodyPathSteps(path: string): (string | number)[] {
  return [...path.slice(1).matchAll(STEP)].map((m) =>
    m[2] !== undefined ? Number(m[2]) : ((m[1] ?? m[3] ?? m[4]) as string),
  );
}

/** How a field of a body is named in a difference: `body.user.email`, `body.items[0]`, `body['a b']`. */
function step(field: string, key: string | number): string {
  if (typeof key === 'number') return `${field}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `${field}.${key}` : `${field}[${JSON.stringify(key)}]`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Whether `actual` holds `expected`: an object's members are a subset (each compared the same way), an array has
 * as many items, each holding the expected one, and anything else is equal. Answers the first difference.
 */
export function subsetDifference(expected: unknown, actual: unknown, field: string): Difference | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { field, expected, actual };
    for (let i = 0; i < expected.length; i++) {
      const d = subsetDifference(expected[i], actual[i], step(field, i));
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return { field, expected, actual };
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) return { field: step(field, key), expected: value };
      const d = subsetDifference(value, actual[key], step(field, key));
      if (d) return d;
    }
    return undefined;
  }
  return expected === actual ? undefined : { field, expected, actual };
}

/** A call's query parameters: one value as a string, a repeated one as an array. */
function queryOf(path: string): Record<string, string | string[]> {
  const at = path.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (at < 0) return out;
  for (const [name, value] of new URLSearchParams(path.slice(at + 1))) {
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** The request body as JSON (a form as an object of strings); `text` when it is not JSON (cut, not kept, text). */
function bodyOf(call: LoggedCallRecord): { value?: unknown; text?: string } {
  const body = call.requestBody;
  if (body === null) return {};
  const type = call.requestHeaders['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return { value: queryOf(`?${body}`) };
  try {
    return { value: JSON.parse(body) as unknown };
  } catch {
    return { text: body };
  }
}

/**
 * A path pattern as a regular expression of the path without its query: segments compared literally, but `*` and
 * `{name}` (one segment) and `**` (any number of segments, none too).
 */
export function pathPattern(pattern: string): RegExp {
  const parts = pattern
    .split('/')
    .slice(1)
    .map((segment) => {
      if (segment === '**') return '(?:/[^/]+)*';
      if (segment === '*' || /^\{[^{}/]+\}$/.test(segment)) return '/[^/]+';
      if (segment.includes('*')) {
        throw new InvalidRequestError(
          `Invalid matcher: "path" segment "${segment}": "*" and "**" stand only for whole segments.`,
        );
      }
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    });
  return new RegExp(`^${parts.join('')}$`);
}

function instant(text: string, field: string): number {
  const at = parseDateTime(text);
  if (at === undefined) throw new InvalidRequestError(`Invalid matcher: "${field}" must be a datetime.`);
  return at;
}

function countOf(count: RequestMatcher['count']): CompiledMatcher['count'] {
  if (count === undefined) return { min: 1, max: null };
  if (typeof count === 'number') return { min: count, max: count };
  const range = { min: count.min ?? 0, max: count.max ?? null };
  if (range.max !== null && range.max < range.min) {
    throw new InvalidRequestError('Invalid matcher: "count.max" is less than "count.min".');
  }
  return range;
}

function callCriteria(m: RequestMatcher): Criterion[] {
  const criteria: Criterion[] = [];
  if (m.operation_id !== undefined) {
    const want = m.operation_id;
    criteria.push((c) =>
      c.operationId === want ? undefined : { field: 'operation_id', expected: want, actual: c.operationId },
    );
  }
  if (m.method !== undefined) {
    const want = m.method.toUpperCase();
    criteria.push((c) => (c.method === want ? undefined : { field: 'method', expected: want, actual: c.method }));
  }
  if (m.path !== undefined) {
    const want = m.path;
    const re = pathPattern(want);
    criteria.push((c) => {
      const path = c.path.split('?', 1)[0] as string;
      return re.test(path) ? undefined : { field: 'path', expected: want, actual: path };
    });
  }
  const status = m.status;
  if (status !== undefined) {
    const test =
      typeof status === 'number'
        ? (s: number) => s === status
        : (s: number) => Math.floor(s / 100) === Number(status[0]);
    criteria.push((c) => (test(c.status) ? undefined : { field: 'status', expected: status, actual: c.status }));
  }
  if (m.since !== undefined) {
    const text = m.since;
    const since = instant(text, 'since');
    criteria.push((c) =>
      c.tenantAt >= since ? undefined : { field: 'since', expected: text, actual: formatDateTime(c.tenantAt) },
    );
  }
  if (m.until !== undefined) {
    const text = m.until;
    const until = instant(text, 'until');
    criteria.push((c) =>
      c.tenantAt < until ? undefined : { field: 'until', expected: text, actual: formatDateTime(c.tenantAt) },
    );
  }
  return criteria;
}

function contentCriteria(m: RequestMatcher): Criterion[] {
  const criteria: Criterion[] = [];
  for (const [name, want] of Object.entries(m.query ?? {})) {
    const field = `query.${name}`;
    criteria.push((c) => {
      const actual = queryOf(c.path)[name];
      if (actual === undefined) return { field, expected: want };
      const ok = Array.isArray(want)
        ? isDeepStrictEqual(Array.isArray(actual) ? actual : [actual], want)
        : Array.isArray(actual)
          ? actual.includes(want)
          : actual === want;
      return ok ? undefined : { field, expected: want, actual };
    });
  }
  if (m.body !== undefined) {
    const want = m.body;
    criteria.push((c) => {
      const body = bodyOf(c);
      if (body.text !== undefined) return { field: 'body', expected: want, actual: body.text };
      if (!('value' in body)) return { field: 'body', expected: want };
      return subsetDifference(want, body.value, 'body');
    });
  }
  if (m.body_field !== undefined) {
    const { path, equals } = m.body_field;
    const steps = bodyPathSteps(path);
    const field = `body${path.slice(1)}`;
    criteria.push((c) => {
      const body = bodyOf(c);
      let value: unknown = body.value;
      if (!('value' in body)) return { field, expected: equals };
      for (const key of steps) {
        const holder = value as Record<string | number, unknown>;
        const has =
          typeof key === 'number'
            ? Array.isArray(value) && key < value.length
            : isObject(value) && Object.hasOwn(value, key);
        if (!has) return { field, expected: equals };
        value = holder[key];
      }
      return isDeepStrictEqual(value, equals) ? undefined : { field, expected: equals, actual: value };
    });
  }
  return criteria;
}

/** A matcher checked and made ready (a 400 for what its schema cannot say: a bad pattern, `max` below `min`). */
export function compileMatcher(m: RequestMatcher): CompiledMatcher {
  return { criteria: [...callCriteria(m), ...contentCriteria(m)], count: countOf(m.count) };
}

/** Every criterion the call fails (none: it matches). */
export function differences(matcher: CompiledMatcher, call: LoggedCallRecord): Difference[] {
  const out: Difference[] = [];
  for (const criterion of matcher.criteria) {
    const d = criterion(call);
    if (d) out.push(d);
  }
  return out;
}

/** What the count asks, in words: `at least 1`, `exactly 2`, `between 1 and 3`, `at most 4`. */
export function describeCount(count: CompiledMatcher['count']): string {
  if (count.max === null) return `at least ${count.min}`;
  if (count.min === count.max) return `exactly ${count.min}`;
  return count.min === 0 ? `at most ${count.max}` : `between ${count.min} and ${count.max}`;
}
