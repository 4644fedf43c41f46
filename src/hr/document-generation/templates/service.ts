import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { ConflictError, type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { templateEvents } from './events.js';
import { presentTemplate } from './present.js';
import type { TemplateFilter, TemplateRecord, TemplatesRepository, TemplateValues } from './repository.js';
import type { TemplateListQuery, TemplatePatch, TemplatePayload } from './schemas.js';

export interface TemplatesWork {
  templates: TemplatesRepository;
}

/** What the templates' writes share: the unit of work, the clock, the blobs their versions hold. */
export interface TemplatesDeps {
  clock: Clock;
  blobs: BlobStore;
}

/** The filter of a list query. */
export function templateFilter(query: TemplateListQuery): TemplateFilter {
  return { q: query.q, enabled: query.enabled, locale: query.locale, isInjectable: query.is_injectable };
}

/** Reads a template of the client, or not found. */
export async function templateById(
  repo: TemplatesRepository,
  clientId: HrTenantId,
  id: string,
): Promise<TemplateRecord> {
  const template = await repo.find(clientId, id.toLowerCase());
  if (!template) throw new NotFoundError('document generation template', id);
  return template;
}

/**
 * Document generation templates (reference §5.5, `DocGenTemplate`): their metadata. Versions (the documents) are
 * `versions-service.ts`'s.
 */
export class TemplatesService {
  private readonly repo: TemplatesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<TemplatesWork>>,
    private readonly deps: TemplatesDeps,
  ) {
    this.repo = work.read.templates;
  }

  list(clientId: HrTenantId, filter: TemplateFilter, request: PageRequest): Promise<Page<TemplateRecord>> {
    return this.repo.page(clientId, filter, request);
  }

  get(clientId: HrTenantId, id: string): Promise<TemplateRecord> {
    return templateById(this.repo, clientId, id);
  }

  async create(clientId: HrTenantId, input: TemplatePayload): Promise<TemplateRecord> {
    return (await this.put(clientId, randomUUID(), input)).template;
  }

  /** PUT: creates the template at the id (201), or replaces its metadata (200). */
  async put(
    clientId: HrTenantId,
    rawId: string,
    input: TemplatePayload,
  ): Promise<{ template: TemplateRecord; created: boolean }> {
    const id = rawId.toLowerCase();
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) {
      throw new FieldValidationError([{ field: 'id', code: 'invalid', message: 'A template’s id is a UUID.' }]);
    }
    return this.work.run(async ({ templates: repo, audit }) => {
      const existing = await repo.find(clientId, id);
      const values = await this.values(repo, clientId, { ...input }, existing);
      const created = existing ? false : await repo.insert(clientId, id, values, values.updatedAt);
      if (!created) await repo.update(clientId, id, values);
      const template = await templateById(repo, clientId, id);
      await audit.record(clientId, templateEvents, created ? 'created' : 'updated', eventOf(template));
      return { template, created };
    });
  }

  async patch(clientId: HrTenantId, id: string, input: TemplatePatch): Promise<TemplateRecord> {
    return this.work.run(async ({ templates: repo, audit }) => {
      const existing = await templateById(repo, clientId, id);
      const merged: TemplatePayload = {
        title: input.title ?? existing.title,
        description: input.description ?? existing.description,
        locale: input.locale ?? existing.locale,
        enabled: input.enabled ?? existing.enabled,
        ...input,
      };
      const values = await this.values(repo, clientId, merged, existing);
      await repo.update(clientId, existing.id, values);
      const template = await templateById(repo, clientId, existing.id);
      await audit.record(clientId, templateEvents, 'updated', eventOf(template));
      return template;
    });
  }

  /**
   * DELETE: the template and all its versions; refused (409) while another template's version inserts it as a
   * fragment. Generations and campaigns made from it keep their documents.
   */
  async remove(clientId: HrTenantId, id: string): Promise<void> {
    const blobs = await this.work.run(async ({ templates: repo, audit }) => {
      const template = await templateById(repo, clientId, id);
      const users = (await repo.fragmentUsages(clientId, template.id)).filter((u) => u !== template.id);
      if (users.length > 0) {
        throw new ConflictError(
          `The template is inserted as a fragment by other templates (${users.join(', ')}): change their fragment_mapping first.`,
        );
      }
      const released = await repo.remove(clientId, template.id);
      await audit.record(clientId, templateEvents, 'deleted', eventOf(template));
      return released;
    });
    for (const sha256 of new Set(blobs)) await this.deps.blobs.deleteIfUnreferenced(sha256);
  }

  /** The template's values from a full payload, checked (restrictions, validity dates), as of now. */
  private async values(
    repo: TemplatesRepository,
    clientId: HrTenantId,
    input: TemplatePayload,
    existing?: TemplateRecord,
  ): Promise<TemplateValues> {
    const restrictions = (
      input.restrictions ??
      existing?.restrictions.map((r) => ({ organization_id: r.organizationId, include_children: r.includeChildren })) ??
      []
    ).map((r) => ({ organizationId: r.organization_id, includeChildren: r.include_children }));
    const errors: FieldError[] = [];
    const known = await repo.existingOrganizations(
      clientId,
      restrictions.map((r) => r.organizationId),
    );
    restrictions.forEach((r, i) => {
      if (!known.has(r.organizationId)) {
        errors.push({
          field: `restrictions.${i}.organization_id`,
          code: 'not_found',
          message: `No organization ${JSON.stringify(r.organizationId)}.`,
        });
      }
    });
    const start =
      input.validity_start_date !== undefined ? input.validity_start_date : (existing?.validityStartDate ?? null);
    const end = input.validity_end_date !== undefined ? input.validity_end_date : (existing?.validityEndDate ?? null);
    if (start !== null && end !== null && end < start) {
      errors.push({ field: 'validity_end_date', code: 'invalid', message: 'The end of validity is before its start.' });
    }
    if (errors.length) throw new FieldValidationError(errors);
    return {
      title: input.title,
      description: input.description,
      locale: input.locale,
      enabled: input.enabled,
      isInjectable: input.is_injectable ?? existing?.isInjectable ?? false,
      validityStartDate: start,
      validityEndDate: end,
      restrictions,
      updatedAt: this.deps.clock.now(),
    };
  }
}

export function eventOf(template: TemplateRecord) {
  return { id: template.id, name: template.title, data: presentTemplate(template) };
}
