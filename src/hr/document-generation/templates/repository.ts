import type { Selectable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { OutputFormat, Placeholder, SyntaxVersion, TemplateIssue } from '../../../platform/docgen/types.js';
import type { HrDocgenTemplatesTable, HrDocgenTemplateVersionsTable } from './tables.js';

/** An organization a template is restricted to, with or without its descendants. */
export interface TemplateRestriction {
  organizationId: string;
  includeChildren: boolean;
}

/** A document generation template (reference §5.5, `DocGenTemplate`). */
export interface TemplateRecord {
  pk: number;
  id: string;
  title: string;
  description: string;
  locale: string;
  enabled: boolean;
  isInjectable: boolean;
  validityStartDate: string | null;
  validityEndDate: string | null;
  restrictions: TemplateRestriction[];
  latestVersion: number;
  activeVersion: number;
  /** The active version's syntax; null when no version is active. */
  activeVersionSyntax: SyntaxVersion | null;
  createdAt: number;
  updatedAt: number;
}

export type TemplateValues = Omit<
  TemplateRecord,
  'pk' | 'id' | 'createdAt' | 'latestVersion' | 'activeVersion' | 'activeVersionSyntax'
>;

/** A fragment placeholder's template. */
export interface FragmentLink {
  slug: string;
  fragmentId: string;
}

/** A typing `PUT …/doc_fields` set on a placeholder. */
export interface FieldTyping {
  slug: string;
  typeId: string;
}

/** A version of a template: its document and what was read from it. */
export interface VersionRecord {
  templateId: string;
  version: number;
  syntaxVersion: SyntaxVersion;
  format: string;
  outputFormats: OutputFormat[];
  templateInformation: TemplateIssue[];
  fragmentMapping: FragmentLink[];
  placeholders: Placeholder[];
  fieldTypings: FieldTyping[];
  sha256: string;
  /** The document laid out as a PDF (its previews), once a preview asked for it. */
  pdfSha256: string | null;
  filename: string;
  size: number;
  createdAt: number;
  updatedAt: number;
}

type StoredRestriction = { organization_id: string; include_children: boolean };
type StoredLink = { slug: string; fragment_id: string };
type StoredTyping = { slug: string; type_id: string };

type TemplateRow = Selectable<HrDocgenTemplatesTable> & { active_syntax: string | null };

function toTemplate(row: TemplateRow): TemplateRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    title: row.title,
    description: row.description,
    locale: row.locale,
    enabled: row.enabled === 1,
    isInjectable: row.is_injectable === 1,
    validityStartDate: row.validity_start_date,
    validityEndDate: row.validity_end_date,
    restrictions: (JSON.parse(row.restrictions) as StoredRestriction[]).map((r) => ({
      organizationId: r.organization_id,
      includeChildren: r.include_children,
    })),
    latestVersion: Number(row.latest_version),
    activeVersion: Number(row.active_version),
    activeVersionSyntax: row.active_syntax === 'V1' || row.active_syntax === 'V2' ? row.active_syntax : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function templateColumns(values: TemplateValues) {
  return {
    title: values.title,
    description: values.description,
    locale: values.locale,
    enabled: values.enabled ? 1 : 0,
    is_injectable: values.isInjectable ? 1 : 0,
    validity_start_date: values.validityStartDate,
    validity_end_date: values.validityEndDate,
    restrictions: JSON.stringify(
      values.restrictions.map(
        (r): StoredRestriction => ({ organization_id: r.organizationId, include_children: r.includeChildren }),
      ),
    ),
    updated_at: values.updatedAt,
  };
}

function toVersion(row: Selectable<HrDocgenTemplateVersionsTable>): VersionRecord {
  return {
    templateId: row.template_id,
    version: Number(row.version),
    syntaxVersion: row.syntax_version,
    format: row.format,
    outputFormats: JSON.parse(row.output_format) as OutputFormat[],
    templateInformation: JSON.parse(row.template_information) as TemplateIssue[],
    fragmentMapping: (JSON.parse(row.fragment_mapping) as StoredLink[]).map((l) => ({
      slug: l.slug,
      fragmentId: l.fragment_id,
    })),
    placeholders: JSON.parse(row.placeholders) as Placeholder[],
    fieldTypings: (JSON.parse(row.field_typings) as StoredTyping[]).map((t) => ({ slug: t.slug, typeId: t.type_id })),
    sha256: row.sha256,
    pdfSha256: row.pdf_sha256,
    filename: row.filename,
    size: Number(row.size),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** What a version's metadata write changes. */
export interface VersionChange {
  outputFormats?: OutputFormat[];
  fragmentMapping?: FragmentLink[];
  fieldTypings?: FieldTyping[];
  updatedAt: number;
}

function versionColumns(change: VersionChange) {
  return {
    ...(change.outputFormats ? { output_format: JSON.stringify(change.outputFormats) } : {}),
    ...(change.fragmentMapping
      ? {
          fragment_mapping: JSON.stringify(
            change.fragmentMapping.map((l): StoredLink => ({ slug: l.slug, fragment_id: l.fragmentId })),
          ),
        }
      : {}),
    ...(change.fieldTypings
      ? {
          field_typings: JSON.stringify(
            change.fieldTypings.map((t): StoredTyping => ({ slug: t.slug, type_id: t.typeId })),
          ),
        }
      : {}),
    updated_at: change.updatedAt,
  };
}

/** In creation order. */
const ORDER: ListOrder = { tiebreak: 't.pk' };
const VERSION_ORDER: ListOrder = { tiebreak: 'v.version' };

/** The filters of `GET /document_generation_templates`. */
export interface TemplateFilter {
  q?: string | undefined;
  enabled?: boolean | undefined;
  locale?: string | undefined;
  isInjectable?: boolean | undefined;
  /** Only the templates whose latest version is in this syntax (the syntax migration's list). */
  latestSyntax?: SyntaxVersion | undefined;
}

/** Templates and their versions (docs/hr-api.md, "Document generation"). */
export class TemplatesRepository extends HrRepository {
  private templates(clientId: HrTenantId) {
    // tenant-by-hand: the active version is joined on the template row `t`, read through `Tenant`, by its client.
    return this.tenant(clientId)
      .selectFrom('hr_docgen_templates as t')
      .leftJoin('hr_docgen_template_versions as av', (join) =>
        join
          .onRef('av.client_id', '=', 't.client_id')
          .onRef('av.template_id', '=', 't.id')
          .onRef('av.version', '=', 't.active_version'),
      )
      .selectAll('t')
      .select('av.syntax_version as active_syntax');
  }

  async page(clientId: HrTenantId, filter: TemplateFilter, request: PageRequest): Promise<Page<TemplateRecord>> {
    let q = this.templates(clientId);
    if (filter.q !== undefined) q = q.where(containsText(['t.title', 't.description'], filter.q));
    if (filter.enabled !== undefined) q = q.where('t.enabled', '=', filter.enabled ? 1 : 0);
    if (filter.locale !== undefined) q = q.where('t.locale', '=', filter.locale);
    if (filter.isInjectable !== undefined) q = q.where('t.is_injectable', '=', filter.isInjectable ? 1 : 0);
    if (filter.latestSyntax !== undefined) {
      const syntax = filter.latestSyntax;
      // tenant-by-hand: the latest version is tied to the template row `t`, read through `Tenant`, by its client.
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('hr_docgen_template_versions as lv')
            .select('lv.version')
            .whereRef('lv.client_id', '=', 't.client_id')
            .whereRef('lv.template_id', '=', 't.id')
            .whereRef('lv.version', '=', 't.latest_version')
            .where('lv.syntax_version', '=', syntax),
        ),
      );
    }
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(toTemplate) };
  }

  async find(clientId: HrTenantId, id: string): Promise<TemplateRecord | undefined> {
    const row = await this.templates(clientId).where('t.id', '=', id).executeTakeFirst();
    return row ? toTemplate(row) : undefined;
  }

  async insert(clientId: HrTenantId, id: string, values: TemplateValues, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_docgen_templates', {
      ...templateColumns(values),
      id,
      latest_version: 0,
      active_version: 0,
      created_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, values: TemplateValues): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_templates')
      .set(templateColumns(values))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Takes the next version number of a template (its row is locked until the transaction ends, so two uploads
   * never take the same one); undefined when the template does not exist.
   */
  async nextVersion(clientId: HrTenantId, id: string, at: number): Promise<number | undefined> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_templates')
      .set((eb) => ({ latest_version: eb('latest_version', '+', 1), updated_at: at }))
      .where('id', '=', id)
      .execute();
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_templates')
      .select('latest_version')
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? Number(row.latest_version) : undefined;
  }

  async setActive(clientId: HrTenantId, id: string, version: number, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_templates')
      .set({ active_version: version, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async remove(clientId: HrTenantId, id: string): Promise<string[]> {
    const blobs = await this.tenant(clientId)
      .selectFrom('hr_docgen_template_versions')
      .select(['sha256', 'pdf_sha256'])
      .where('template_id', '=', id)
      .execute();
    await this.tenant(clientId).deleteFrom('hr_docgen_template_versions').where('template_id', '=', id).execute();
    await this.tenant(clientId).deleteFrom('hr_docgen_templates').where('id', '=', id).execute();
    return blobs.flatMap((b) => (b.pdf_sha256 ? [b.sha256, b.pdf_sha256] : [b.sha256]));
  }

  async versions(clientId: HrTenantId, templateId: string, request: PageRequest): Promise<Page<VersionRecord>> {
    const q = this.tenant(clientId)
      .selectFrom('hr_docgen_template_versions as v')
      .selectAll('v')
      .where('v.template_id', '=', templateId);
    const page = await listPage(q, VERSION_ORDER, request);
    return { ...page, items: page.items.map(toVersion) };
  }

  async findVersion(clientId: HrTenantId, templateId: string, version: number): Promise<VersionRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_template_versions')
      .selectAll()
      .where('template_id', '=', templateId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row ? toVersion(row) : undefined;
  }

  /** The newest version without an ERROR in its template information, or undefined. */
  async newestValidVersion(clientId: HrTenantId, templateId: string): Promise<number | undefined> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_docgen_template_versions')
      .select(['version', 'template_information'])
      .where('template_id', '=', templateId)
      .orderBy('version', 'desc')
      .execute();
    const valid = rows.find((r) => !(JSON.parse(r.template_information) as TemplateIssue[]).some(isError));
    return valid ? Number(valid.version) : undefined;
  }

  /** Records the version's document laid out as a PDF (its previews). */
  async setVersionPdf(clientId: HrTenantId, templateId: string, version: number, sha256: string): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_docgen_template_versions')
      .set({ pdf_sha256: sha256 })
      .where('template_id', '=', templateId)
      .where('version', '=', version)
      .execute();
  }

  async insertVersion(clientId: HrTenantId, version: Omit<VersionRecord, 'updatedAt' | 'pdfSha256'>): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_docgen_template_versions', {
        template_id: version.templateId,
        version: version.version,
        syntax_version: version.syntaxVersion,
        format: version.format,
        template_information: JSON.stringify(version.templateInformation),
        placeholders: JSON.stringify(version.placeholders),
        sha256: version.sha256,
        filename: version.filename,
        size: version.size,
        created_at: version.createdAt,
        output_format: '[]',
        fragment_mapping: '[]',
        field_typings: '[]',
        ...versionColumns({ ...version, updatedAt: version.createdAt }),
      })
      .execute();
  }

  async updateVersion(clientId: HrTenantId, templateId: string, version: number, change: VersionChange) {
    await this.tenant(clientId)
      .updateTable('hr_docgen_template_versions')
      .set(versionColumns(change))
      .where('template_id', '=', templateId)
      .where('version', '=', version)
      .execute();
  }

  /** Deletes a version; answers the blobs it held. */
  async removeVersion(clientId: HrTenantId, templateId: string, version: VersionRecord): Promise<string[]> {
    await this.tenant(clientId)
      .deleteFrom('hr_docgen_template_versions')
      .where('template_id', '=', templateId)
      .where('version', '=', version.version)
      .execute();
    return version.pdfSha256 ? [version.sha256, version.pdfSha256] : [version.sha256];
  }

  /** Sets the template's latest version to its highest remaining one (0 when none remains). */
  async refreshLatest(clientId: HrTenantId, templateId: string, at: number): Promise<void> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_docgen_template_versions')
      .select((eb) => eb.fn.max('version').as('latest'))
      .where('template_id', '=', templateId)
      .executeTakeFirst();
    await this.tenant(clientId)
      .updateTable('hr_docgen_templates')
      .set({ latest_version: Number(row?.latest ?? 0), updated_at: at })
      .where('id', '=', templateId)
      .execute();
  }

  /** Which of these organization ids the client has (a template's restrictions name them). */
  existingOrganizations(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }

  /** Which of these template ids the client has (a fragment mapping names them), with their `is_injectable`. */
  async injectable(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, boolean>> {
    if (ids.length === 0) return new Map();
    const rows = await this.tenant(clientId)
      .selectFrom('hr_docgen_templates')
      .select(['id', 'is_injectable'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r.is_injectable === 1]));
  }

  /** The templates whose versions map a fragment placeholder to `fragmentId` (`fragment_usages`). */
  async fragmentUsages(clientId: HrTenantId, fragmentId: string): Promise<string[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_docgen_template_versions')
      .select(['template_id', 'fragment_mapping'])
      .where('fragment_mapping', 'like', `%${fragmentId}%`)
      .execute();
    const users = rows
      .filter((r) => (JSON.parse(r.fragment_mapping) as StoredLink[]).some((l) => l.fragment_id === fragmentId))
      .map((r) => r.template_id);
    return [...new Set(users)].sort();
  }
}

export const isError = (issue: TemplateIssue): boolean => issue.severity === 'ERROR';
