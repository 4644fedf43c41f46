import { REFERENCE_OPERATIONS } from './reference-operations.js';

/** Why a call of a tenant's API missed (docs/admin.md, "Near misses"). */
export type NearMissReason =
  | 'unknown_path'
  | 'wrong_method'
  | 'bad_token'
  | 'expired_token'
  | 'wrong_scope'
  | 'bad_key';

export const NEAR_MISS_REASONS: readonly NearMissReason[] = [
  'unknown_path',
  'wrong_method',
  'bad_token',
  'expired_token',
  'wrong_scope',
  'bad_key',
];

/** An operation Atrium serves, offered in place of a call that hit no route. */
export interface SuggestedOperation {
  method: string;
  /** The full path template: `/api/v2/client/organizations/{id}`. */
  path: string;
  operation_id: string;
}

/** A near miss as the log keeps and shows it. */
export interface NearMiss {
  reason: NearMissReason;
  /** For `unknown_path` and `wrong_method`: the closest served operations, closest first (at most 3). */
  suggestions: SuggestedOperation[];
  /** The real API has this operation and Atrium does not serve it yet. */
  unserved_reference_operation?: { method: string; path: string };
}

/** One API's served operations: its prefix and `METHOD /path` → operationId. */
export interface ServedApi {
  api: 'hr' | 'academy';
  prefix: string;
  operations: ReadonlyMap<string, string>;
}

interface Template {
  method: string;
  path: string;
  segments: string[];
  operationId: string;
}

/** What a call's answer says, read from its error body. */
export interface MissedCall {
  api: 'hr' | 'academy';
  method: string;
  /** The path as received, without its query. */
  path: string;
  status: number;
  /** No route matched (the API's not-found handler answered). */
  noRoute: boolean;
  /** The error body's `code` and `message`, if any. */
  code?: string;
  message?: string;
}

/** Paths longer than this, in segments or characters per segment, are compared on their first ones only. */
const MAX_SEGMENTS = 8;
const MAX_SEGMENT_CHARS = 32;
const SUGGESTIONS = 3;
/** A parameter of a template matches any segment, at a little more than an exact literal. */
const PARAM_COST = 0.25;
/** An operation of another method than the call's. */
const METHOD_COST = 0.5;

/** Another method costs `METHOD_COST`; HEAD for GET (or back) a hair, so that the call's own method comes first. */
const methodCost = (a: string, b: string) => (a === b ? 0 : sameMethod(a, b) ? 0.01 : METHOD_COST);
const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');
const sameMethod = (a: string, b: string) => a === b || (a === 'HEAD' && b === 'GET') || (a === 'GET' && b === 'HEAD');

function segmentsOf(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s.length > 0)
    .slice(0, MAX_SEGMENTS)
    .map((s) => s.slice(0, MAX_SEGMENT_CHARS).toLowerCase());
}

/** Levenshtein distance of two strings, divided by the longer's length: 0 (equal) to 1. */
function charDistance(a: string, b: string): number {
  if (a === b) return 0;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return (row[b.length] as number) / Math.max(a.length, b.length);
}

/**
 * The distance of a path to a template: an edit distance over their segments, where a missing or extra segment costs
 * 1, a template parameter matches any segment for `PARAM_COST`, and two literals cost their normalised Levenshtein
 * distance (`/organisations` is 1/13 from `/organizations`).
 */
export function pathDistance(path: readonly string[], template: readonly string[]): number {
  let previous = Array.from({ length: template.length + 1 }, (_, j) => j);
  for (let i = 1; i <= path.length; i++) {
    const current = [i];
    for (let j = 1; j <= template.length; j++) {
      const t = template[j - 1] as string;
      const substitute = isParam(t) ? PARAM_COST : charDistance(path[i - 1] as string, t);
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + substitute,
      );
    }
    previous = current;
  }
  return previous[template.length] as number;
}

/** Whether a path is an instance of a template: same segments, each literal equal (a parameter takes any). */
function instanceOf(path: readonly string[], template: readonly string[]): boolean {
  return path.length === template.length && template.every((t, i) => isParam(t) || t === path[i]);
}

/** The number of literal segments of a template: the more, the more precise a match. */
const literals = (segments: readonly string[]) => segments.filter((s) => !isParam(s)).length;

const referenceTemplates: Template[] = Object.entries(REFERENCE_OPERATIONS).flatMap(([path, methods]) =>
  methods.split(' ').map((method) => ({ method, path, segments: segmentsOf(path), operationId: '' })),
);

/** Reads an error body's `code` and `message` (both APIs' bodies have them), if the answer is a small JSON one. */
export function errorOf(payload: string | Buffer | 'stream' | null): { code?: string; message?: string } {
  if (payload === null || payload === 'stream' || payload.length > 4096) return {};
  try {
    const body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8')) as unknown;
    if (typeof body !== 'object' || body === null) return {};
    const { code, message } = body as { code?: unknown; message?: unknown };
    return {
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof message === 'string' ? { message } : {}),
    };
  } catch {
    return {};
  }
}

/** The statuses a near miss can answer: the rest are never one (no body is read). */
export const NEAR_MISS_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 405]);

/**
 * Tells a near miss from the rest of the calls, and finds what the caller probably meant (docs/admin.md,
 * "Near misses"): the served operations closest to a call that hit no route, and the real API's operation it names
 * when Atrium does not serve it.
 */
export class NearMissCatalogue {
  private readonly served = new Map<'hr' | 'academy', { prefix: string; templates: Template[] }>();
  /** The suggestions of a `METHOD path` already seen (a client repeating its mistake). */
  private readonly cache = new Map<string, Omit<NearMiss, 'reason'> & { wrongMethod: boolean }>();

  constructor(apis: readonly ServedApi[]) {
    for (const api of apis) {
      const templates = [...api.operations].map(([key, operationId]) => {
        const [method, path] = key.split(' ') as [string, string];
        return { method, path, segments: segmentsOf(path), operationId };
      });
      this.served.set(api.api, { prefix: api.prefix, templates });
    }
  }

  /** The near miss a call is, if it is one. */
  describe(call: MissedCall): NearMiss | undefined {
    if (call.noRoute) {
      const found = this.closest(call);
      if (!found) return undefined;
      const { wrongMethod, ...rest } = found;
      return { reason: wrongMethod || call.status === 405 ? 'wrong_method' : 'unknown_path', ...rest };
    }
    const reason = reasonOf(call);
    return reason === undefined ? undefined : { reason, suggestions: [] };
  }

  private closest(call: MissedCall): (Omit<NearMiss, 'reason'> & { wrongMethod: boolean }) | undefined {
    const api = this.served.get(call.api);
    if (!api) return undefined;
    const key = `${call.method} ${call.path}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const path = segmentsOf(call.path.slice(api.prefix.length));
    const scored = api.templates.map((t) => ({
      t,
      cost: pathDistance(path, t.segments) + methodCost(call.method, t.method),
    }));
    scored.sort((a, b) => a.cost - b.cost);
    const limit = 0.5 * Math.max(path.length, 1) + METHOD_COST;
    const suggestions = scored
      .filter((s) => s.cost <= limit)
      .slice(0, SUGGESTIONS)
      .map(({ t }) => ({ method: t.method, path: `${api.prefix}${t.path}`, operation_id: t.operationId }));
    const wrongMethod = api.templates.some((t) => instanceOf(path, t.segments) && !sameMethod(call.method, t.method));
    const found: Omit<NearMiss, 'reason'> & { wrongMethod: boolean } = { suggestions, wrongMethod };
    const reference = call.api === 'hr' ? this.unserved(call.method, path, api.templates) : undefined;
    if (reference)
      found.unserved_reference_operation = { method: reference.method, path: `${api.prefix}${reference.path}` };
    if (this.cache.size >= 1000) this.cache.clear();
    this.cache.set(key, found);
    return found;
  }

  /** The real API's operation this call is an instance of, if Atrium serves none for it. */
  private unserved(method: string, path: readonly string[], served: readonly Template[]): Template | undefined {
    if (served.some((t) => sameMethod(method, t.method) && instanceOf(path, t.segments))) return undefined;
    let best: Template | undefined;
    for (const t of referenceTemplates) {
      if (!sameMethod(method, t.method) || !instanceOf(path, t.segments)) continue;
      if (!best || literals(t.segments) > literals(best.segments)) best = t;
    }
    return best;
  }
}

/** The reason of a call refused by authentication, from its status and error code (both APIs' codes). */
function reasonOf(call: MissedCall): NearMissReason | undefined {
  const { status, code, message = '' } = call;
  if ((status === 403 && code === 'insufficient_scope') || (status === 401 && code === 'invalid_scope')) {
    return 'wrong_scope';
  }
  if (call.api === 'academy') return status === 401 && code === 'unauthorized' ? 'bad_key' : undefined;
  if (status === 401 && code === 'invalid_credentials') return 'bad_key';
  if (status === 401 && code === 'invalid_token') {
    if (/expired/i.test(message)) return 'expired_token';
    if (/scope/i.test(message)) return 'wrong_scope';
    return 'bad_token';
  }
  // The token sent in more than one way: refused before it is read.
  if (status === 400 && code === 'invalid_request' && /access token/i.test(message)) return 'bad_token';
  return undefined;
}
