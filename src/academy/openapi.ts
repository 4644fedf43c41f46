import { Type } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import type { ApiDocumentation, OperationContext } from '../platform/http/openapi.js';
import { noSuch } from '../platform/http/openapi.js';
import { AcademyErrorBody } from './errors.js';
import { ACADEMY_EXAMPLES } from './openapi-examples.js';

/** Names of the Academy API's security schemes (declared with the OpenAPI document in platform/http/server.ts). */
export const ACADEMY_SECURITY: Record<string, string[]>[] = [{ academyApiKey: [] }, { academyApiKeyHeader: [] }];

const AcadId = Type.Integer({
  minimum: 1,
  description:
    'The academy id (required on every call), with its key in the `apikey` query parameter or the `X-API-Key` header.',
});

interface QuerySchema {
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/**
 * Fills in what every `/v1` route has in common, so each route declares only
 * its own parameters: the academy's security schemes instead of the HR bearer
 * token, `acadId` as a required query parameter (also validated: an integer),
 * and the 429 of the rate limit. Unknown query parameters stay accepted.
 * Runs as the plugin's onRoute hook, before Fastify compiles the route.
 */
export function documentAcademyRoute(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const qs = schema.querystring as QuerySchema | undefined;
  // The automatic HEAD route shares its GET's schema: already done.
  if (qs?.properties?.acadId) return;
  const querystring = qs
    ? { ...qs, properties: { acadId: AcadId, ...qs.properties }, required: ['acadId', ...(qs.required ?? [])] }
    : Type.Object({ acadId: AcadId });
  const response = schema.response as Record<string, unknown> | undefined;
  const writes = (Array.isArray(route.method) ? route.method : [route.method]).some((m) => m !== 'GET' && m !== 'HEAD');
  route.schema = {
    ...schema,
    querystring,
    security: ACADEMY_SECURITY,
    // A write refuses a view pass (the console's read-only access) with a 403.
    ...(response
      ? {
          response: {
            ...(writes ? { 403: Type.Ref(AcademyErrorBody) } : {}),
            ...response,
            429: Type.Ref(AcademyErrorBody),
          },
        }
      : {}),
  };
}

/**
 * The Academy API's part of the OpenAPI document beyond its route schemas (platform/http/openapi.ts): each
 * operation's SDK method (its operationId is `academy_` and the method's path with underscores:
 * `academy_events_ilt_list`; a second spelling served for the official client is its first spelling's id with
 * `_alias`), the nouns of its collections, and the descriptions that do not follow from the shape of the operation.
 */
export const ACADEMY_OPERATIONS: Readonly<Record<string, string>> = {
  'GET /users/{eventid}/events': 'events.registrationsOfUsers',
  'GET /events/ilt': 'events.ilt.list',
  'POST /events/ilt': 'events.ilt.create',
  'GET /events/ilt/{eventid}': 'events.ilt.retrieve',
  'PUT /events/ilt/{eventid}': 'events.ilt.update',
  'DELETE /events/ilt/{eventid}': 'events.ilt.del',
  'GET /events/ilt/{eventid}/offers': 'events.ilt.offers',
  'GET /events/ilt/{eventid}/addOffers': 'events.ilt.offers.alias',
  'PUT /events/ilt/{eventid}/addOffers': 'events.ilt.addOffers',
  'GET /events/ilt/{eventid}/users': 'events.ilt.participants',
  'POST /events/ilt/{eventid}/users': 'events.ilt.register',
  'GET /events/ilt/{eventid}/users-attendance-data': 'events.ilt.attendance',
  'GET /events/ilt/{eventid}/usersAttendanceData': 'events.ilt.attendance.alias',
  'PUT /events/ilt/{eventid}/convertToBundle': 'events.ilt.convertToBundle',
  'PUT /events/ilt/{eventid}/users/{userId}': 'events.ilt.updateRegistration',
  'PUT /events/ilt/{eventid}/cancel': 'events.ilt.cancel',
  'GET /events/ilt/{eventid}/calendar': 'events.ilt.calendar',
  'GET /events/vc': 'events.vc.list',
  'POST /events/vc': 'events.vc.create',
  'GET /events/vc/{eventid}': 'events.vc.retrieve',
  'PUT /events/vc/{eventid}': 'events.vc.update',
  'DELETE /events/vc/{eventid}': 'events.vc.del',
  'GET /events/vc/{eventid}/offers': 'events.vc.offers',
  'GET /events/vc/{eventid}/addOffers': 'events.vc.offers.alias',
  'PUT /events/vc/{eventid}/addOffers': 'events.vc.addOffers',
  'GET /events/vc/{eventid}/users': 'events.vc.participants',
  'POST /events/vc/{eventid}/users': 'events.vc.register',
  'GET /events/vc/{eventid}/users-attendance-data': 'events.vc.attendance',
  'GET /events/vc/{eventid}/usersAttendanceData': 'events.vc.attendance.alias',
  'PUT /events/vc/{eventid}/convertToBundle': 'events.vc.convertToBundle',
  'PUT /events/vc/{eventid}/users/{userId}': 'events.vc.updateRegistration',
  'PUT /events/vc/{eventid}/cancel': 'events.vc.cancel',
  'GET /events/vc/{eventid}/calendar': 'events.vc.calendar',
  'GET /users': 'users.list',
  'GET /users/{id}': 'users.retrieve',
  'GET /courses': 'courses.list',
  'GET /courses/{id}': 'courses.retrieve',
  'GET /curriculums': 'curriculums.list',
  'GET /curriculums/{id}': 'curriculums.retrieve',
  'GET /curriculum/{id}': 'curriculums.retrieve.alias',
  'GET /content/categories': 'content.categories.list',
  'GET /content/venues': 'content.venues.list',
  'GET /content/timezones': 'content.timezones.list',
  'GET /content': 'content.items.list',
  'GET /users/{userId}/badges': 'users.badges',
  'GET /courses/categories': 'courses.categories',
  'GET /courses/user/{userId}': 'courses.ofUser',
  'GET /courses/{id}/students': 'courses.students',
  'GET /courses/{id}/lectures': 'courses.lectures',
  'GET /courses/{id}/exams': 'courses.exams',
  'GET /courses/{id}/skills': 'courses.skills',
  'GET /courses/{id}/coupons': 'courses.coupons',
  'GET /courses/{id}/coupons/{couponId}': 'courses.couponStudents',
  'GET /courses/{id}/invitations': 'courses.invitations',
  'GET /curriculums/user/{userId}': 'curriculums.ofUser',
  'GET /curriculums/{id}/students': 'curriculums.students',
  'PUT /curriculums/{id}/completeByAdmin': 'curriculums.completeByAdmin',
  'GET /usage': 'usage.retrieve',
};

const NOUNS: Record<string, readonly [string, string]> = {
  ilt: ['in-class event', 'in-class events'],
  vc: ['virtual classroom event', 'virtual classroom events'],
  users: ['user', 'users'],
  courses: ['course', 'courses'],
  curriculums: ['curriculum', 'curriculums'],
  curriculum: ['curriculum', 'curriculums'],
  categories: ['content category', 'content categories'],
  venues: ['venue', 'venues'],
  timezones: ['timezone', 'timezones'],
  content: ['content item', 'content items'],
  badges: ['badge', 'badges'],
  user: ['user', 'users'],
  students: ['student', 'students'],
  lectures: ['lecture', 'lectures'],
  exams: ['exam', 'exams'],
  skills: ['skill', 'skills'],
  coupons: ['coupon', 'coupons'],
  invitations: ['invitation', 'invitations'],
};

/** The in-class and virtual classroom events share their routes, hence their descriptions. */
function events(kind: 'ilt' | 'vc'): Record<string, Record<number, string>> {
  const base = `/events/${kind}`;
  const what = NOUNS[kind]?.[0] ?? kind;
  const offers = `The offers of the bundle, its main ${what} first.`;
  const attendance = 'The attendance of each registered user, per session or day.';
  return {
    [`GET ${base}`]: {
      200: `The page of ${what}s, ordered by start date, with \`all\`, the number of matching events.`,
    },
    [`POST ${base}`]: { 201: `The ${what}, created.` },
    [`PUT ${base}/{eventid}`]: { 200: `The ${what}, edited.` },
    [`DELETE ${base}/{eventid}`]: { 200: `The ${what} is deleted, with its offers and registrations.` },
    [`GET ${base}/{eventid}/offers`]: { 200: offers },
    [`GET ${base}/{eventid}/addOffers`]: { 200: offers },
    [`PUT ${base}/{eventid}/addOffers`]: {
      200: "The offers are added: the dates added and the bundle's latest date.",
      409: "The event is not a bundle's main event, or the bundle would pass 6000 offers (`conflict`).",
    },
    [`GET ${base}/{eventid}/users`]: { 200: `The participants and instructors of the ${what}, a page at a time.` },
    [`POST ${base}/{eventid}/users`]: {
      201: "The registrations made, each approved, pending or waitlisted, with the event's counters.",
      409: 'The event is cancelled or full (its waiting list off), or a user may not attend another offer of the bundle (`conflict`).',
    },
    [`GET ${base}/{eventid}/users-attendance-data`]: { 200: attendance },
    [`GET ${base}/{eventid}/usersAttendanceData`]: { 200: attendance },
    [`PUT ${base}/{eventid}/convertToBundle`]: {
      200: `The ${what} is a bundle: the offers added and the bundle's latest date.`,
      409: 'The event is already part of a bundle (`conflict`).',
    },
    [`PUT ${base}/{eventid}/users/{userId}`]: {
      200: "The registrations, updated, with the event's counters.",
      404: `No such ${what}, or the user is not registered to it, in this academy.`,
      409: "The change is not allowed from the registration's state (a cancelled one approved, a pending one completed…) (`conflict`).",
    },
    [`PUT ${base}/{eventid}/cancel`]: { 200: `The ${what}, cancelled.` },
    [`GET ${base}/{eventid}/calendar`]: { 200: `The ${what} as an iCalendar file (\`text/calendar\`).` },
  };
}

const RESPONSES: Record<string, Record<number, string>> = {
  ...events('ilt'),
  ...events('vc'),
  'GET /users/{eventid}/events': { 404: 'No such event in this academy.' },
  'GET /curriculum/{id}': { 200: 'The curriculum (learning path).' },
  'GET /courses/categories': {
    200: 'The categories of the academy’s active courses, or of the courses the user is enrolled in.',
    404: 'No such user in this academy (`userId`).',
  },
  'GET /courses/user/{userId}': { 200: 'The courses the user is enrolled in, each with the enrollment.' },
  'GET /curriculums/user/{userId}': { 200: 'The curriculums the user is enrolled in, each with the enrollment.' },
  'GET /courses/{id}/coupons/{couponId}': { 200: 'The students who enrolled in the course with the coupon.' },
  'PUT /curriculums/{id}/completeByAdmin': {
    200: 'The users are marked completed: their ids (in the order given) and the completion date.',
    400: 'The body or a parameter is not valid, or a user does not exist (`validation_error`, naming `userIds.N`).',
  },
  'GET /usage': { 200: 'The calls the academy may still make in the current window, and when the window ends.' },
};

/** The description of an error status, from the API's error table (docs/academy-api.md). */
function describeError(status: number, op: OperationContext): string | undefined {
  switch (status) {
    case 400:
      return 'A parameter or the body is not valid; the message names it (`bad_request`).';
    case 401:
      return '`acadId` or the API key is missing or wrong, or the key has expired (`unauthorized`).';
    case 403:
      return 'The key is a view pass of the admin API, which only reads (`forbidden`).';
    case 404: {
      const owners = op.owners.length > 0 ? op.owners : op.noun ? [op.noun[0]] : [];
      return owners.length > 0 ? noSuch(owners, 'in this academy') : undefined;
    }
    case 409:
      return 'The request conflicts with the current state of the event (`conflict`).';
    case 429:
      return 'Too many requests for this academy or key: retry after `Retry-After` seconds (`rate_limited`).';
    default:
      return undefined;
  }
}

/** The Academy API's part of the OpenAPI document (platform/http/openapi.ts). */
export const ACADEMY_DOCUMENTATION: ApiDocumentation = {
  prefix: '/v1',
  idPrefix: 'academy',
  operations: ACADEMY_OPERATIONS,
  nouns: NOUNS,
  responses: RESPONSES,
  describeError,
  examples: ACADEMY_EXAMPLES,
};
