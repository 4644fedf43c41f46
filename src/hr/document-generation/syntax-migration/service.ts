import { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import type { DocgenEngine } from '../../../platform/docgen/types.js';
import { DomainError, NotFoundError, StateError } from '../../../platform/errors.js';
import { enqueue } from '../../../platform/jobs/index.js';
import type { Clock } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { Audited } from '../../module.js';
import { templateVersionEvents } from '../templates/events.js';
import { isError, type TemplateRecord, type TemplatesRepository, type VersionRecord } from '../templates/repository.js';
import { templateById } from '../templates/service.js';
import { eventOf as versionEventOf, versionOf } from '../versions/service.js';
import { migrationEvents } from './events.js';
import type { MigrationView } from './present.js';
import { type MigrationRecord, type MigrationsRepository, NOT_STARTED } from './repository.js';
import type { MigrationStart } from './schemas.js';

export interface MigrationWork {
  migrations: MigrationsRepository;
  templates: TemplatesRepository;
}

export const MIGRATION_QUEUE = 'document-generation-syntax-migration';

export interface MigrationJob {
  clientId: HrTenantId;
  /** The run the job is for: a job of an older run does nothing. */
  run: number;
}

const eventOf = (m: MigrationRecord) => ({
  id: 'syntax_migration',
  name: 'V1 → V2 syntax migration',
  data: { status: m.status, auto_start: m.autoStart, runs: m.runs },
});

/**
 * The V1 → V2 syntax migration of a client's templates (reference: "Syntax Migration"): a template whose latest
 * version is in V1 gets a new version, converted by the engine (platform/docgen/syntax.ts, `migrateV1toV2`), one at
 * a time (`POST …/{id}`) or all by a durable job (`PUT …/status`, `POST …/restart`).
 */
export class MigrationService {
  private readonly repo: TemplatesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<MigrationWork>>,
    private readonly deps: { clock: Clock; blobs: BlobStore; engine: DocgenEngine; wakeJobs: () => void },
  ) {
    this.repo = work.read.templates;
  }

  /** Whether some template's latest version is V1. */
  private async available(clientId: HrTenantId): Promise<boolean> {
    const page = await this.repo.page(clientId, { latestSyntax: 'V1' }, { limit: 1, sort: [], at: {} });
    return page.items.length > 0;
  }

  async status(clientId: HrTenantId): Promise<MigrationView> {
    const migration = (await this.work.read.migrations.find(clientId)) ?? NOT_STARTED;
    return { migration, available: await this.available(clientId) };
  }

  list(clientId: HrTenantId, q: string | undefined, request: PageRequest): Promise<Page<TemplateRecord>> {
    return this.repo.page(clientId, { q, latestSyntax: 'V1' }, request);
  }

  /** A new run, `in_progress`, and its job, in one transaction; `from` says which statuses it may start from. */
  private async begin(
    clientId: HrTenantId,
    action: 'started' | 'restarted',
    from: (status: MigrationRecord['status']) => boolean,
    autoStart?: boolean,
  ): Promise<MigrationView> {
    const migration = await this.work.run(async (tx) => {
      const at = this.deps.clock.now();
      const current = await tx.migrations.ensure(clientId, at);
      if (!from(current.status)) {
        throw new StateError(
          'invalid_transition',
          action === 'started'
            ? `The migration can be started only once, from not_started (it is ${current.status}): restart it instead.`
            : 'The migration is in progress: it cannot be restarted before it ends.',
        );
      }
      const run = await tx.migrations.start(clientId, at, autoStart);
      const job: MigrationJob = { clientId, run };
      await enqueue(
        tx.migrations.db,
        { queue: MIGRATION_QUEUE, tenant: clientId, payload: job },
        this.deps.clock.wall(),
      );
      const started = (await tx.migrations.find(clientId)) as MigrationRecord;
      await tx.audit.record(clientId, migrationEvents, action, eventOf(started));
      return started;
    });
    afterWork(this.deps.wakeJobs);
    this.deps.wakeJobs();
    return { migration, available: await this.available(clientId) };
  }

  /** `PUT …/status`: not_started → in_progress only (422 `invalid_transition` otherwise). */
  start(clientId: HrTenantId, input: MigrationStart): Promise<MigrationView> {
    return this.begin(clientId, 'started', (s) => s === 'not_started', input.auto_start);
  }

  /** `POST …/restart`: from any status but in_progress. */
  restart(clientId: HrTenantId): Promise<MigrationView> {
    return this.begin(clientId, 'restarted', (s) => s !== 'in_progress');
  }

  /**
   * `POST …/{id}`: the template's latest version, converted to V2, becomes its next version (active when it has no
   * ERROR), with the V1 version's fragment mapping, output formats and typings. 422 `not_v1` when it is V2 already.
   */
  async convert(clientId: HrTenantId, templateId: string): Promise<VersionRecord> {
    const template = await templateById(this.repo, clientId, templateId);
    const latest = await versionOf(this.repo, clientId, template, 'latest');
    if (latest.syntaxVersion !== 'V1') {
      throw new StateError('not_v1', `The template’s latest version (${latest.version}) is in V2 syntax already.`);
    }
    const migrated = await this.deps.engine.migrate(await readBlob(this.deps.blobs, latest.sha256));
    const inspection = migrated.ok ? await this.deps.engine.inspect(migrated.bytes, 'V2') : migrated;
    if (!migrated.ok || !('placeholders' in inspection)) {
      const why = 'message' in inspection ? inspection.message : 'unreadable';
      throw new StateError('not_migratable', `The latest version cannot be converted to V2: ${why}.`);
    }
    const changed = new StateError('template_changed', 'A version was added or removed meanwhile: convert again.');
    const stored = await this.deps.blobs.put(Readable.from([Buffer.from(migrated.bytes)]), {
      attach: async (trx, blob) => {
        const { templates, audit } = this.work.on(trx).read;
        const at = this.deps.clock.now();
        // Takes the next number with the template's row locked: the version converted must still be the latest.
        const number = await templates.nextVersion(clientId, template.id, at);
        if (number === undefined) throw new NotFoundError('document generation template', templateId);
        if (number !== latest.version + 1) throw changed;
        await templates.insertVersion(clientId, {
          ...latest,
          version: number,
          syntaxVersion: 'V2',
          templateInformation: inspection.issues,
          placeholders: inspection.placeholders,
          sha256: blob.sha256,
          size: blob.size,
          createdAt: at,
        });
        if (!inspection.issues.some(isError)) await templates.setActive(clientId, template.id, number, at);
        const version = (await templates.findVersion(clientId, template.id, number)) as VersionRecord;
        await audit.record(clientId, templateVersionEvents, 'created', versionEventOf(version));
        return version;
      },
    });
    return stored.attached;
  }

  /** The ids of the templates whose latest version is V1, every page of them. */
  private async v1Templates(clientId: HrTenantId): Promise<string[]> {
    const ids: string[] = [];
    let page = await this.repo.page(clientId, { latestSyntax: 'V1' }, { limit: 200, sort: [], at: {} });
    ids.push(...page.items.map((t) => t.id));
    while (page.next) {
      page = await this.repo.page(
        clientId,
        { latestSyntax: 'V1' },
        { limit: 200, sort: [], at: { position: page.next } },
      );
      ids.push(...page.items.map((t) => t.id));
    }
    return ids;
  }

  /**
   * The job of a run: converts every template whose latest version is V1 (as `POST …/{id}`), then `completed`, or
   * `failed` when one could not be. Run again after a crash, it converts those still in V1; a job of an older run
   * (restarted since) does nothing.
   */
  /** The job failed for good (its attempts spent): its run ends `failed` in that transaction, with its event. */
  async gaveUp(job: MigrationJob, trx: Transaction<Tables>): Promise<void> {
    const tx = this.work.on(trx).read;
    if (!(await tx.migrations.finish(job.clientId, job.run, 'failed', this.deps.clock.now()))) return;
    const ended = (await tx.migrations.find(job.clientId)) as MigrationRecord;
    await tx.audit.record(job.clientId, migrationEvents, 'failed', eventOf(ended));
  }

  async runJob(job: MigrationJob): Promise<void> {
    const current = await this.work.read.migrations.find(job.clientId);
    if (current?.status !== 'in_progress' || current.runs !== job.run) return;
    let failed = 0;
    for (const id of await this.v1Templates(job.clientId)) {
      try {
        await this.convert(job.clientId, id);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // Converted meanwhile (or deleted) is no failure of the migration.
        if (!(error instanceof NotFoundError) && !(error instanceof StateError && error.code === 'not_v1')) failed++;
      }
    }
    await this.work.run(async (tx) => {
      const status = failed > 0 ? 'failed' : 'completed';
      if (!(await tx.migrations.finish(job.clientId, job.run, status, this.deps.clock.now()))) return;
      const ended = (await tx.migrations.find(job.clientId)) as MigrationRecord;
      await tx.audit.record(job.clientId, migrationEvents, status, eventOf(ended));
    });
  }
}
