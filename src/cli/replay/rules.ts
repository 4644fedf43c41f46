/**
 * The normalisation rules of `atrium replay` (docs/replay.md, "Normalisation"), and the map from the ids and cursors
 * of the recording to those of the replay, learned from the answers as the calls go.
 */

/** A UUID (any version): an id wherever it appears. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A date and a time (ISO 8601 / RFC 3339, `T` or a space), with or without seconds, fraction and offset. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
/** An HTTP date (`Date`, `Last-Modified`): `Mon, 07 Dec 2026 23:47:31 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/** An opaque generated token: 16 characters or more of letters, digits, `-` and `_`, with a digit among them. */
const OPAQUE = /^(?=[^\d]*\d)[A-Za-z0-9_-]{16,}$/;

/** A member that names an id: `id`, `ids`, `…_id`, `…_ids`, `…Id`, `…Ids`, `uuid`. */
export function isIdKey(key: string | undefined): boolean {
  return key !== undefined && /^(?:id|ids|uuid)$|_ids?$|[a-z]Ids?$/.test(key);
}

/** A member, query parameter or header that carries a page cursor. */
export function isCursorKey(key: string | undefined): boolean {
  return (
    key !== undefined &&
    /^(?:cursor|next|previous|prev|next_cursor|previous_cursor|next-cursor|previous-cursor|page_token|next_page_token)$/i.test(
      key,
    )
  );
}

export function isDateTime(value: unknown): boolean {
  return typeof value === 'string' && (DATE_TIME.test(value) || HTTP_DATE.test(value));
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Whether a value at `key` is one the service made, so that the replay's may differ and be learned: a UUID anywhere;
 * under an id member, also an integer or an opaque token. Other values (an `external_id` the caller chose) are
 * compared as they are.
 */
export function isGeneratedId(key: string | undefined, value: unknown): boolean {
  if (isUuid(value)) return true;
  if (!isIdKey(key)) return false;
  return (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && OPAQUE.test(value));
}

/**
 * The kind of an integer id, for its map (integers are ids within a kind: user 1 and event 1 are two things):
 * `userId`, `user_ids`, `users` → `user`; an `id` takes the name of the member that holds its object, or else the
 * resource the call names (`/v1/events/ilt/5` → `ilt`).
 */
export function kindOf(key: string | undefined, owner: string | undefined, resource: string): string {
  const stem = (name: string) =>
    name
      .replace(/(?:_ids?|Ids?)$/, '')
      .toLowerCase()
      .replace(/s$/, '');
  if (key === undefined || /^(?:id|ids|uuid)$/.test(key)) return stem(owner ?? resource);
  return stem(key);
}

/** The resource a path names: its last segment that is not an id (`/v1/events/ilt/5?…` → `ilt`). */
export function resourceOf(path: string): string {
  const segments = (path.split('?')[0] ?? '').split('/').filter((s) => s !== '' && !/^\d+$/.test(s) && !isUuid(s));
  return segments.at(-1) ?? '';
}

/**
 * Recorded id or cursor → the replay's, one to one: a recorded value maps to one replayed value, and no two
 * recorded values map to the same one (so that an answer naming the wrong thing is still a difference). Strings
 * (UUIDs, cursors, tokens) are one space; integers are one space per kind (`kindOf`).
 */
export class IdMap {
  private readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, string>();

  private static key(value: string | number, kind: string): string {
    return typeof value === 'number' ? `n:${kind}:${value}` : `s:${value}`;
  }

  /** The replay's value for a recorded one, or undefined when none was learned. */
  get(recorded: string | number, kind = ''): string | undefined {
    return this.forward.get(IdMap.key(recorded, kind));
  }

  /** Whether `replayed` stands for `recorded`: the same once mapped, or learned now when neither is mapped yet. */
  match(recorded: string | number, replayed: string | number, kind = ''): boolean {
    const known = this.get(recorded, kind);
    if (known !== undefined) return known === String(replayed);
    const back = typeof recorded === 'number' ? `n:${kind}:${replayed}` : `s:${replayed}`;
    if (this.backward.has(back)) return false;
    this.learn(recorded, replayed, kind);
    return true;
  }

  learn(recorded: string | number, replayed: string | number, kind = ''): void {
    this.forward.set(IdMap.key(recorded, kind), String(replayed));
    this.backward.set(typeof recorded === 'number' ? `n:${kind}:${replayed}` : `s:${replayed}`, String(recorded));
  }

  /** A recorded string with every learned id of 8 characters or more in it replaced (URLs, paths, messages). */
  rewrite(text: string): string {
    let out = text;
    for (const [key, replayed] of this.forward) {
      if (!key.startsWith('s:')) continue;
      const recorded = key.slice(2);
      if (recorded.length >= 8 && recorded !== replayed && out.includes(recorded)) {
        out = out.split(recorded).join(replayed);
      }
    }
    return out;
  }
}

/** Where a JSON pointer matches an `--ignore` pattern: the same segments, `*` standing for any one. */
export function ignored(pointer: string, patterns: readonly string[]): boolean {
  const segments = pointer.split('/');
  return patterns.some((pattern) => {
    const wanted = pattern.split('/');
    if (wanted.length > segments.length) return false;
    return wanted.every((w, i) => w === '*' || w === segments[i]);
  });
}

/** A JSON pointer's next segment (RFC 6901: `~` and `/` escaped). */
export function child(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
