/**
 * The Academy events API (`/v1`) client. Works in Node.js, other runtimes with `fetch`, and browsers (the server
 * must allow the page's origin with `ATRIUM_CORS_ORIGINS`).
 *
 * Types come from the server's TypeBox schemas through type-only imports, erased at build time.
 */
import type { Static } from '@sinclair/typebox';
import type {
  CATEGORIES_MAX_LIMIT,
  CategoriesQuery,
  Category,
  COURSES_MAX_LIMIT,
  Course,
  CoursesQuery,
  CURRICULUMS_MAX_LIMIT,
  Curriculum,
  CurriculumsQuery,
  UsersQuery as DirectoryUsersQuery,
  Timezone,
  USERS_MAX_LIMIT,
  User,
  VENUES_MAX_LIMIT,
  Venue,
  VenuesQuery,
} from '../academy/directory/schemas.js';
import type {
  AddOffersBody,
  AttendanceQuery,
  AttendanceResponse,
  BundleResponse,
  ConvertBody,
  DeleteResponse,
  EventDetail,
  EventListItem,
  IltCreate,
  IltEdit,
  Kind,
  ListQuery,
  OffersQuery,
  ParticipantsResponse,
  RegisterBody,
  RegistrationsResponse,
  RegistrationUpdateBody,
  UserEventRegistration,
  UsersQuery,
  VcCreate,
  VcEdit,
} from '../academy/events/schemas.js';
import { type AcademyApiError, AtriumUsageError, academyError, academyFallbackCode, errorInitOf } from './errors.js';
import { type HttpOptions, type HttpRequest, HttpTransport, type RequestOptions } from './http.js';
import { AutoPager, type Page } from './pagination.js';

// ------------------------------------------------------------------------------------------------ body types

/** Forbids keys `K`: `{ venue?: never }` makes `venue` a compile error. */
type Without<K extends PropertyKey> = { [P in K]?: never };

type IltCreateFields = Static<typeof IltCreate>;
type VcCreateFields = Static<typeof VcCreate>;
type IltEditFields = Static<typeof IltEdit>;
type VcEditFields = Static<typeof VcEdit>;

/** The create body of an in-class event; virtual-classroom-only fields (`sessions`, …) do not compile. */
export type IltCreateBody = IltCreateFields & Without<Exclude<keyof VcCreateFields, keyof IltCreateFields>>;
/** The create body of a virtual classroom event; in-class-only fields (`venue`, `days`, `location`, …) do not compile. */
export type VcCreateBody = VcCreateFields & Without<Exclude<keyof IltCreateFields, keyof VcCreateFields>>;
/** The edit body (a full replacement) of an in-class event. */
export type IltEditBody = IltEditFields & Without<Exclude<keyof VcEditFields, keyof IltEditFields>>;
/** The edit body (a full replacement) of a virtual classroom event. */
export type VcEditBody = VcEditFields & Without<Exclude<keyof IltEditFields, keyof VcEditFields>>;

/** Create and edit bodies per event kind. */
export interface EventBodies {
  ilt: { create: IltCreateBody; edit: IltEditBody };
  vc: { create: VcCreateBody; edit: VcEditBody };
}

/** One participant of an event (a user of the participants answer). */
export type Participant = ParticipantsResponse['users'][number];
/** One user's attendance. */
export type Attendance = AttendanceResponse['usersAttendanceData'][number];

/** List parameters: the filters, `limit` as the page size (clamped to the list's maximum) and a first `start`. */
export type AcademyListParams<Q> = Partial<Q>;

// ------------------------------------------------------------------------------------------------ limits

/**
 * Largest `limit` of each list. The directory's come from the server's constants (a type check fails if they
 * drift); the event lists' are those of docs/academy-api.md.
 */
const MAX = {
  events: 100,
  offers: 20,
  participants: 100,
  attendance: 20,
  users: 100 as typeof USERS_MAX_LIMIT,
  courses: 100 as typeof COURSES_MAX_LIMIT,
  curriculums: 100 as typeof CURRICULUMS_MAX_LIMIT,
  categories: 100 as typeof CATEGORIES_MAX_LIMIT,
  venues: 20 as typeof VENUES_MAX_LIMIT,
} as const;

/** Page size: the caller's `limit`, else the list's maximum, never above it, at least 1. */
function pageSize(limit: unknown, max: number): number {
  const n = typeof limit === 'number' && Number.isFinite(limit) ? Math.floor(limit) : max;
  return Math.min(max, Math.max(1, n));
}

// ------------------------------------------------------------------------------------------------ core

/** Constructor options of {@link AcademyClient}. */
export interface AcademyClientOptions extends HttpOptions {
  /** The server's origin, for example `http://127.0.0.1:8080`; the client adds `/v1`. One ending in `/v1` works too. */
  baseUrl: string;
  /** The academy id. */
  acadId: number | string;
  /** The academy's API key, sent in the `X-API-Key` header (never in the URL). Never logged. */
  apiKey: string;
}

/** Normalises `baseUrl` to the API root `…/v1` (no trailing slash). */
export function academyApiRoot(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new AtriumUsageError(`baseUrl must be an absolute URL such as http://127.0.0.1:8080, not "${baseUrl}".`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/v1') ? path : `${path}/v1`;
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** `a=1&ids=1&ids=2`: arrays as repeated keys, undefined and null left out. */
function academyQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  return params.toString();
}

interface CallInit {
  query?: Record<string, unknown>;
  body?: unknown;
  idempotent?: boolean;
}

/** @internal */
class AcademyCore {
  readonly root: string;
  readonly http: HttpTransport;

  constructor(private readonly options: AcademyClientOptions) {
    this.root = academyApiRoot(options.baseUrl);
    this.http = new HttpTransport(options);
  }

  error(request: HttpRequest, response: Response, text: string): AcademyApiError {
    return academyError(errorInitOf(request, response, text, academyFallbackCode));
  }

  async send(
    method: string,
    path: string,
    init: CallInit,
    options?: RequestOptions,
  ): Promise<{ response: Response; text: string }> {
    const query = academyQuery({ acadId: this.options.acadId, ...(init.query ?? {}) });
    const headers: Record<string, string> = { 'x-api-key': this.options.apiKey, accept: 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const request: HttpRequest = {
      method,
      url: `${this.root}${path}?${query}`,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.idempotent !== undefined ? { idempotent: init.idempotent } : {}),
    };
    const { response, text = '' } = await this.http.send(request, options);
    if (!response.ok) throw this.error(request, response, text);
    return { response, text };
  }

  async json<T>(method: string, path: string, init: CallInit = {}, options?: RequestOptions): Promise<T> {
    const { text } = await this.send(method, path, init, options);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * A `start`/`limit` list. `extract` reads a page's items (and total, when the answer has one); pages follow until
   * the total is reached, or a page comes back shorter than the page size.
   */
  pager<T, R>(
    path: string,
    params: Record<string, unknown> | undefined,
    max: number,
    extract: (answer: R) => { items: T[]; total?: number },
    options: RequestOptions = {},
  ): AutoPager<T> {
    const { start, limit, ...filters } = params ?? {};
    const size = pageSize(limit, max);
    const first = typeof start === 'number' && start > 0 ? String(Math.floor(start)) : undefined;
    return new AutoPager<T>(
      async (at, opts): Promise<Page<T>> => {
        const position = at ? Number(at) : 0;
        const { response, text } = await this.send(
          'GET',
          path,
          { query: { ...filters, start: position, limit: size } },
          opts,
        );
        const { items, total } = extract(JSON.parse(text) as R);
        const reached = position + items.length;
        const more = items.length > 0 && (total !== undefined ? reached < total : items.length >= size);
        const requestId = response.headers.get('x-request-id');
        return {
          items,
          ...(total !== undefined ? { total } : {}),
          ...(more ? { nextCursor: String(reached) } : {}),
          ...(requestId ? { requestId } : {}),
        };
      },
      options,
      first,
    );
  }
}

function eventKind<K extends Kind>(core: AcademyCore, kind: K) {
  const base = `/events/${kind}`;
  const one = (id: number, suffix = '') => `${base}/${encodeURIComponent(String(id))}${suffix}`;
  return {
    /**
     * Every event of this kind matching the filters (default `status=active`), ordered by start date: an
     * {@link AutoPager} over `start`/`limit` pages (at most 100 per page). Each page carries `total` (`all`).
     */
    list: (params?: AcademyListParams<ListQuery>, options?: RequestOptions): AutoPager<EventListItem> =>
      core.pager<EventListItem, { all: number; events: EventListItem[] }>(
        base,
        params,
        MAX.events,
        (a) => ({ items: a.events, total: a.all }),
        options,
      ),
    /** One event's detail. */
    retrieve: (id: number, options?: RequestOptions): Promise<EventDetail> => core.json('GET', one(id), {}, options),
    /** Creates an event (`POST`); the answer is its detail. Not retried unless `retryNonIdempotent`. */
    create: (body: EventBodies[K]['create'], options?: RequestOptions): Promise<EventDetail> =>
      core.json('POST', base, { body }, options),
    /** Edits an event (`PUT`, a full replacement of the editable fields). */
    update: (id: number, body: EventBodies[K]['edit'], options?: RequestOptions): Promise<EventDetail> =>
      core.json('PUT', one(id), { body }, options),
    /** Deletes an event (and, for a bundle's main event, its offers). */
    del: (id: number, options?: RequestOptions): Promise<Static<typeof DeleteResponse>> =>
      core.json('DELETE', one(id), {}, options),
    /** The offers of a bundle, main event first (pages of at most 20). */
    offers: (id: number, params?: AcademyListParams<OffersQuery>, options?: RequestOptions): AutoPager<EventDetail> =>
      core.pager<EventDetail, EventDetail[]>(one(id, '/offers'), params, MAX.offers, (a) => ({ items: a }), options),
    /** The participants (pages of at most 100, `total` = `users_count`). */
    participants: (
      id: number,
      params?: AcademyListParams<UsersQuery>,
      options?: RequestOptions,
    ): AutoPager<Participant> =>
      core.pager<Participant, ParticipantsResponse>(
        one(id, '/users'),
        params,
        MAX.participants,
        (a) => ({ items: a.users, total: a.users_count }),
        options,
      ),
    /** One page of the participants answer as the server sends it (title, dates, instructors, users). */
    participantsPage: (
      id: number,
      params?: AcademyListParams<UsersQuery>,
      options?: RequestOptions,
    ): Promise<ParticipantsResponse> => core.json('GET', one(id, '/users'), { query: params }, options),
    /** Attendance per user (pages of at most 20). */
    attendance: (
      id: number,
      params?: AcademyListParams<AttendanceQuery>,
      options?: RequestOptions,
    ): AutoPager<Attendance> =>
      core.pager<Attendance, AttendanceResponse>(
        one(id, '/users-attendance-data'),
        params,
        MAX.attendance,
        (a) => ({ items: a.usersAttendanceData }),
        options,
      ),
    /** Converts a registration-based event to a bundle of offers. Not retried unless `retryNonIdempotent`. */
    convertToBundle: (
      id: number,
      body: ConvertBody,
      options?: RequestOptions,
    ): Promise<Static<typeof BundleResponse>> =>
      core.json('PUT', one(id, '/convertToBundle'), { body, idempotent: false }, options),
    /** Adds offers to a bundle (at most 60 per call). Not retried unless `retryNonIdempotent`. */
    addOffers: (id: number, body: AddOffersBody, options?: RequestOptions): Promise<Static<typeof BundleResponse>> =>
      core.json('PUT', one(id, '/addOffers'), { body, idempotent: false }, options),
    /** Registers users (an Atrium extension). */
    register: (
      id: number,
      body: Static<typeof RegisterBody>,
      options?: RequestOptions,
    ): Promise<Static<typeof RegistrationsResponse>> => core.json('POST', one(id, '/users'), { body }, options),
    /** Approves, cancels, or marks a registration absent or completed; records attendance (an Atrium extension). */
    updateRegistration: (
      id: number,
      userId: number,
      body: RegistrationUpdateBody,
      options?: RequestOptions,
    ): Promise<Static<typeof RegistrationsResponse>> =>
      core.json('PUT', one(id, `/users/${encodeURIComponent(String(userId))}`), { body }, options),
    /** Cancels an event (an Atrium extension). */
    cancel: (id: number, options?: RequestOptions): Promise<EventDetail> =>
      core.json('PUT', one(id, '/cancel'), {}, options),
    /** The event's iCalendar file, as text (an Atrium extension). */
    calendar: async (id: number, options?: RequestOptions): Promise<string> =>
      (await core.send('GET', one(id, '/calendar'), {}, options)).text,
  };
}

function directory<T, Q>(core: AcademyCore, path: string, max: number) {
  return {
    /** Every item, in id order: an {@link AutoPager} over `start`/`limit` pages. */
    list: (params?: AcademyListParams<Q>, options?: RequestOptions): AutoPager<T> =>
      core.pager<T, T[]>(path, params as Record<string, unknown>, max, (a) => ({ items: a }), options),
  };
}

function academyResources(core: AcademyCore) {
  const users = directory<User, DirectoryUsersQuery>(core, '/users', MAX.users);
  const courses = directory<Course, CoursesQuery>(core, '/courses', MAX.courses);
  const curriculums = directory<Curriculum, CurriculumsQuery>(core, '/curriculums', MAX.curriculums);
  return {
    events: {
      /** In-class events (`/events/ilt`). */
      ilt: eventKind(core, 'ilt'),
      /** Virtual classroom events (`/events/vc`). */
      vc: eventKind(core, 'vc'),
      /**
       * Which of these users (at most 10) are registered to an event of either kind (`GET /users/{eventid}/events`,
       * an Atrium extension).
       */
      registrationsOfUsers: (
        eventId: number,
        userIds: number[],
        options?: RequestOptions,
      ): Promise<UserEventRegistration[]> =>
        core.json('GET', `/users/${encodeURIComponent(String(eventId))}/events`, { query: { userIds } }, options),
    },
    users: {
      ...users,
      /** One user. */
      retrieve: (id: number, options?: RequestOptions): Promise<User> => core.json('GET', `/users/${id}`, {}, options),
    },
    courses: {
      ...courses,
      /** One course. */
      retrieve: (id: number, options?: RequestOptions): Promise<Course> =>
        core.json('GET', `/courses/${id}`, {}, options),
    },
    curriculums: {
      ...curriculums,
      /** One learning path. */
      retrieve: (id: number, options?: RequestOptions): Promise<Curriculum> =>
        core.json('GET', `/curriculums/${id}`, {}, options),
    },
    content: {
      /** Academy categories (`/content/categories`). */
      categories: directory<Category, CategoriesQuery>(core, '/content/categories', MAX.categories),
      /** Venues of in-class events (`/content/venues`, pages of at most 20). */
      venues: directory<Venue, VenuesQuery>(core, '/content/venues', MAX.venues),
      /** Timezones (`/content/timezones`): ids for `timezoneId`. */
      timezones: {
        /** Every timezone (one answer, not paged). */
        list: (options?: RequestOptions): Promise<Timezone[]> => core.json('GET', '/content/timezones', {}, options),
      },
    },
  };
}

type AcademyResources = ReturnType<typeof academyResources>;

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
  private readonly resources: AcademyResources;

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
    this.resources = academyResources(this.core);
  }

  /** The API root the client calls, `…/v1`. */
  get apiRoot(): string {
    return this.core.root;
  }

  /** Training events: `events.ilt` (in-class), `events.vc` (virtual classroom), `events.registrationsOfUsers`. */
  get events(): AcademyResources['events'] {
    return this.resources.events;
  }
  /** The academy's users (`/users`). */
  get users(): AcademyResources['users'] {
    return this.resources.users;
  }
  /** Courses (`/courses`). */
  get courses(): AcademyResources['courses'] {
    return this.resources.courses;
  }
  /** Learning paths (`/curriculums`). */
  get curriculums(): AcademyResources['curriculums'] {
    return this.resources.curriculums;
  }
  /** Categories, venues and timezones (`/content/…`). */
  get content(): AcademyResources['content'] {
    return this.resources.content;
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
