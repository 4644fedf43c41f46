import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { BlobStore } from '../platform/blobs/store.js';
import type { Config } from '../platform/config.js';
import type { Database, Db } from '../platform/db/database.js';
import type { Tables } from '../platform/db/schema.js';
import { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { RateLimits } from '../platform/http/rate-limit.js';
import type { QueueOptions } from '../platform/jobs/index.js';
import type { Renditions } from '../platform/renditions/renditions.js';
import type { SecretBox } from '../platform/security/secret-box.js';
import type { ViewPasses } from '../platform/security/view-pass.js';
import type { Clock } from '../platform/time.js';
import type { EventDeclaration } from './audit/catalogue.js';
import { AuditTrail, type EventOutlet } from './audit/trail.js';
import type { Paginator } from './lists/pagination.js';

/**
 * How the HR API is put together. Each product area (`core/`, `documents/`, `knowledge/`, `people-assist/`,
 * `automation/`) has an `index.ts` that builds its services from an `HrContext` (and the services of the areas
 * below it) and lists its `HrModule`s. `hr/index.ts` stacks the areas; `hr/plugin.ts` registers every module's
 * schemas and routes. A new resource is its own folder, a migration, and two lines in its area's index.
 */

/** What every area builds its services from. */
export interface HrContext {
  database: Database;
  db: Db;
  config: Config;
  /** The clock every time-derived state reads; tests move it. */
  clock: Clock;
  blobs: BlobStore;
  /** Previews of stored files (PNG pages of PDFs and images), cached as blobs. */
  renditions: Renditions;
  paginator: Paginator;
  /** Encryption at rest of reversible secrets (signing keys) under the master key. */
  secretBox: SecretBox;
  /** The admin API's view passes (the console's read-only access), which the bearer guard accepts. */
  viewPasses: ViewPasses;
  log?: Logger | undefined;
  /**
   * What recording an event also does in its transaction (the webhooks' outbox). Filled when the API is put
   * together, before it serves; every unit of work's audit trail reads it.
   */
  eventOutlets: EventOutlet[];
  /** Tells the job runner that jobs were committed (it would find them at its next poll anyway). */
  wakeJobs: () => void;
}

/** A unit of work's repositories, with the audit trail bound to the same transaction. */
export type Audited<R> = R & { audit: AuditTrail };

/**
 * Binds repositories into a unit of work on the context's database (`platform/db/unit-of-work.ts`), with the
 * audit trail (`audit`) bound to the same transaction: a write records its event in `run` with the rest.
 */
export function unitOfWork<R>(ctx: HrContext, bind: (db: Db) => R): UnitOfWork<Tables, Audited<R>> {
  return new UnitOfWork(ctx.db, (db) => ({ ...bind(db), audit: new AuditTrail(db, ctx.clock, ctx.eventOutlets) }));
}

/** A resource's part of the HR API. */
export interface HrModule {
  /** Schemas with an `$id` that routes reference with `Type.Ref` (added once to the API). */
  schemas?: readonly TSchema[];
  /** Registers the resource's routes. */
  routes(app: FastifyInstance, http: HrHttp): Promise<void>;
  /** Served without a bearer token (the token endpoint). Every other module is behind the bearer guard. */
  public?: boolean;
  /** The audit event types the resource records (`/events/filters/actions` and webhook patterns read them). */
  events?: readonly EventDeclaration[];
}

/** What routes receive when the server registers them (the server's own parts, made after the services). */
export interface HrHttp {
  /** The per-credential and failed-authentication limits shared with the Academy API. */
  rateLimits?: RateLimits | undefined;
}

/** A product area, built: its services and its modules. */
export interface HrArea<S> {
  services: S;
  modules: readonly HrModule[];
  /** The background job queues the area runs, by queue name (platform/jobs). */
  jobs?: Readonly<Record<string, QueueOptions>>;
}
