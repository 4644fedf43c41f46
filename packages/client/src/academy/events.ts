/** Training events: in-class (`/events/ilt`) and virtual classroom (`/events/vc`), their offers and participants. */

import type { RequestOptions } from '../http.js';
import type { AutoPager } from '../pagination.js';
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
} from '../schemas/academy/events.js';
import { type AcademyCore, type AcademyListParams, MAX } from './core.js';

/** Forbids keys `K`: `{ venue?: never }` makes `venue` a compile error. */
type Without<K extends PropertyKey> = { [P in K]?: never };

type IltCreateFields = IltCreate;
type VcCreateFields = VcCreate;
type IltEditFields = IltEdit;
type VcEditFields = VcEdit;

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
    del: (id: number, options?: RequestOptions): Promise<DeleteResponse> => core.json('DELETE', one(id), {}, options),
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
    convertToBundle: (id: number, body: ConvertBody, options?: RequestOptions): Promise<BundleResponse> =>
      core.json('PUT', one(id, '/convertToBundle'), { body, idempotent: false }, options),
    /** Adds offers to a bundle (at most 60 per call). Not retried unless `retryNonIdempotent`. */
    addOffers: (id: number, body: AddOffersBody, options?: RequestOptions): Promise<BundleResponse> =>
      core.json('PUT', one(id, '/addOffers'), { body, idempotent: false }, options),
    /** Registers users (an Atrium extension). */
    register: (id: number, body: RegisterBody, options?: RequestOptions): Promise<RegistrationsResponse> =>
      core.json('POST', one(id, '/users'), { body }, options),
    /** Approves, cancels, or marks a registration absent or completed; records attendance (an Atrium extension). */
    updateRegistration: (
      id: number,
      userId: number,
      body: RegistrationUpdateBody,
      options?: RequestOptions,
    ): Promise<RegistrationsResponse> =>
      core.json('PUT', one(id, `/users/${encodeURIComponent(String(userId))}`), { body }, options),
    /** Cancels an event (an Atrium extension). */
    cancel: (id: number, options?: RequestOptions): Promise<EventDetail> =>
      core.json('PUT', one(id, '/cancel'), {}, options),
    /** The event's iCalendar file, as text (an Atrium extension). */
    calendar: async (id: number, options?: RequestOptions): Promise<string> =>
      (await core.send('GET', one(id, '/calendar'), {}, options)).text,
  };
}

/** `academy.events`. */
export function events(core: AcademyCore) {
  return {
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
  };
}
