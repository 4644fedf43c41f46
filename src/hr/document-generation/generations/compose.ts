import { type BlobStore, readBlob } from '../../../platform/blobs/store.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type {
  DatasetField,
  FragmentInput,
  GenerateInput,
  GenerateOutcome,
  GenerationError,
  OutputFormat,
} from '../../../platform/docgen/types.js';
import {
  DependencyFailedError,
  type FieldError,
  FieldValidationError,
  NotFoundError,
  StateError,
} from '../../../platform/errors.js';
import type { TemplateRecord, TemplatesRepository, VersionRecord } from '../templates/repository.js';
import { isError } from '../templates/repository.js';
import { templateById } from '../templates/service.js';
import { versionOf } from '../versions/service.js';
import type { GenerationPayload } from './repository.js';

/** The office converter (platform/docgen/convert.ts), as generation sees it. */
export interface OfficeConverter {
  /** Where it is; undefined when none was found (ODT and DOC then answer 424). */
  readonly path: string | undefined;
  convert(
    docx: Uint8Array,
    to: 'ODT' | 'DOC',
  ): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; reason: string; message: string }>;
}

/** A `fragment_fields` entry for a slug the version maps to no fragment: the caller's data names nothing. */
export function unknownFragments(
  mapping: readonly { slug: string }[],
  fragmentFields: Record<string, unknown> | undefined,
): FieldError[] {
  const mapped = new Set(mapping.map((m) => m.slug));
  return Object.keys(fragmentFields ?? {})
    .filter((slug) => !mapped.has(slug))
    .map((slug) => ({
      field: `fragment_fields.${slug}`,
      code: 'not_found',
      message: `The template version maps no fragment ${JSON.stringify(slug)} (its fragment_mapping).`,
    }));
}

/** The template and version a generation uses, checked: enabled, valid today, without ERROR, in the format. */
export async function generationTarget(
  repo: TemplatesRepository,
  clientId: HrTenantId,
  input: { templateId: string; version: number | undefined; format: OutputFormat; today: string },
): Promise<{ template: TemplateRecord; version: VersionRecord }> {
  const template = await templateById(repo, clientId, input.templateId).catch((error: unknown) => {
    if (error instanceof NotFoundError) {
      throw new FieldValidationError([
        { field: 'document_generation_template_id', code: 'not_found', message: 'No template has this id.' },
      ]);
    }
    throw error;
  });
  if (!template.enabled) throw new StateError('template_disabled', 'The template is disabled (`enabled` is false).');
  if (
    (template.validityStartDate !== null && input.today < template.validityStartDate) ||
    (template.validityEndDate !== null && input.today > template.validityEndDate)
  ) {
    throw new StateError('template_not_valid', `The template is not valid on ${input.today} (its validity dates).`);
  }
  const version = await versionOf(repo, clientId, template, input.version ?? 'latest').catch((error: unknown) => {
    if (error instanceof NotFoundError) {
      throw new FieldValidationError([
        { field: 'document_generation_template_version', code: 'not_found', message: error.message },
      ]);
    }
    throw error;
  });
  if (version.templateInformation.some(isError)) {
    throw new StateError(
      'template_has_errors',
      `Version ${version.version} of the template has errors (its template_information): correct the document and upload it again.`,
    );
  }
  if (!version.outputFormats.includes(input.format)) {
    throw new FieldValidationError([
      {
        field: 'output_format',
        code: 'invalid_choice',
        message: `Version ${version.version} is not generated in ${input.format} (its output_format).`,
      },
    ]);
  }
  return { template, version };
}

/** 424 before any work when the format needs the office converter and none is found. */
export function checkConverter(format: OutputFormat, office: OfficeConverter): void {
  if ((format === 'ODT' || format === 'DOC') && office.path === undefined) {
    throw new DependencyFailedError(
      `${format} output needs an office converter (LibreOffice's soffice) and none was found: install LibreOffice, or name it with ATRIUM_SOFFICE.`,
    );
  }
}

/** What the engine is asked: the version's document, its fragments' documents, and the dataset. */
export async function engineInput(
  repo: TemplatesRepository,
  blobs: BlobStore,
  clientId: HrTenantId,
  target: { template: TemplateRecord; version: VersionRecord },
  payload: GenerationPayload,
  options: { strict: boolean; format: OutputFormat },
): Promise<GenerateInput> {
  const { template, version } = target;
  const fragments: Record<string, FragmentInput> = {};
  const own = new Map(payload.fragmentFields.map((f) => [f.slug, f.fields]));
  for (const link of version.fragmentMapping) {
    const fragment = await repo.find(clientId, link.fragmentId);
    if (!fragment || fragment.activeVersion === 0) continue;
    const fv = await repo.findVersion(clientId, fragment.id, fragment.activeVersion);
    if (!fv) continue;
    fragments[link.slug] = {
      template: await readBlob(blobs, fv.sha256),
      syntax: fv.syntaxVersion,
      fields: own.get(link.slug) ?? ([] as DatasetField[]),
    };
  }
  return {
    template: await readBlob(blobs, version.sha256),
    syntax: version.syntaxVersion,
    fields: payload.fields,
    fragments,
    dateSlugs: version.fieldTypings.filter((t) => t.typeId === 'date').map((t) => t.slug),
    locale: template.locale,
    strict: options.strict,
    format: options.format === 'PDF' ? 'PDF' : 'DOCX',
  };
}

/** A generated document, in its final format. */
export interface Generated {
  bytes: Uint8Array;
  pages: number;
  errors: GenerationError[];
  /** The PDF its previews are made of, when it is one. */
  isPdf: boolean;
}

/** Turns what the engine answered into the document, or the HR API's error; converts ODT and DOC. */
export async function finishOutcome(
  outcome: GenerateOutcome,
  format: OutputFormat,
  office: OfficeConverter,
): Promise<Generated> {
  if (!outcome.ok) {
    switch (outcome.reason) {
      case 'strict':
        throw new FieldValidationError(
          outcome.errors.map((e) => ({ field: `fields.${e.field}`, code: e.code, message: e.message })),
        );
      case 'template':
        throw new StateError('template_has_errors', 'The template has errors: see its template_information.');
      case 'dataset':
        throw new FieldValidationError([{ field: 'fields', code: 'too_large', message: outcome.message }]);
      case 'limits':
        throw new StateError(
          'generation_limits',
          'The document could not be generated within the time and memory limits of a generation.',
        );
    }
  }
  if (format !== 'ODT' && format !== 'DOC') {
    return { bytes: outcome.bytes, pages: outcome.pages, errors: outcome.errors, isPdf: format === 'PDF' };
  }
  const converted = await office.convert(outcome.bytes, format);
  if (!converted.ok) {
    throw new DependencyFailedError(`The office converter failed to write ${format}: ${converted.message}`);
  }
  return { bytes: converted.bytes, pages: outcome.pages, errors: outcome.errors, isPdf: false };
}
