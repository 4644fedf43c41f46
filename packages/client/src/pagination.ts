/**
 * Auto-pagination shared by both APIs: a list call returns an {@link AutoPager}, an async iterable over every
 * item of every page, which fetches each page only when the loop reaches it.
 */
import type { RequestOptions } from './http.js';

/** One page of a list. */
export interface Page<T> {
  /** The items of this page, in the server's order. */
  items: T[];
  /**
   * Where the next page starts: the HR API's `Next-Cursor`, or the Academy API's next `start` (as a string).
   * Undefined on the last page.
   */
  nextCursor?: string;
  /** The HR API's `Previous-Cursor`, when the page has one. */
  previousCursor?: string;
  /** The total the server reported, when it reports one (Academy `all` and `users_count`). */
  total?: number;
  /** The server's `X-Request-Id` of this page's answer. */
  requestId?: string;
}

/** Fetches the page that starts at `cursor` (undefined: the first page). */
export type PageFetcher<T> = (cursor: string | undefined, options: RequestOptions) => Promise<Page<T>>;

/**
 * Every item of a list, page after page: `for await (const item of pager)`. Pages are fetched lazily, one at a
 * time, each with the call's options (signal, timeout, retries). `pages()` iterates by page instead, and
 * `toArray()` collects the items.
 */
export class AutoPager<T> implements AsyncIterable<T> {
  /** @internal */
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly options: RequestOptions = {},
    private readonly startCursor?: string,
  ) {}

  /** Iterates by page: each value is one {@link Page}, the last one without `nextCursor`. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor = this.startCursor;
    const seen = new Set<string>();
    for (;;) {
      const page = await this.fetchPage(cursor, this.options);
      yield page;
      const next = page.nextCursor;
      // Stop on the last page, and never loop on a cursor already followed.
      if (next === undefined || seen.has(next)) return;
      seen.add(next);
      cursor = next;
    }
  }

  /** Iterates over every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** The first page only. */
  async firstPage(): Promise<Page<T>> {
    return this.fetchPage(this.startCursor, this.options);
  }

  /** Every item (or the first `max` items) in an array. */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<T[]> {
    const out: T[] = [];
    if (max <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= max) break;
    }
    return out;
  }
}
