import { Readable } from 'node:stream';
import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import type { DocgenEngine, OutputFormat, SyntaxVersion } from '../../../platform/docgen/types.js';
import { type FieldError, FieldValidationError, NotFoundError, StateError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { templateVersionEvents } from '../templates/events.js';
import type { FieldTyping, TemplateRecord, TemplatesRepository, VersionRecord } from '../templates/repository.js';
import { isError } from '../templates/repository.js';
import { templateById } from '../templates/service.js';
import { type FragmentFields, presentDocFields, presentVersion } from './present.js';
import type { DocFields, DocFieldsPut, VersionPatch } from './schemas.js';

export interface VersionsWork {
  templates: TemplatesRepository;
}

export interface VersionsDeps {
  clock: Clock;
  blobs: BlobStore;
  engine: DocgenEngine;
}

/** Which version a path names: a number, or the `active` or `latest` alias. */
export type VersionRef = number | 'active' | 'latest';

/** A received template document. */
export interface TemplateUpload {
  filename: string;
  bytes: Uint8Array;
  syntaxVersion: SyntaxVersion;
}

/** The formats a new version may be generated in. */
const ALL_FORMATS: OutputFormat[] = ['DOC', 'DOCX', 'ODT', 'PDF'];

/** A version of a template of the client, or not found (an alias with no version behind it included). */
export async function versionOf(
  repo: TemplatesRepository,
  clientId: HrTenantId,
  template: TemplateRecord,
  ref: VersionRef,
): Promise<VersionRecord> {
  const number = ref === 'active' ? template.activeVersion : ref === 'latest' ? template.latestVersion : ref;
  const version = number > 0 ? await repo.findVersion(clientId, template.id, number) : undefined;
  if (!version) {
    throw new NotFoundError(
      'document generation template version',
      String(ref),
      ref === 'active'
        ? 'The template has no active version: upload a document without errors.'
        : `The template has no version ${JSON.stringify(String(ref))}.`,
    );
  }
  return version;
}

/**
 * The versions of a template (reference §5.5, `DocGenTemplateVersion`): an upload reads the document's
 * placeholders and problems in the generation engine (a worker thread, platform/docgen) and becomes the next
 * version; one without an ERROR becomes the active version.
 */
export class VersionsService {
  private readonly repo: TemplatesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<VersionsWork>>,
    private readonly deps: VersionsDeps,
  ) {
    this.repo = work.read.templates;
  }

  async list(clientId: HrTenantId, templateId: string, request: PageRequest): Promise<Page<VersionRecord>> {
    const template = await templateById(this.repo, clientId, templateId);
    return this.repo.versions(clientId, template.id, request);
  }

  async get(clientId: HrTenantId, templateId: string, ref: VersionRef): Promise<VersionRecord> {
    const template = await templateById(this.repo, clientId, templateId);
    return versionOf(this.repo, clientId, template, ref);
  }

  /** `POST …/file`: the document becomes the next version (active when it has no ERROR). */
  async upload(clientId: HrTenantId, templateId: string, upload: TemplateUpload): Promise<VersionRecord> {
    await templateById(this.repo, clientId, templateId);
    const inspection = await this.deps.engine.inspect(upload.bytes, upload.syntaxVersion);
    if (!('placeholders' in inspection)) {
      throw new FieldValidationError([
        { field: 'template', code: `invalid_${inspection.reason}`, message: inspection.message },
      ]);
    }
    const gone = new Error('the template was deleted meanwhile');
    const stored = await this.deps.blobs
      .put(Readable.from([Buffer.from(upload.bytes)]), {
        attach: async (trx, blob) => {
          const { templates, audit } = this.work.on(trx).read;
          const at = this.deps.clock.now();
          const number = await templates.nextVersion(clientId, templateId.toLowerCase(), at);
          if (number === undefined) throw gone;
          const id = templateId.toLowerCase();
          await templates.insertVersion(clientId, {
            templateId: id,
            version: number,
            syntaxVersion: upload.syntaxVersion,
            format: 'DOCX',
            outputFormats: ALL_FORMATS,
            templateInformation: inspection.issues,
            fragmentMapping: [],
            placeholders: inspection.placeholders,
            fieldTypings: [],
            sha256: blob.sha256,
            filename: upload.filename,
            size: blob.size,
            createdAt: at,
          });
          if (!inspection.issues.some(isError)) await templates.setActive(clientId, id, number, at);
          const version = (await templates.findVersion(clientId, id, number)) as VersionRecord;
          await audit.record(clientId, templateVersionEvents, 'created', eventOf(version));
          return version;
        },
      })
      .catch((error: unknown) => {
        if (error === gone) throw new NotFoundError('document generation template', templateId);
        throw error;
      });
    return stored.attached;
  }

  /** `PUT` and `PATCH …/versions/{number}`: the output formats and the fragment mapping. */
  async update(clientId: HrTenantId, templateId: string, ref: VersionRef, input: VersionPatch): Promise<VersionRecord> {
    return this.work.run(async ({ templates, audit }) => {
      const template = await templateById(templates, clientId, templateId);
      const version = await versionOf(templates, clientId, template, ref);
      const outputFormats = input.output_format
        ? ALL_FORMATS.filter((f) => input.output_format?.[f] ?? version.outputFormats.includes(f))
        : undefined;
      const fragmentMapping = input.fragment_mapping
        ? await this.checkMapping(templates, clientId, template, version, input.fragment_mapping)
        : undefined;
      await templates.updateVersion(clientId, template.id, version.version, {
        ...(outputFormats ? { outputFormats } : {}),
        ...(fragmentMapping ? { fragmentMapping } : {}),
        updatedAt: this.deps.clock.now(),
      });
      const updated = (await templates.findVersion(clientId, template.id, version.version)) as VersionRecord;
      await audit.record(clientId, templateVersionEvents, 'updated', eventOf(updated));
      return updated;
    });
  }

  /** Each fragment placeholder of the version may be mapped once, to an injectable template of the client. */
  private async checkMapping(
    templates: TemplatesRepository,
    clientId: HrTenantId,
    template: TemplateRecord,
    version: VersionRecord,
    mapping: NonNullable<VersionPatch['fragment_mapping']>,
  ) {
    const fragments = new Set(version.placeholders.filter((p) => p.kind === 'fragment').map((p) => p.slug));
    const injectable = await templates.injectable(
      clientId,
      mapping.map((m) => m.fragment_id.toLowerCase()),
    );
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    mapping.forEach((m, i) => {
      const id = m.fragment_id.toLowerCase();
      if (!fragments.has(m.slug)) {
        errors.push({
          field: `fragment_mapping.${i}.slug`,
          code: 'unknown',
          message: `The document has no fragment placeholder ${JSON.stringify(m.slug)}.`,
        });
      }
      if (seen.has(m.slug)) {
        errors.push({
          field: `fragment_mapping.${i}.slug`,
          code: 'duplicate',
          message: 'This placeholder is already mapped.',
        });
      }
      seen.add(m.slug);
      if (id === template.id) {
        errors.push({
          field: `fragment_mapping.${i}.fragment_id`,
          code: 'invalid',
          message: 'A template cannot insert itself.',
        });
      } else if (!injectable.has(id)) {
        errors.push({
          field: `fragment_mapping.${i}.fragment_id`,
          code: 'not_found',
          message: `No template ${JSON.stringify(m.fragment_id)}.`,
        });
      } else if (!injectable.get(id)) {
        errors.push({
          field: `fragment_mapping.${i}.fragment_id`,
          code: 'not_injectable',
          message: 'The template is not injectable (`is_injectable`).',
        });
      }
    });
    if (errors.length) throw new FieldValidationError(errors);
    return mapping.map((m) => ({ slug: m.slug, fragmentId: m.fragment_id.toLowerCase() }));
  }

  /**
   * DELETE a version. The active version moves to the newest remaining version without an ERROR (0 when none),
   * and `latest_version` to the highest remaining number.
   */
  async remove(clientId: HrTenantId, templateId: string, ref: VersionRef): Promise<void> {
    const blobs = await this.work.run(async ({ templates, audit }) => {
      const template = await templateById(templates, clientId, templateId);
      const version = await versionOf(templates, clientId, template, ref);
      const released = await templates.removeVersion(clientId, template.id, version);
      const at = this.deps.clock.now();
      await templates.refreshLatest(clientId, template.id, at);
      if (template.activeVersion === version.version) {
        await templates.setActive(
          clientId,
          template.id,
          (await templates.newestValidVersion(clientId, template.id)) ?? 0,
          at,
        );
      }
      await audit.record(clientId, templateVersionEvents, 'deleted', eventOf(version));
      return released;
    });
    for (const sha256 of new Set(blobs)) await this.deps.blobs.deleteIfUnreferenced(sha256);
  }

  /** `PUT …/doc_fields`: types placeholders (a `date` is written as a date); each must be a value placeholder. */
  async setTypings(
    clientId: HrTenantId,
    templateId: string,
    ref: VersionRef,
    input: DocFieldsPut,
  ): Promise<VersionRecord> {
    return this.work.run(async ({ templates, audit }) => {
      const template = await templateById(templates, clientId, templateId);
      const version = await versionOf(templates, clientId, template, ref);
      const values = new Set(version.placeholders.filter((p) => p.kind === 'text').map((p) => p.slug));
      const errors: FieldError[] = [];
      input.fields.forEach((f, i) => {
        if (!values.has(f.slug)) {
          errors.push({
            field: `fields.${i}.slug`,
            code: 'unknown',
            message: `The document has no value placeholder ${JSON.stringify(f.slug)}.`,
          });
        }
      });
      if (errors.length) throw new FieldValidationError(errors);
      const typings = new Map<string, FieldTyping>(version.fieldTypings.map((t) => [t.slug, t]));
      for (const f of input.fields) typings.set(f.slug, { slug: f.slug, typeId: f.type_id });
      await templates.updateVersion(clientId, template.id, version.version, {
        fieldTypings: [...typings.values()],
        updatedAt: this.deps.clock.now(),
      });
      const updated = (await templates.findVersion(clientId, template.id, version.version)) as VersionRecord;
      await audit.record(clientId, templateVersionEvents, 'updated', eventOf(updated));
      return updated;
    });
  }

  /** The template and version a path names, for reads (doc_fields, file, previews). */
  async resolve(clientId: HrTenantId, templateId: string, ref: VersionRef) {
    const template = await templateById(this.repo, clientId, templateId);
    return { template, version: await versionOf(this.repo, clientId, template, ref) };
  }

  /** The version's document laid out as a PDF, stored at the first call (its previews render it). */
  async previewSource(clientId: HrTenantId, version: VersionRecord): Promise<string> {
    if (version.pdfSha256) return version.pdfSha256;
    const laid = await this.deps.engine.layout(await readBlob(this.deps.blobs, version.sha256));
    if (!laid.ok) throw new StateError('preview_unavailable', `The document cannot be laid out: ${laid.message}`);
    const stored = await this.deps.blobs.put(Readable.from([Buffer.from(laid.pdf)]), {
      attach: (trx, blob) =>
        this.work.on(trx).read.templates.setVersionPdf(clientId, version.templateId, version.version, blob.sha256),
    });
    return stored.blob.sha256;
  }

  /** `…/doc_fields`: the version's placeholders as form fields; with `includeFragments`, each fragment's own. */
  async docFields(
    clientId: HrTenantId,
    templateId: string,
    ref: VersionRef,
    includeFragments: boolean,
  ): Promise<DocFields> {
    const { template, version } = await this.resolve(clientId, templateId, ref);
    if (!includeFragments) return presentDocFields(template, version);
    const fragments: FragmentFields[] = [];
    for (const link of version.fragmentMapping) {
      const fragment = await this.repo.find(clientId, link.fragmentId);
      const active =
        fragment && fragment.activeVersion > 0
          ? await this.repo.findVersion(clientId, fragment.id, fragment.activeVersion)
          : undefined;
      fragments.push({ slug: link.slug, fragmentId: link.fragmentId, placeholders: active?.placeholders ?? [] });
    }
    return presentDocFields(template, version, fragments);
  }

  /** The other templates whose versions insert this one as a fragment. */
  async fragmentUsages(clientId: HrTenantId, templateId: string): Promise<string[]> {
    const template = await templateById(this.repo, clientId, templateId);
    return (await this.repo.fragmentUsages(clientId, template.id)).filter((id) => id !== template.id);
  }
}

export function eventOf(version: VersionRecord) {
  return {
    id: `${version.templateId}:${version.version}`,
    name: `${version.filename} (version ${version.version})`,
    data: presentVersion(version),
  };
}
