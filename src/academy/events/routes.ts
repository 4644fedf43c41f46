/**
 * The Academy events API's routes: events (CRUD, cancel, calendar), their bundles' offers, and their people
 * (participants, attendance, registrations), registered per kind in the order the OpenAPI document lists them.
 */
import { type TRefUnsafe, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { academyErrors } from '../errors.js';
import type { OffersService } from './offers-service.js';
import {
  attendance,
  calendar,
  eventDetail,
  eventListItem,
  participants,
  registration,
  userEventRegistration,
} from './present.js';
import type { RegistrationsService } from './registrations-service.js';
import {
  AddOffersBody,
  AttendanceQuery,
  AttendanceResponse,
  BundleResponse,
  ConvertBody,
  DeleteResponse,
  type EventBody,
  EventDetail,
  EventListItem,
  EventParams,
  IltCreate,
  IltEdit,
  KINDS,
  type Kind,
  ListEnvelope,
  ListQuery,
  OffersQuery,
  ParticipantsResponse,
  RegisterBody,
  RegistrationParams,
  RegistrationsResponse,
  RegistrationUpdateBody,
  UserEventsQuery,
  UserEventsResponse,
  UsersQuery,
  VcCreate,
  VcEdit,
} from './schemas.js';
import type { EventsService } from './service.js';

const NAMES: Record<Kind, string> = { ilt: 'in-class', vc: 'virtual classroom' };
const EXTENSION = 'Atrium extension (not in the Academy API spec).';

const typed = (app: FastifyInstance) => app.withTypeProvider<TypeBoxTypeProvider>();
type Api = ReturnType<typeof typed>;

/** What the routes of one kind of event share: the typed app, the kind, its path, tags and names. */
interface KindScope {
  api: Api;
  kind: Kind;
  base: string;
  tags: string[];
  extTags: string[];
  name: string;
  aName: string;
  Detail: TRefUnsafe<typeof EventDetail>;
}

export async function eventRoutes(
  app: FastifyInstance,
  opts: { events: EventsService; offers: OffersService; registrations: RegistrationsService },
): Promise<void> {
  const { events, offers, registrations } = opts;
  app.addSchema(EventDetail);
  app.addSchema(EventListItem);
  const api = typed(app);
  const Detail = Type.Ref(EventDetail);

  userEventsRoute(api, registrations);
  for (const kind of KINDS) {
    const name = NAMES[kind];
    const scope: KindScope = {
      api,
      kind,
      base: `/events/${kind}`,
      tags: [`Events (${kind})`],
      extTags: ['Atrium extensions'],
      name,
      aName: `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`,
      Detail,
    };
    eventCrudRoutes(scope, events);
    offerListRoutes(scope, offers);
    participantRoutes(scope, registrations);
    bundleRoutes(scope, offers);
    // Atrium extensions
    registrationRoutes(scope, registrations);
    eventExtensionRoutes(scope, events);
  }
}

function userEventsRoute(api: Api, registrations: RegistrationsService): void {
  // Spazz's getRegisteredUsersFutureEvents: the path names the event, not the user, and no kind.
  api.get(
    '/users/:eventid/events',
    {
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Which of these users are registered to an event (either kind)',
        description: `${EXTENSION} As Spazz’s schoox-api client calls it (\`userIds[]=…\`, at most 10): for the event :eventid, of either kind, one item per requested user who is registered (any state but cancelled), in the order asked; users who are not registered are left out.`,
        params: EventParams,
        querystring: UserEventsQuery,
        response: { 200: UserEventsResponse, ...academyErrors(400, 401, 404) },
      },
    },
    async (request) => {
      const ids = request.query.userIds;
      const found = await registrations.registrationsOfUsers(
        request.academy,
        request.params.eventid,
        Array.isArray(ids) ? ids : [ids],
      );
      return found.registrations.map((r) => userEventRegistration(found.event, r));
    },
  );
}

/** An event: list, create, get, edit, delete. */
function eventCrudRoutes(scope: KindScope, events: EventsService): void {
  const { api, kind, base, tags, name, aName, Detail } = scope;
  api.get(
    base,
    {
      schema: {
        tags,
        summary: `List ${name} events`,
        description:
          'Ordered by start date, then id; offers appear like any other event. `limit` above 100 is clamped to 100.',
        querystring: ListQuery,
        response: { 200: ListEnvelope, ...academyErrors(400, 401) },
      },
    },
    async (request) => {
      const { all, events: views } = await events.list(request.academy, kind, request.query);
      return { all, events: views.map(eventListItem) };
    },
  );

  api.post(
    base,
    {
      schema: {
        tags,
        summary: `Create ${aName} event`,
        body: kind === 'ilt' ? IltCreate : VcCreate,
        response: { 201: Detail, ...academyErrors(400, 401) },
      },
    },
    async (request, reply) => {
      const view = await events.create(request.academy, kind, request.body as EventBody);
      return reply.status(201).send(eventDetail(view));
    },
  );

  api.get(
    `${base}/:eventid`,
    {
      schema: {
        tags,
        summary: `Get ${aName} event`,
        params: EventParams,
        response: { 200: Detail, ...academyErrors(401, 404) },
      },
    },
    async (request) => eventDetail(await events.view(request.academy, kind, request.params.eventid)),
  );

  api.put(
    `${base}/:eventid`,
    {
      schema: {
        tags,
        summary: `Edit ${aName} event`,
        description:
          'Omitted externalInstructors clears them; omitted schooxInstructors resets them to the super administrator; based, courseId and curriculumId cannot change.',
        params: EventParams,
        body: kind === 'ilt' ? IltEdit : VcEdit,
        response: { 200: Detail, ...academyErrors(400, 401, 404) },
      },
    },
    async (request) =>
      eventDetail(await events.edit(request.academy, kind, request.params.eventid, request.body as EventBody)),
  );

  api.delete(
    `${base}/:eventid`,
    {
      schema: {
        tags,
        summary: `Delete ${aName} event`,
        description: 'Deleting a bundle’s main event deletes its offers too.',
        params: EventParams,
        response: { 200: DeleteResponse, ...academyErrors(401, 404) },
      },
    },
    async (request) => {
      await events.delete(request.academy, kind, request.params.eventid);
      return { status: 200, message: 'Event deleted successfully.' };
    },
  );
}

/** A bundle's offers (GET, under both of its paths). */
function offerListRoutes(scope: KindScope, offers: OffersService): void {
  const { api, kind, base, tags, aName, Detail } = scope;
  const offersRoute = {
    schema: {
      tags,
      summary: `Offers of ${aName} bundle`,
      description: 'The bundle’s events, main first; only the event itself when not bundled. `limit` is at most 20.',
      params: EventParams,
      querystring: OffersQuery,
      response: { 200: Type.Array(Detail), ...academyErrors(400, 401, 404) },
    },
  };
  api.get(`${base}/:eventid/offers`, offersRoute, async (request) =>
    (await offers.offers(request.academy, kind, request.params.eventid, request.query)).map(eventDetail),
  );
  api.get(
    `${base}/:eventid/addOffers`,
    {
      schema: {
        ...offersRoute.schema,
        summary: `Offers of ${aName} bundle (GET addOffers, as the official client calls it)`,
      },
    },
    async (request) =>
      (await offers.offers(request.academy, kind, request.params.eventid, request.query)).map(eventDetail),
  );
}

/** An event's participants and instructors, and its attendance (under both of its paths). */
function participantRoutes(scope: KindScope, registrations: RegistrationsService): void {
  const { api, kind, base, tags, aName } = scope;
  api.get(
    `${base}/:eventid/users`,
    {
      schema: {
        tags,
        summary: `Participants and instructors of ${aName} event`,
        description:
          '`limit` is at most 100. With onlyCompleted, each user carries `certificate_date` (ISO 8601 with offset).',
        params: EventParams,
        querystring: UsersQuery,
        response: { 200: ParticipantsResponse, ...academyErrors(400, 401, 404) },
      },
    },
    async (request) =>
      participants(
        await registrations.participants(request.academy, kind, request.params.eventid, request.query),
        request.query.onlyCompleted === true,
      ),
  );

  const attendanceRoute = {
    schema: {
      tags,
      summary: `Attendance per user of ${aName} event`,
      description: '`limit` is at most 20; search filters by the user name.',
      params: EventParams,
      querystring: AttendanceQuery,
      response: { 200: AttendanceResponse, ...academyErrors(400, 401, 404) },
    },
  };
  for (const path of [`${base}/:eventid/users-attendance-data`, `${base}/:eventid/usersAttendanceData`]) {
    api.get(path, attendanceRoute, async (request) =>
      attendance(await registrations.attendance(request.academy, kind, request.params.eventid, request.query)),
    );
  }
}

/** An event converted to a bundle, and offers added to one. */
function bundleRoutes(scope: KindScope, offers: OffersService): void {
  const { api, kind, base, tags, aName } = scope;
  api.put(
    `${base}/:eventid/convertToBundle`,
    {
      schema: {
        tags,
        summary: `Convert ${aName} event to a bundle of offers`,
        description:
          'Registration-based events only. mustRetake is required only with canMulti `yes`; retakeEvery (alias attendEvery) only when mustRetake is true. At most 60 offers per request.',
        params: EventParams,
        body: ConvertBody,
        response: { 200: BundleResponse, ...academyErrors(400, 401, 404, 409) },
      },
    },
    async (request) => ({
      status: 200,
      ...(await offers.convertToBundle(request.academy, kind, request.params.eventid, request.body)),
    }),
  );

  api.put(
    `${base}/:eventid/addOffers`,
    {
      schema: {
        tags,
        summary: `Add offers to ${aName} bundle`,
        description: 'At most 60 offers per request (else 400) and 6000 per event (else 409), enforced atomically.',
        params: EventParams,
        body: AddOffersBody,
        response: { 200: BundleResponse, ...academyErrors(400, 401, 404, 409) },
      },
    },
    async (request) => ({
      status: 200,
      ...(await offers.addOffers(request.academy, kind, request.params.eventid, request.body)),
    }),
  );
}

/** Registrations (Atrium extension): users registered, a registration updated. */
function registrationRoutes(scope: KindScope, registrations: RegistrationsService): void {
  const { api, kind, base, extTags, aName } = scope;
  api.post(
    `${base}/:eventid/users`,
    {
      schema: {
        tags: extTags,
        summary: `Register users to ${aName} event or offer`,
        description: `${EXTENSION} autoApproved decides approval; beyond maxAttendees users are waitlisted when blockReservations is true, else refused (409). Registration closes registrationDeadline hours before the start. canMulti applies across a bundle.`,
        params: EventParams,
        body: RegisterBody,
        response: { 201: RegistrationsResponse, ...academyErrors(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const rows = await registrations.register(request.academy, kind, request.params.eventid, request.body.userIds);
      return reply
        .status(201)
        .send({ status: 201, message: 'Users registered.', registrations: rows.map(registration) });
    },
  );

  api.put(
    `${base}/:eventid/users/:userId`,
    {
      schema: {
        tags: extTags,
        summary: `Approve, cancel, or mark absent or completed; record attendance (${kind})`,
        description: `${EXTENSION} Completion sets the certificate date. Cancelling a seated user gives the seat to the first waitlisted user.`,
        params: RegistrationParams,
        body: RegistrationUpdateBody,
        response: { 200: RegistrationsResponse, ...academyErrors(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const row = await registrations.updateRegistration(
        request.academy,
        kind,
        request.params.eventid,
        request.params.userId,
        request.body,
      );
      return { status: 200, message: 'Registration updated.', registrations: [registration(row)] };
    },
  );
}

/** An event canceled, and its calendar file (Atrium extensions). */
function eventExtensionRoutes(scope: KindScope, events: EventsService): void {
  const { api, kind, base, extTags, aName, Detail } = scope;
  api.put(
    `${base}/:eventid/cancel`,
    {
      schema: {
        tags: extTags,
        summary: `Cancel ${aName} event`,
        description: `${EXTENSION} The event then appears under status=canceled and not under active.`,
        params: EventParams,
        response: { 200: Detail, ...academyErrors(401, 404) },
      },
    },
    async (request) => eventDetail(await events.cancel(request.academy, kind, request.params.eventid)),
  );

  api.get(
    `${base}/:eventid/calendar`,
    {
      schema: {
        tags: extTags,
        summary: `Calendar file (iCalendar) of ${aName} event`,
        description: `${EXTENSION} One VEVENT per session; the description is customCalMessage (else the event description).`,
        params: EventParams,
        response: { 200: { type: 'string', description: 'text/calendar' }, ...academyErrors(401, 404) },
      },
    },
    async (request, reply) => {
      const view = await events.view(request.academy, kind, request.params.eventid);
      return reply
        .type('text/calendar; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="event-${view.row.id}.ics"`)
        .send(calendar(view, request.hostname.split(':')[0] ?? 'atrium'));
    },
  );
}
