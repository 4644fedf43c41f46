/**
 * An event's people: its participants and instructors, its attendance list, and registrations (Atrium extension):
 * which users are registered, registering users (seats, waiting list, bundles), and updating a registration.
 */
import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { ConflictError, FieldValidationError, NotFoundError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { AcademyContext } from '../academies/service.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import type { ParticipantRecord, RegistrationRecord, RegistrationsRepository } from './registrations-repository.js';
import { type EventRecord, type EventsRepository, type PersonRecord, SEATED, ZERO_COUNTERS } from './repository.js';
import type { Kind, RegistrationUpdateBody } from './schemas.js';
import { ATTENDANCE_MAX_LIMIT, clamp, err, position, USERS_MAX_LIMIT } from './shared.js';
import { type EventView, loadEvent, readView, viewsWith } from './state.js';

/** Users per `GET /users/{eventid}/events` request (Spazz's client says at most 10). */
export const USER_EVENTS_MAX_USERS = 10;

export interface ParticipantsResult {
  view: EventView;
  total: number;
  instructors: PersonRecord[];
  users: ParticipantRecord[];
}

/** The repositories this service's writes touch, bound to one transaction in `work.run`. */
export interface RegistrationsWork {
  events: EventsRepository;
  registrations: RegistrationsRepository;
}

/** Participants, attendance and registrations of events. */
export class RegistrationsService {
  private readonly repo: EventsRepository;
  private readonly registrations: RegistrationsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, RegistrationsWork>,
    private readonly timezones: TimezoneRegistry,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.events;
    this.registrations = work.read.registrations;
  }

  // ------------------------------------------------------------ participants and attendance

  async participants(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    q: { start?: number; limit?: number; onlyCompleted?: boolean },
  ): Promise<ParticipantsResult> {
    const view = await readView(this.repo, this.timezones, this.clock, ctx, kind, id);
    const { total, rows } = await this.registrations.participants(
      ctx.academyId,
      id,
      { states: q.onlyCompleted ? ['completed'] : ['registered', 'waitlisted', 'completed', 'absent'] },
      position(q.start),
      clamp(q.limit, USERS_MAX_LIMIT),
    );
    const people = await this.repo.people(
      ctx.academyId,
      view.instructors.map((i) => i.userId),
    );
    const instructors = view.instructors
      .map((i) => people.get(i.userId))
      .filter((p): p is PersonRecord => p !== undefined);
    return { view, total, instructors, users: rows };
  }

  async attendance(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    q: { start?: number; limit?: number; search?: string },
  ): Promise<ParticipantRecord[]> {
    await loadEvent(this.repo, ctx, kind, id);
    const { rows } = await this.registrations.participants(
      ctx.academyId,
      id,
      { states: [...SEATED], ...(q.search ? { search: q.search } : {}) },
      position(q.start),
      clamp(q.limit, ATTENDANCE_MAX_LIMIT),
    );
    return rows;
  }

  // ------------------------------------------------------------ registrations (Atrium extension)

  /**
   * Which of these users are registered to an event of either kind (Spazz's
   * `GET /users/{eventid}/events`): their registrations that are not
   * cancelled, in the order the users were asked for, each user once.
   */
  async registrationsOfUsers(
    ctx: AcademyContext,
    id: number,
    userIds: number[],
  ): Promise<{ event: EventRecord; registrations: RegistrationRecord[] }> {
    if (userIds.length > USER_EVENTS_MAX_USERS) {
      throw new FieldValidationError([
        err('userIds', 'too_many', `At most ${USER_EVENTS_MAX_USERS} user ids per request.`),
      ]);
    }
    const event = await this.repo.findAnyKind(ctx.academyId, id);
    if (!event) throw new NotFoundError('event', String(id));
    const wanted = [...new Set(userIds)];
    const rows = new Map((await this.registrations.activeRegistrationsOf(event.id, wanted)).map((r) => [r.userId, r]));
    return { event, registrations: wanted.flatMap((u) => rows.get(u) ?? []) };
  }

  /**
   * Registers users. Approval follows autoApproved; beyond maxAttendees users
   * go to the waiting list when blockReservations is on, else the request is
   * refused. canMulti applies across a bundle's offers: `no` allows one offer
   * per user, `all` registers the user to every offer of the bundle.
   */
  async register(ctx: AcademyContext, kind: Kind, id: number, userIds: number[]): Promise<RegistrationRecord[]> {
    return this.work.run(async (tx) => {
      const { events: repo, registrations } = tx;
      const event = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!event) throw new NotFoundError('event', String(id));
      const [view] = await viewsWith(repo, this.timezones, this.clock, ctx.academyId, [event]);
      const v = view as EventView;
      if (event.canceled) throw new ConflictError('The event is canceled; registration is closed.');
      const closesAt = v.start - event.registrationDeadline * 3_600_000;
      if (v.now >= closesAt) {
        throw new ConflictError(
          `Registration closed at ${new Date(closesAt).toISOString()} (${event.registrationDeadline} hours before the event).`,
        );
      }
      const known = await repo.existingUserIds(ctx.academyId, userIds);
      const unknown = userIds.flatMap((u, i) =>
        known.has(u) ? [] : [err(`userIds.${i}`, 'not_found', 'No academy user has this id.')],
      );
      if (unknown.length) throw new FieldValidationError(unknown);

      const bundleIds = event.bundleId !== null ? await repo.bundleIds(event.bundleId) : [event.id];
      const targets = event.bundleId !== null && event.canMulti === 'all' ? bundleIds : [event.id];
      for (const userId of userIds) {
        if (event.canMulti === 'no') {
          const elsewhere = (await registrations.activeRegistrationsOn(bundleIds, userId)).find(
            (r) => r.eventId !== event.id,
          );
          if (elsewhere) {
            throw new ConflictError(
              `User ${userId} is already registered to offer ${elsewhere.eventId} of this bundle, which allows one offer per user (canMulti no).`,
            );
          }
        }
        for (const target of targets) await this.registerOne(tx, target, userId);
      }
      const out: RegistrationRecord[] = [];
      for (const userId of userIds) {
        const r = await registrations.registration(event.id, userId);
        if (r) out.push(r);
      }
      return out;
    });
  }

  private async registerOne(
    { events: repo, registrations }: RegistrationsWork,
    eventId: number,
    userId: number,
  ): Promise<void> {
    const existing = await registrations.registration(eventId, userId);
    if (existing && existing.state !== 'cancelled') return;
    const row = (await repo.findById(eventId)) as EventRecord;
    const counters = (await repo.counters([eventId])).get(eventId) ?? ZERO_COUNTERS;
    let state: RegistrationRecord['state'] = 'registered';
    if (counters.registered >= row.maxAttendees) {
      if (!row.blockReservations) {
        throw new ConflictError(`Event ${eventId} is full (${row.maxAttendees} seats) and its waiting list is off.`);
      }
      state = 'waitlisted';
    }
    const at = this.clock.now();
    await registrations.upsertRegistration({
      eventId,
      userId,
      approval: row.autoApproved && state === 'registered' ? 'Yes' : 'Pending',
      state,
      attendanceMinutes: existing?.attendanceMinutes ?? 0,
      registeredAt: at,
      completedAt: null,
      updatedAt: at,
    });
  }

  /** Approve, cancel, or mark absent or completed; record the attendance time. */
  async updateRegistration(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    userId: number,
    body: RegistrationUpdateBody,
  ): Promise<RegistrationRecord> {
    return this.work.run(async ({ events: repo, registrations }) => {
      const event = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!event) throw new NotFoundError('event', String(id));
      const reg = await registrations.registration(id, userId);
      if (!reg) throw new NotFoundError('registration of user', String(userId));
      const at = this.clock.now();
      const changes: Partial<RegistrationRecord> = { updatedAt: at };
      const wasSeated = (SEATED as readonly string[]).includes(reg.state);
      switch (body.status) {
        case 'approved':
          if (reg.state === 'cancelled')
            throw new ConflictError('A cancelled registration cannot be approved; register the user again.');
          changes.approval = 'Yes';
          break;
        case 'cancelled':
          changes.state = 'cancelled';
          break;
        case 'absent':
          if (reg.state === 'cancelled' || reg.state === 'waitlisted')
            throw new ConflictError(`A ${reg.state} registration cannot be marked absent.`);
          changes.state = 'absent';
          break;
        case 'completed':
          if (reg.state === 'cancelled' || reg.state === 'waitlisted')
            throw new ConflictError(`A ${reg.state} registration cannot be completed.`);
          changes.state = 'completed';
          changes.approval = 'Yes';
          changes.completedAt = at;
          break;
      }
      if (body.timeSpentInMinutes !== undefined) changes.attendanceMinutes = body.timeSpentInMinutes;
      await registrations.updateRegistration(id, userId, changes);
      // A freed seat goes to the first user on the waiting list.
      if (changes.state === 'cancelled' && wasSeated) {
        const next = await registrations.firstWaitlisted(id);
        if (next) {
          await registrations.updateRegistration(id, next.userId, {
            state: 'registered',
            approval: event.autoApproved ? 'Yes' : 'Pending',
            updatedAt: at,
          });
        }
      }
      return (await registrations.registration(id, userId)) as RegistrationRecord;
    });
  }
}
