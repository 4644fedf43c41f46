/**
 * Bundles and their offers: an event's offers (the bundle's events), converting an event into a bundle, and adding
 * offers to one (copies of the main event, shifted to each offer's date).
 */
import type { Tables } from '../../platform/db/schema.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import {
  ConflictError,
  type FieldError,
  FieldValidationError,
  InvalidRequestError,
  NotFoundError,
} from '../../platform/errors.js';
import type { Clock } from '../../platform/time.js';
import type { AcademyContext } from '../academies/service.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import type { EventRecord, EventsRepository, NewEventRecord } from './repository.js';
import { type AddOffersBody, type ConvertBody, type Kind, MAX_OFFERS_PER_REQUEST } from './schemas.js';
import type { EventsWork } from './service.js';
import { earliestDate, isoDate, parseUsDate, shiftSessions, spanOf, timeSessions, usDate } from './sessions.js';
import { clamp, err, OFFERS_MAX_LIMIT, position } from './shared.js';
import { type EventView, loadEvent, viewsWith, zoneRule } from './state.js';
import type { ListTotals } from './totals.js';

export const MAX_OFFERS_PER_EVENT = 6000;

export interface BundleResult {
  lastEvent: string;
  addedOffers: string[];
  message: string;
}

/** Bundles and offers of registration-based events. */
export class OffersService {
  private readonly repo: EventsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, EventsWork>,
    private readonly totals: ListTotals,
    private readonly timezones: TimezoneRegistry,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.events;
  }

  /** The bundle's events (main first), or only the event itself when it is not bundled. */
  async offers(
    ctx: AcademyContext,
    kind: Kind,
    id: number,
    q: { start?: number; limit?: number; search?: string },
  ): Promise<EventView[]> {
    const row = await loadEvent(this.repo, ctx, kind, id);
    const start = position(q.start);
    const limit = clamp(q.limit, OFFERS_MAX_LIMIT);
    const rows =
      row.bundleId === null
        ? [row]
            .filter((r) => !q.search || r.title.toLowerCase().includes(q.search.toLowerCase()))
            .slice(start, start + limit)
        : await this.repo.bundle(ctx.academyId, row.bundleId, q.search || undefined, start, limit);
    return viewsWith(this.repo, this.timezones, this.clock, ctx.academyId, rows);
  }

  private offerDates(body: AddOffersBody): string[] {
    if (body.customOffers.length > MAX_OFFERS_PER_REQUEST) {
      throw new InvalidRequestError(
        `At most ${MAX_OFFERS_PER_REQUEST} offers can be added per request; this one has ${body.customOffers.length}.`,
      );
    }
    const errors: FieldError[] = [];
    const dates = body.customOffers.map((o, i) => {
      const d = parseUsDate(o.date);
      if (!d) errors.push(err(`customOffers.${i}.date`, 'invalid_date', 'Expected a real date, MM/DD/YYYY.'));
      return d ? isoDate(d) : '';
    });
    if (errors.length) throw new FieldValidationError(errors);
    return dates;
  }

  private async addOfferRows(repo: EventsRepository, main: EventRecord, dates: string[]): Promise<void> {
    const sessions = main.sessions;
    const rule = zoneRule(this.timezones, main);
    const at = this.clock.now();
    const { id: _id, ...copy } = main;
    const rows: NewEventRecord[] = dates.map((date) => {
      const shifted = shiftSessions(sessions, date);
      const { start, end } = spanOf(timeSessions(shifted, rule));
      return {
        ...copy,
        bundleId: main.id,
        sessions: shifted,
        startAt: start,
        endAt: end,
        createdAt: at,
        updatedAt: at,
      };
    });
    // The main event's instructors, read once: every offer gets the same.
    const instructors = (await repo.instructors([main.id])).get(main.id) ?? [];
    for (let i = 0; i < rows.length; i += 20) {
      const ids = await repo.insertMany(rows.slice(i, i + 20));
      await repo.replaceInstructors(ids, instructors);
    }
  }

  private async bundleResult(
    repo: EventsRepository,
    mainId: number,
    dates: string[],
    message: string,
  ): Promise<BundleResult> {
    const latest = await repo.latestOfferStart(mainId);
    const first = latest ? earliestDate(latest.sessions) : undefined;
    return { lastEvent: first ? usDate(first) : '', addedOffers: dates.map(usDate), message };
  }

  private requireRegistrationBased(row: EventRecord): void {
    if (row.based !== 2) {
      throw new InvalidRequestError(
        'Only registration-based events (based = 2) can be converted to a bundle or receive offers.',
      );
    }
  }

  async convertToBundle(ctx: AcademyContext, kind: Kind, id: number, body: ConvertBody): Promise<BundleResult> {
    const errors: FieldError[] = [];
    let mustRetake = false;
    let retakeEvery = 0;
    if (body.canMulti === 'yes') {
      if (body.mustRetake === undefined)
        errors.push(err('mustRetake', 'required', 'mustRetake is required when canMulti is yes.'));
      mustRetake = body.mustRetake === true;
      if (mustRetake) {
        const every = body.retakeEvery ?? body.attendEvery;
        if (every === undefined)
          errors.push(
            err('retakeEvery', 'required', 'retakeEvery (or attendEvery) is required when mustRetake is true.'),
          );
        retakeEvery = every ?? 0;
      }
    }
    if (errors.length) throw new FieldValidationError(errors);
    const dates = this.offerDates(body);
    const result = await this.work.run(async ({ events: repo }) => {
      const main = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!main) throw new NotFoundError('event', String(id));
      this.requireRegistrationBased(main);
      if (main.bundleId !== null) throw new ConflictError('This event is already part of a bundle; use addOffers.');
      await repo.update(main.id, {
        bundleId: main.id,
        canMulti: body.canMulti,
        mustRetake,
        retakeEvery,
        updatedAt: this.clock.now(),
      });
      await this.addOfferRows(
        repo,
        {
          ...main,
          bundleId: main.id,
          canMulti: body.canMulti,
          mustRetake,
          retakeEvery,
        },
        dates,
      );
      return this.bundleResult(repo, main.id, dates, `Event converted to a bundle with ${dates.length} offer(s).`);
    });
    this.totals.forget(ctx.academyId);
    return result;
  }

  async addOffers(ctx: AcademyContext, kind: Kind, id: number, body: AddOffersBody): Promise<BundleResult> {
    const dates = this.offerDates(body);
    const result = await this.work.run(async ({ events: repo }) => {
      // The main event's row is locked, so parallel requests count and insert one after the other.
      const main = await repo.findForUpdate(ctx.academyId, kind, id);
      if (!main) throw new NotFoundError('event', String(id));
      this.requireRegistrationBased(main);
      if (main.bundleId === null) throw new ConflictError('This event is not a bundle yet; use convertToBundle first.');
      if (main.bundleId !== main.id)
        throw new ConflictError(`This event is an offer; add offers to the bundle's main event ${main.bundleId}.`);
      const existing = await repo.offerCount(main.id);
      if (existing + dates.length > MAX_OFFERS_PER_EVENT) {
        throw new ConflictError(
          `An event holds at most ${MAX_OFFERS_PER_EVENT} offers; it has ${existing}, so ${dates.length} more do not fit.`,
        );
      }
      await this.addOfferRows(repo, main, dates);
      return this.bundleResult(repo, main.id, dates, `${dates.length} offer(s) added.`);
    });
    this.totals.forget(ctx.academyId);
    return result;
  }
}
