/**
 * The Academy API's services, built from the shared parts (database, clock, timezones). Adding an Academy resource
 * is a line here; app.ts names none of them.
 */
import type { Database, Db } from '../platform/db/database.js';
import { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { ViewPasses } from '../platform/security/view-pass.js';
import type { Clock } from '../platform/time.js';
import { AcademiesRepository } from './academies/repository.js';
import { AcademiesService } from './academies/service.js';
import type { TimezoneRegistry } from './content/timezones.js';
import { DirectoryRepository } from './directory/repository.js';
import { DirectoryService } from './directory/service.js';
import { OffersService } from './events/offers-service.js';
import { RegistrationsRepository } from './events/registrations-repository.js';
import { RegistrationsService } from './events/registrations-service.js';
import { EventsRepository } from './events/repository.js';
import { EventsService } from './events/service.js';
import { ListTotals } from './events/totals.js';
import type { AcademyServices } from './plugin.js';

export interface AcademyContext {
  database: Database;
  db: Db;
  clock: Clock;
  timezones: TimezoneRegistry;
  /** How long a replaced API key keeps working (`ATRIUM_KEY_GRACE_SECONDS`). */
  keyGraceSeconds: number;
  /** The admin API's view passes (the console's read-only access), which the key guard accepts. */
  viewPasses: ViewPasses;
}

export function createAcademy(ctx: AcademyContext): Omit<AcademyServices, 'timezones'> {
  const { db, clock } = ctx;
  const dialect = ctx.database.dialect;
  const eventsWork = new UnitOfWork(db, (db) => ({ events: new EventsRepository(db, dialect) }));
  // The events lists' totals, forgotten by every write that may change them (events and offers).
  const totals = new ListTotals(eventsWork.read.events, clock);
  return {
    events: new EventsService(eventsWork, totals, ctx.timezones, clock),
    eventOffers: new OffersService(eventsWork, totals, ctx.timezones, clock),
    eventRegistrations: new RegistrationsService(
      new UnitOfWork(db, (db) => ({
        events: new EventsRepository(db, dialect),
        registrations: new RegistrationsRepository(db),
      })),
      ctx.timezones,
      clock,
    ),
    academies: new AcademiesService(
      new UnitOfWork(db, (db) => ({ academies: new AcademiesRepository(db) })),
      clock,
      ctx.keyGraceSeconds,
      ctx.viewPasses,
    ),
    directory: new DirectoryService(new UnitOfWork(db, (db) => ({ directory: new DirectoryRepository(db) })), clock),
  };
}
