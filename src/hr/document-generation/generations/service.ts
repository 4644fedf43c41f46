import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Transaction } from 'kysely';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import type { DocgenEngine, OutputFormat } from '../../../platform/docgen/types.js';
import {
  DomainError,
  type FieldError,
  FieldValidationError,
  NotFoundError,
  StateError,
} from '../../../platform/errors.js';
import { enqueue } from '../../../platform/jobs/index.js';
import type { Clock } from '../../../platform/time.js';
import { dayOf } from '../../../platform/time.js';
import { afterWork } from '../../audit/actor.js';
import type { OutboxRepository } from '../../core/outbox/repository.js';
import type { DocumentsRepository } from '../../documents/documents/repository.js';
import type { Audited } from '../../module.js';
import type { TemplatesRepository } from '../templates/repository.js';
import {
  checkConverter,
  engineInput,
  finishOutcome,
  type Generated,
  generationTarget,
  type OfficeConverter,
  unknownFragments,
} from './compose.js';
import { generationEvents } from './events.js';
import { mailGenerated } from './mail.js';
import { presentGeneration } from './present.js';
import type {
  GenerationPayload,
  GenerationRecord,
  GenerationsRepository,
  NewGeneration,
  RequestFilter,
} from './repository.js';
import type { GenerationPayload as Payload } from './schemas.js';

export interface GenerationsWork {
  generations: GenerationsRepository;
  templates: TemplatesRepository;
  documents: DocumentsRepository;
  outbox: OutboxRepository;
}

export interface GenerationsDeps {
  clock: Clock;
  blobs: BlobStore;
  engine: DocgenEngine;
  office: OfficeConverter;
  wakeJobs: () => void;
}

export const GENERATION_QUEUE = 'document-generation';

export interface GenerationJob {
  clientId: HrTenantId;
  generationId: string;
}

/** The dataset of a payload, as stored. */
export function payloadOf(input: Payload): GenerationPayload {
  return {
    fields: input.fields,
    fragmentFields: Object.entries(input.fragment_fields ?? {}).map(([slug, fields]) => ({ slug, fields })),
    emailRecipients: (input.email_recipients ?? []).map((r) => ({
      firstname: r.firstname,
      lastname: r.lastname,
      email: r.email,
      language: r.language ?? null,
    })),
  };
}

/** A generated document of the client, or not found. */
export async function generationById(
  repo: GenerationsRepository,
  clientId: HrTenantId,
  id: string,
): Promise<GenerationRecord> {
  const found = await repo.find(clientId, id.toLowerCase());
  if (!found) throw new NotFoundError('document generation', id);
  return found;
}

export function eventOf(g: GenerationRecord) {
  return { id: g.id, name: `${g.format} of template ${g.templateId}`, data: presentGeneration(g) };
}

/**
 * Generating documents (reference §3f.4, §5.5): synchronously (`POST /document_generations`, 201 with the
 * document's errors), or as a durable job (`…/async`, 202 and a request to poll). The engine works in a worker
 * thread with time and memory limits, so a generation never blocks the server's other calls.
 */
export class GenerationsService {
  private readonly repo: GenerationsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<GenerationsWork>>,
    private readonly deps: GenerationsDeps,
  ) {
    this.repo = work.read.generations;
  }

  get(clientId: HrTenantId, id: string): Promise<GenerationRecord> {
    return generationById(this.repo, clientId, id);
  }

  requests(clientId: HrTenantId, filter: RequestFilter, request: PageRequest): Promise<Page<GenerationRecord>> {
    return this.repo.requests(clientId, filter, request);
  }

  async request(clientId: HrTenantId, requestId: string): Promise<GenerationRecord> {
    const found = await this.repo.findRequest(clientId, requestId.toLowerCase());
    if (!found) throw new NotFoundError('document generation request', requestId);
    return found;
  }

  /** Checks what can be checked before generating: the target, the converter, the employee, the document type. */
  private async check(clientId: HrTenantId, input: Payload) {
    if (input.signature_field_generation && input.output_format !== 'PDF') {
      throw new FieldValidationError([
        {
          field: 'signature_field_generation',
          code: 'invalid',
          message: 'Signature fields are generated in PDF only.',
        },
      ]);
    }
    checkConverter(input.output_format, this.deps.office);
    const target = await generationTarget(this.work.read.templates, clientId, {
      templateId: input.document_generation_template_id.toLowerCase(),
      version: input.document_generation_template_version,
      format: input.output_format,
      today: dayOf(this.deps.clock.now()),
    });
    const errors: FieldError[] = unknownFragments(target.version.fragmentMapping, input.fragment_fields);
    const documents = this.work.read.documents;
    if (input.employee_id !== undefined && !(await documents.employee(clientId, { id: input.employee_id }))) {
      errors.push({ field: 'employee_id', code: 'not_found', message: 'No employee has this id.' });
    }
    if (
      input.document_type_id !== undefined &&
      !(await documents.documentType(clientId, 'employee', input.document_type_id))
    ) {
      errors.push({ field: 'document_type_id', code: 'not_found', message: 'No employee document type has this id.' });
    }
    if (errors.length) throw new FieldValidationError(errors);
    return target;
  }

  private newGeneration(input: Payload, version: number, strict: boolean, async: boolean): NewGeneration {
    return {
      id: randomUUID(),
      requestId: randomUUID(),
      requestStatus: async ? 'RECEIVED_ASYNC' : 'PROCESSED',
      templateId: input.document_generation_template_id.toLowerCase(),
      templateVersion: version,
      format: input.output_format,
      status: async ? 'NOT_GENERATED' : 'GENERATED',
      strict,
      async,
      context: input.context ?? null,
      payload: async ? payloadOf(input) : null,
      employeeId: input.employee_id ?? null,
      documentTypeId: input.document_type_id ?? null,
      at: this.deps.clock.now(),
    };
  }

  /** Generates a document of the payload in its format (the engine, then the converter for ODT and DOC). */
  private async render(
    clientId: HrTenantId,
    target: Awaited<ReturnType<GenerationsService['check']>>,
    payload: GenerationPayload,
    strict: boolean,
    format: OutputFormat,
  ): Promise<Generated> {
    const input = await engineInput(this.work.read.templates, this.deps.blobs, clientId, target, payload, {
      strict,
      format,
    });
    return finishOutcome(await this.deps.engine.generate(input), format, this.deps.office);
  }

  /** `POST /document_generations`: generated now; 201 with the errors permissive mode let through. */
  async generate(clientId: HrTenantId, input: Payload, strict: boolean): Promise<GenerationRecord> {
    const target = await this.check(clientId, input);
    const started = this.deps.clock.now();
    const payload = payloadOf(input);
    const generated = await this.render(clientId, target, payload, strict, input.output_format);
    const g = this.newGeneration(input, target.version.version, strict, false);
    const stored = await this.deps.blobs.put(Readable.from([Buffer.from(generated.bytes)]), {
      attach: async (trx, blob) => {
        const tx = this.work.on(trx).read;
        const finished = this.deps.clock.now();
        await tx.generations.insert(clientId, g, {
          sha256: blob.sha256,
          pdfSha256: generated.isPdf ? blob.sha256 : null,
          size: blob.size,
          pages: generated.pages,
          errors: generated.errors,
          startedAt: started,
          finishedAt: finished,
        });
        const record = (await tx.generations.find(clientId, g.id)) as GenerationRecord;
        await tx.audit.record(clientId, generationEvents, 'created', eventOf(record));
        if (payload.emailRecipients.length > 0)
          await mailGenerated(tx, clientId, record, payload.emailRecipients, finished);
        return record;
      },
    });
    return stored.attached;
  }

  /** `POST /document_generations/async`: checked now, generated by a job; answers the request (202). */
  async generateAsync(clientId: HrTenantId, input: Payload, strict: boolean): Promise<GenerationRecord> {
    const target = await this.check(clientId, input);
    const g = this.newGeneration(input, target.version.version, strict, true);
    const record = await this.work.run(async (tx) => {
      await tx.generations.insert(clientId, g);
      const created = (await tx.generations.find(clientId, g.id)) as GenerationRecord;
      await enqueue(
        tx.generations.db,
        {
          queue: GENERATION_QUEUE,
          tenant: clientId,
          payload: { clientId, generationId: g.id } satisfies GenerationJob,
        },
        this.deps.clock.wall(),
      );
      await tx.audit.record(clientId, generationEvents, 'created', eventOf(created));
      return created;
    });
    afterWork(this.deps.wakeJobs);
    this.deps.wakeJobs();
    return record;
  }

  /**
   * The job of an async generation: `GENERATING`, then `GENERATED` with its file, or `FAILED` with why. Run again
   * after a crash, it generates again; only one document is ever recorded (the row must still be `GENERATING`).
   */
  async runJob(job: GenerationJob): Promise<void> {
    const { clientId, generationId } = job;
    const at = this.deps.clock.now();
    if (!(await this.work.run((tx) => tx.generations.start(clientId, generationId, at)))) return;
    const g = (await this.repo.find(clientId, generationId)) as GenerationRecord;
    const payload = g.payload ?? { fields: [], fragmentFields: [], emailRecipients: [] };
    let generated: Generated;
    try {
      const target = await generationTarget(this.work.read.templates, clientId, {
        templateId: g.templateId,
        version: g.templateVersion,
        format: g.format,
        today: dayOf(at),
      });
      generated = await this.render(clientId, target, payload, g.strict, g.format);
    } catch (error) {
      // What the dataset or the template is to blame for fails the request; anything else (the database) retries.
      if (!(error instanceof DomainError)) throw error;
      await this.failJob(clientId, generationId, error);
      return;
    }
    const gone = new Error('the generation was deleted meanwhile');
    await this.deps.blobs
      .put(Readable.from([Buffer.from(generated.bytes)]), {
        attach: async (trx, blob) => {
          const tx = this.work.on(trx).read;
          const finished = this.deps.clock.now();
          const done = await tx.generations.finish(clientId, generationId, {
            sha256: blob.sha256,
            pdfSha256: generated.isPdf ? blob.sha256 : null,
            size: blob.size,
            pages: generated.pages,
            errors: generated.errors,
            startedAt: at,
            finishedAt: finished,
          });
          if (!done) throw gone;
          const record = (await tx.generations.find(clientId, generationId)) as GenerationRecord;
          await tx.audit.record(clientId, generationEvents, 'generated', eventOf(record));
          if (payload.emailRecipients.length > 0) {
            await mailGenerated(tx, clientId, record, payload.emailRecipients, finished);
          }
        },
      })
      .catch((error: unknown) => {
        if (error !== gone) throw error;
      });
  }

  /** The job failed for good (its attempts spent): the generation fails in that transaction, with its event. */
  async gaveUp(job: GenerationJob, trx: Transaction<Tables>): Promise<void> {
    const tx = this.work.on(trx).read;
    const failure = 'The document could not be generated: its job failed on every attempt.';
    if (!(await tx.generations.fail(job.clientId, job.generationId, failure, [], this.deps.clock.now()))) return;
    const record = (await tx.generations.find(job.clientId, job.generationId)) as GenerationRecord;
    await tx.audit.record(job.clientId, generationEvents, 'failed', eventOf(record));
  }

  private async failJob(clientId: HrTenantId, id: string, error: Error): Promise<void> {
    const errors = error instanceof FieldValidationError ? error.fields : [];
    await this.work.run(async (tx) => {
      if (!(await tx.generations.fail(clientId, id, error.message, errors, this.deps.clock.now()))) return;
      const record = (await tx.generations.find(clientId, id)) as GenerationRecord;
      await tx.audit.record(clientId, generationEvents, 'failed', eventOf(record));
    });
  }

  /** DELETE: the document and its request; a waiting async generation is not generated. */
  async remove(clientId: HrTenantId, id: string): Promise<void> {
    const blobs = await this.work.run(async (tx) => {
      const g = await generationById(tx.generations, clientId, id);
      const released = await tx.generations.remove(clientId, g);
      await tx.audit.record(clientId, generationEvents, 'deleted', eventOf(g));
      return released;
    });
    for (const sha256 of new Set(blobs)) await this.deps.blobs.deleteIfUnreferenced(sha256);
  }

  /** The generated file of a document; 404 until it is generated. */
  async file(clientId: HrTenantId, id: string): Promise<GenerationRecord & { sha256: string; size: number }> {
    const g = await generationById(this.repo, clientId, id);
    if (g.sha256 === null || g.size === null) {
      throw new NotFoundError('document generation file', id, `The document is not generated (status ${g.status}).`);
    }
    return { ...g, sha256: g.sha256, size: g.size };
  }

  /** The PDF a generated document's previews are made of: itself, or its layout, stored at the first call. */
  async previewSource(clientId: HrTenantId, id: string): Promise<string> {
    const g = await this.file(clientId, id);
    if (g.pdfSha256) return g.pdfSha256;
    if (g.format !== 'DOCX') {
      throw new StateError('preview_unavailable', `A ${g.format} document has no preview: generate it as PDF or DOCX.`);
    }
    const laid = await this.deps.engine.layout(await readBlob(this.deps.blobs, g.sha256));
    if (!laid.ok) throw new StateError('preview_unavailable', `The document cannot be laid out: ${laid.message}`);
    const stored = await this.deps.blobs.put(Readable.from([Buffer.from(laid.pdf)]), {
      attach: (trx, blob) => this.work.on(trx).read.generations.setPdf(clientId, g.id, blob.sha256),
    });
    return stored.blob.sha256;
  }
}
