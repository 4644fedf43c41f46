/**
 * Compares a recorded answer with the replay's, field by field, after the normalisation rules (rules.ts;
 * docs/replay.md, "Normalisation"), learning the ids and cursors the replay answers with as it goes.
 */
import { isRedacted } from './recording.js';
import { child, type IdMap, ignored, isCursorKey, isDateTime, isGeneratedId, isIdKey, kindOf } from './rules.js';

/** One difference: where (a JSON pointer into the answer: `/status`, `/headers/link`, `/body/…`), and both values. */
export interface Difference {
  pointer: string;
  /** `undefined` when the member is missing on that side. */
  recorded: unknown;
  replayed: unknown;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

interface Walk {
  ids: IdMap;
  ignore: readonly string[];
  /** The two origins, replaced by one another in URLs. */
  recordedOrigin: string;
  replayedOrigin: string;
  /** The resource the recorded call named (`resourceOf`), the kind of its answer's top-level `id`s. */
  resource: string;
  out: Difference[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function differ(walk: Walk, pointer: string, recorded: unknown, replayed: unknown): void {
  walk.out.push({ pointer, recorded, replayed });
}

/** A recorded string made comparable: the learned ids and the recorded origin replaced by the replay's. */
function rewritten(walk: Walk, text: string): string {
  const origin = walk.recordedOrigin ? text.split(walk.recordedOrigin).join(walk.replayedOrigin) : text;
  return walk.ids.rewrite(origin);
}

/** A URL's (or a path's) query parameters that are cursors, learned; the rest of it compared as text. */
function sameUrl(walk: Walk, recorded: string, replayed: string): boolean {
  const [recordedPath = '', recordedQuery = ''] = recorded.split('?', 2);
  const [replayedPath = '', replayedQuery = ''] = replayed.split('?', 2);
  if (rewritten(walk, recordedPath) !== replayedPath) return false;
  const a = new URLSearchParams(recordedQuery);
  const b = new URLSearchParams(replayedQuery);
  if ([...a.keys()].sort().join('&') !== [...b.keys()].sort().join('&')) return false;
  for (const [name, value] of a) {
    const other = b.get(name) ?? '';
    if (isCursorKey(name) ? !walk.ids.match(value, other) : rewritten(walk, value) !== other) return false;
  }
  return true;
}

function compareScalar(
  walk: Walk,
  pointer: string,
  at: { key: string | undefined; owner: string | undefined },
  recorded: unknown,
  replayed: unknown,
) {
  const { key } = at;
  if (recorded === replayed && !isGeneratedId(key, recorded)) return;
  if (isRedacted(recorded) && replayed !== null && replayed !== undefined) return;
  const bothText = typeof recorded === 'string' && typeof replayed === 'string';
  if (isCursorKey(key) && bothText) {
    if (
      recorded.includes('?') || recorded.includes('/')
        ? sameUrl(walk, recorded, replayed)
        : walk.ids.match(recorded, replayed)
    )
      return;
  } else if (isGeneratedId(key, recorded) && (typeof replayed === 'string' || typeof replayed === 'number')) {
    if (walk.ids.match(recorded as string | number, replayed, kindOf(key, at.owner, walk.resource))) return;
  } else if (isDateTime(recorded) && isDateTime(replayed)) {
    return;
  } else if (bothText) {
    if (rewritten(walk, recorded) === replayed) return;
    if (/^(?:https?:\/\/|\/)[^\s]*\?/.test(recorded) && sameUrl(walk, recorded, replayed)) return;
  }
  differ(walk, pointer, recorded, replayed);
}

/** `owner`: the member that holds the object `recorded` belongs to (the kind of its `id`). */
function compareValue(
  walk: Walk,
  pointer: string,
  key: string | undefined,
  owner: string | undefined,
  recorded: unknown,
  replayed: unknown,
) {
  if (ignored(pointer, walk.ignore)) return;
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    // The elements of an id list (`organizations_ids`) are ids themselves.
    const elementKey = isIdKey(key) ? key : undefined;
    const length = Math.max(recorded.length, replayed.length);
    for (let i = 0; i < length; i++) {
      const at = child(pointer, i);
      if (i >= recorded.length || i >= replayed.length) {
        if (!ignored(at, walk.ignore)) differ(walk, at, recorded[i], replayed[i]);
      } else compareValue(walk, at, elementKey, key ?? owner, recorded[i], replayed[i]);
    }
    return;
  }
  if (isObject(recorded) && isObject(replayed)) {
    // Members named like ids first: an answer's own id is learned before the URLs and texts that contain it.
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(replayed)])];
    keys.sort((a, b) => Number(isIdKey(b)) - Number(isIdKey(a)));
    for (const name of keys) {
      const at = child(pointer, name);
      if (!(name in recorded) || !(name in replayed)) {
        if (!ignored(at, walk.ignore)) differ(walk, at, recorded[name], replayed[name]);
      } else compareValue(walk, at, name, key ?? owner, recorded[name], replayed[name]);
    }
    return;
  }
  compareScalar(walk, pointer, { key, owner }, recorded, replayed);
}

/** `Link`: its links by relation, each URL compared with its cursors learned. */
function compareLink(walk: Walk, recorded: string | undefined, replayed: string | undefined): void {
  const parse = (value: string | undefined) =>
    new Map(
      [...(value ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g)].map((m) => [m[2] as string, m[1] as string]),
    );
  const a = parse(recorded);
  const b = parse(replayed);
  for (const rel of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(rel);
    const y = b.get(rel);
    const pointer = `/headers/link/${rel}`;
    if (ignored(pointer, walk.ignore)) continue;
    if (x === undefined || y === undefined || !sameUrl(walk, x, y)) differ(walk, pointer, x, y);
  }
}

/** The headers compared (docs/replay.md): the others (dates, request ids, rate limits…) are not. */
function compareHeaders(walk: Walk, recorded: Record<string, string>, replayed: Record<string, string>): void {
  const mediaType = (value: string | undefined) => value?.split(';')[0]?.trim().toLowerCase();
  const at = (name: string) => `/headers/${name}`;
  if (mediaType(recorded['content-type']) !== mediaType(replayed['content-type'])) {
    if (!ignored(at('content-type'), walk.ignore)) {
      differ(walk, at('content-type'), recorded['content-type'], replayed['content-type']);
    }
  }
  for (const name of ['next-cursor', 'previous-cursor', 'location', 'x-total-count', 'idempotent-replayed']) {
    const a = recorded[name];
    const b = replayed[name];
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined) {
      if (!ignored(at(name), walk.ignore)) differ(walk, at(name), a, b);
    } else compareValue(walk, at(name), name, undefined, a, b);
  }
  if ((recorded.etag === undefined) !== (replayed.etag === undefined) && !ignored(at('etag'), walk.ignore)) {
    differ(walk, at('etag'), recorded.etag, replayed.etag);
  }
  compareLink(walk, recorded.link, replayed.link);
}

/**
 * The differences between a recorded answer and the replay's: the status, the headers that carry meaning, and the
 * body field by field. The ids and cursors the replay answers with are learned into `ids` on the way.
 */
export function compareAnswers(
  recorded: Answer,
  replayed: Answer,
  options: { ids: IdMap; ignore: readonly string[]; recordedOrigin: string; replayedOrigin: string; resource: string },
): Difference[] {
  const walk: Walk = { ...options, out: [] };
  if (recorded.status !== replayed.status && !ignored('/status', walk.ignore)) {
    differ(walk, '/status', recorded.status, replayed.status);
  }
  // The body first: the ids it names are then known when the headers (`Location`) are compared.
  if (isObject(recorded.body) && 'omitted' in recorded.body && Object.keys(recorded.body).length === 1) {
    // A body over 1 MiB was not kept: nothing to compare it with.
  } else compareValue(walk, '/body', undefined, undefined, recorded.body, replayed.body);
  compareHeaders(walk, recorded.headers, replayed.headers);
  return walk.out;
}
