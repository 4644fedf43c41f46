import type { Placeholder } from '../../../platform/docgen/types.js';
import { formatDateTime } from '../../../platform/time.js';
import type { TemplateRecord, VersionRecord } from '../templates/repository.js';
import type { DocField, DocFields, FieldSet, TemplateVersion } from './schemas.js';

/** A version on the wire (reference §5.5, `DocGenTemplateVersion`). */
export function presentVersion(v: VersionRecord): TemplateVersion {
  return {
    version: v.version,
    document_generation_template_id: v.templateId,
    syntax_version: v.syntaxVersion,
    format: v.format,
    output_format: {
      DOC: v.outputFormats.includes('DOC'),
      DOCX: v.outputFormats.includes('DOCX'),
      ODT: v.outputFormats.includes('ODT'),
      PDF: v.outputFormats.includes('PDF'),
    },
    template_information: v.templateInformation.map((i) => ({
      code: i.code,
      field: i.field,
      message: i.message,
      severity: i.severity,
    })),
    fragment_mapping: v.fragmentMapping.map((l) => ({ slug: l.slug, fragment_id: l.fragmentId })),
    filename: v.filename,
    size: v.size,
    created_at: formatDateTime(v.createdAt),
    updated_at: formatDateTime(v.updatedAt),
  };
}

const TYPE_OF_KIND: Record<Placeholder['kind'], string> = {
  text: 'text',
  list: 'checkboxes',
  table: 'fieldsetTable',
  condition: 'checkbox',
  fragment: 'fieldset',
};

const labelOf = (slug: string) => slug.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

function field(p: Placeholder, typings: Map<string, string>): DocField {
  const base = {
    slug: p.slug,
    label: labelOf(p.slug),
    type_id: p.kind === 'text' ? (typings.get(p.slug) ?? 'text') : TYPE_OF_KIND[p.kind],
    description: '',
    required: true,
    multiple: p.kind === 'list' || p.kind === 'table',
  };
  if (p.kind !== 'table') return base;
  return {
    ...base,
    fields: (p.columns ?? []).map((c) => ({
      slug: c,
      label: labelOf(c),
      type_id: 'text',
      description: '',
      required: true,
      multiple: false,
    })),
  };
}

/** A fragment placeholder's template and version, for `includeFragments`. */
export interface FragmentFields {
  slug: string;
  fragmentId: string;
  placeholders: Placeholder[];
}

/**
 * `…/doc_fields` (`FormidableCreatePayload`): a field per placeholder of the document, in order; a table's
 * columns inside it. Fragments are left out, unless `fragments` is given (`includeFragments=true`): then each is a
 * `fieldset` holding its own template's fields.
 */
export function presentDocFields(
  template: TemplateRecord,
  version: VersionRecord,
  fragments?: FragmentFields[],
): DocFields {
  const typings = new Map(version.fieldTypings.map((t) => [t.slug, t.typeId]));
  const byslug = new Map((fragments ?? []).map((f) => [f.slug, f]));
  const fields: DocField[] = [];
  for (const p of version.placeholders) {
    if (p.kind !== 'fragment') {
      fields.push(field(p, typings));
      continue;
    }
    const fragment = byslug.get(p.slug);
    if (!fragments) continue;
    fields.push({
      ...field(p, typings),
      ...(fragment ? { fragment_id: fragment.fragmentId } : {}),
      fields: (fragment?.placeholders ?? [])
        .filter((inner) => inner.kind !== 'fragment')
        .map((inner) => field(inner, new Map())),
    });
  }
  return { label: template.title, description: template.description, fields };
}

/** The deprecated `…/fields` (`FieldSet`). */
export function presentFieldSet(version: VersionRecord): FieldSet {
  const dates = new Set(version.fieldTypings.filter((t) => t.typeId === 'date').map((t) => t.slug));
  return {
    fields: version.placeholders.map((p) => ({
      name: p.slug,
      type: p.kind === 'text' && dates.has(p.slug) ? 'date' : p.kind,
      ...(p.columns ? { columns: p.columns } : {}),
    })),
  };
}
