/**
 * The Academy events API (`/v1`) client. Works in Node.js, other runtimes with `fetch`, and browsers (the server
 * must allow the page's origin with `ATRIUM_CORS_ORIGINS`).
 *
 * Types come from the server's TypeBox schemas through type-only imports, erased at build time.
 */
import { AtriumUsageError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import { type AcademyClientOptions, AcademyCore } from './core.js';
import { directoryResources } from './directory.js';
import { events } from './events.js';

type Directory = ReturnType<typeof directoryResources>;

/**
 * A client of the Academy events API, modelled on stripe-node: `academy.events.ilt`, `academy.events.vc`,
 * `academy.users`, `academy.courses`, `academy.curriculums` and `academy.content`, each with `list` (an
 * {@link AutoPager}), `retrieve` and the resource's own actions.
 *
 * The key goes in the `X-API-Key` header and `acadId` in the query. Usable in browsers.
 *
 * @example
 * ```ts
 * const academy = new AcademyClient({ baseUrl, acadId: 1, apiKey });
 * for await (const e of academy.events.vc.list({ dateStart: '2031-01-01' })) console.log(e.title);
 * ```
 */
export class AcademyClient {
  private readonly core: AcademyCore;
  /** Training events: `events.ilt` (in-class), `events.vc` (virtual classroom), `events.registrationsOfUsers`. */
  readonly events: ReturnType<typeof events>;
  /** The academy's users (`/users`). */
  readonly users: Directory['users'];
  /** Courses (`/courses`). */
  readonly courses: Directory['courses'];
  /** Learning paths (`/curriculums`). */
  readonly curriculums: Directory['curriculums'];
  /** Categories, venues and timezones (`/content/…`). */
  readonly content: Directory['content'];
  /** The academy's call quota (`/usage`). */
  readonly usage: Directory['usage'];

  /** @throws {AtriumUsageError} without `baseUrl`, `acadId` or `apiKey`. */
  constructor(options: AcademyClientOptions) {
    if (typeof options?.baseUrl !== 'string' || options.baseUrl === '') {
      throw new AtriumUsageError('AcademyClient needs the option "baseUrl".');
    }
    if (options.acadId === undefined || options.acadId === null || String(options.acadId) === '') {
      throw new AtriumUsageError('AcademyClient needs the option "acadId".');
    }
    if (typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw new AtriumUsageError('AcademyClient needs the option "apiKey".');
    }
    this.core = new AcademyCore(options);
    this.events = events(this.core);
    const directory = directoryResources(this.core);
    this.users = directory.users;
    this.courses = directory.courses;
    this.curriculums = directory.curriculums;
    this.content = directory.content;
    this.usage = directory.usage;
  }

  /** The API root the client calls, `…/v1`. */
  get apiRoot(): string {
    return this.core.root;
  }

  /**
   * Any call of the API, for what the typed resources do not cover. `path` is relative to `/v1`; `acadId` and the
   * key are added. Resolves with the parsed JSON body.
   */
  request<T = unknown>(
    method: string,
    path: string,
    init: { query?: Record<string, unknown>; body?: unknown; idempotent?: boolean } = {},
    options?: RequestOptions,
  ): Promise<T> {
    return this.core.json<T>(method.toUpperCase(), path.startsWith('/') ? path : `/${path}`, init, options);
  }
}
