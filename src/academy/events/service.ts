import type { Tables } from '../../platform/db/schema.js';
import type { AcademyTenantId } from '../../platform/db/tenant.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { FieldValidationError } from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { AcademyContext } from '../academies/service.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import { buildEvent } from './build.js';
import type { EventListFilter, EventsRepository } from './repository.js';
import type { EventBody, Kind, ListQuery } from './schemas.js';
import { readIsoDate } from './sessions.js';
import { clamp, err, LIST_MAX_LIMIT, position } from './shared.js';
import { type EventState, type EventView, loadEvent, readView, stateOf } from './state.js';
import type { ListTotals } from './totals.js';

/** The repositories the events services' writes touch, bound to one transaction in `work.run`. */
export interface EventsWork {
  events: EventsRepository;
}

/**
 * In-class and virtual classroom events: their reads (one event, a list and its total) and their writes (create,
 * edit with every rule checked by build.ts, delete, cancel). Times, state flags and counters are derived on read
 * from the sessions, the clock and the registrations (state.ts); nothing derived is stored except the start/end
 * index. Bundles and offers are offers-service.ts; registrations and attendance, registrations-service.ts.
 */
export class EventsService {
  private readonly repo: EventsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, EventsWork>,
    private readonly totals: ListTotals,
    private readonly timezones: TimezoneRegistry,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.events;
  }

  /** Forgets the academy's list totals after a write that may change them (or a snapshot restored). */
  forgetTotals(academyId: AcademyTenantId): void {
    this.totals.forget(academyId);
  }

  // ------------------------------------------------------------ reading

  /** One event's view, read in one statement (the GET's path; writes build theirs with `viewsWith`). */
  view(ctx: AcademyContext, kind: Kind, id: number): Promise<EventView> {
    return readView(this.repo, this.timezones, this.clock, ctx, kind, id);
  }

  /**
   * A page of events and the filter's total. The page is one statement (the repository's `listPage`), and its
   * states are taken at the instant the filter used, so an item's status agrees with the filter that listed it.
   */
  async list(ctx: AcademyContext, kind: Kind, query: ListQuery): Promise<{ all: number; events: EventState[] }> {
    const dayStart = (iso: string) => {
      const d = readIsoDate(iso);
      return Date.UTC(d.year, d.month - 1, d.day);
    };
    if (query.dateStart && query.dateEnd && query.dateEnd < query.dateStart) {
      throw new FieldValidationError([err('dateEnd', 'invalid_range', 'dateEnd is before dateStart.')]);
    }
    const filter: EventListFilter = {
      status: query.status ?? 'active',
      ...(query.dateStart ? { from: dayStart(query.dateStart) } : {}),
      ...(query.dateEnd ? { to: dayStart(query.dateEnd) + 86_400_000 } : {}),
      now: this.clock.now(),
    };
    const [total, page] = await Promise.all([
      this.totals.total(ctx.academyId, kind, filter),
      this.repo.listPage(ctx.academyId, kind, filter, position(query.start), clamp(query.limit, LIST_MAX_LIMIT)),
    ]);
    const events = page.map((e) => stateOf(this.timezones, e.row, e.counters, e.categoryName, e.venue, filter.now));
    return { all: total, events };
  }

  // ------------------------------------------------------------ create and edit

  async create(ctx: AcademyContext, kind: Kind, body: EventBody): Promise<EventView> {
    const { row, instructors } = await buildEvent(
      this.repo,
      this.timezones,
      this.clock,
      ctx,
      kind,
      body as EventBody & Record<string, unknown>,
    );
    const id = await this.work.run(async ({ events: repo }) => {
      const newId = await repo.insert({
        ...row,
        academyId: ctx.academyId,
        kind,
        createdAt: row.updatedAt,
      });
      await repo.replaceInstructors([newId], instructors);
      return newId;
    });
    this.totals.forget(ctx.academyId);
    return this.view(ctx, kind, id);
  }

  async edit(ctx: AcademyContext, kind: Kind, id: number, body: EventBody): Promise<EventView> {
    const existing = await loadEvent(this.repo, ctx, kind, id);
    const { row, instructors } = await buildEvent(
      this.repo,
      this.timezones,
      this.clock,
      ctx,
      kind,
      body as EventBody & Record<string, unknown>,
      existing,
    );
    await this.work.run(async ({ events: repo }) => {
      await repo.update(id, row);
      await repo.replaceInstructors([id], instructors);
    });
    this.totals.forget(ctx.academyId);
    return this.view(ctx, kind, id);
  }

  async delete(ctx: AcademyContext, kind: Kind, id: number): Promise<void> {
    const row = await loadEvent(this.repo, ctx, kind, id);
    await this.repo.deleteBundleOrEvent(row);
    this.totals.forget(ctx.academyId);
  }

  /** Cancels an event (Atrium extension): it leaves `status=active` and appears under `status=canceled`. */
  async cancel(ctx: AcademyContext, kind: Kind, id: number): Promise<EventView> {
    await loadEvent(this.repo, ctx, kind, id);
    await this.repo.update(id, { canceled: true, updatedAt: this.clock.now() });
    this.totals.forget(ctx.academyId);
    return this.view(ctx, kind, id);
  }
}
