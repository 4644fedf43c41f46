import { DOMParser, type Element, XMLSerializer } from '@xmldom/xmldom';
import { compileTemplate, type RenderState } from './compile.js';
import { DataBuilder, datasetLimit, type Scope } from './dataset.js';
import { inspectCompiled } from './inspect.js';
import { countZipPages, layoutZip } from './layout.js';
import { MAX_UNPACKED_BYTES, openDocx } from './package.js';
import { toInternal } from './syntax.js';
import type { FragmentInput, GenerateInput, GenerateOutcome, GenerationError, Inspection } from './types.js';
import type { ZipPackage } from './zip-package.js';

/** Bytes a generated document.xml may take at most. */
export const MAX_OUTPUT_BYTES = MAX_UNPACKED_BYTES;

/** A template filled: its package with the filled XML, or why not. */
type Filled = { ok: true; zip: ZipPackage; errors: GenerationError[] } | Exclude<GenerateOutcome, { ok: true }>;

/** The fields without a placeholder (`unknown`): a table's columns are its own, not the dataset's. */
function unknownFields(fields: GenerateInput['fields'], inspection: Inspection): GenerationError[] {
  const slugs = new Set(inspection.placeholders.map((p) => p.slug));
  return fields
    .filter((f) => typeof f?.slug === 'string' && !slugs.has(f.slug))
    .map((f) => ({ field: f.slug, code: 'unknown', message: `no placeholder $${f.slug} in the template` }));
}

/**
 * A filled fragment's body, as the XML of its paragraphs and tables (its section properties dropped), to write in
 * place of the paragraph of its placeholder.
 */
function fragmentBody(zip: ZipPackage): string {
  const doc = new DOMParser({ onError: () => {} }).parseFromString(
    zip.file('word/document.xml')?.asText() ?? '',
    'text/xml',
  );
  const body = doc.getElementsByTagName('w:body')[0];
  const serializer = new XMLSerializer();
  return Array.from(body?.childNodes ?? [])
    .filter((n) => n.nodeType === n.ELEMENT_NODE && (n as Element).nodeName !== 'w:sectPr')
    .map((n) => serializer.serializeToString(n))
    .join('');
}

/** The fragments the template uses, filled with their own fields (their errors named after their placeholder). */
function fillFragments(
  input: GenerateInput,
  inspection: Inspection,
  data: Scope,
  errors: GenerationError[],
): Filled | undefined {
  for (const placeholder of inspection.placeholders) {
    if (placeholder.kind !== 'fragment') continue;
    const fragment: FragmentInput | undefined = Object.hasOwn(input.fragments ?? {}, placeholder.slug)
      ? input.fragments[placeholder.slug]
      : undefined;
    if (!fragment) continue;
    // Permissive inside: the fragment's differences join the template's, and strict mode judges them all at once.
    const filled = fill({ ...input, ...fragment, fragments: {}, strict: false });
    if (!filled.ok) return filled;
    for (const e of filled.errors) errors.push({ ...e, field: `${placeholder.slug}.${e.field}` });
    data[placeholder.slug] = fragmentBody(filled.zip);
  }
  return undefined;
}

/**
 * Fills a template: opened safely, its tags compiled (an ERROR issue: `template`), the dataset checked against the
 * limits (`dataset`) and turned into data, fragments filled first, then rendered. Permissive: what has no value
 * stays as written and is listed `missing`, fields without a placeholder `unknown`; strict: any of them is
 * `strict`, nothing written.
 */
function fill(input: GenerateInput): Filled {
  const opened = openDocx(input.template);
  if (!opened.ok) {
    return {
      ok: false,
      reason: 'template',
      issues: [{ code: opened.reason, field: '', message: opened.message, severity: 'ERROR' }],
    };
  }
  const parts = new Set(Object.keys(opened.zip.files));
  toInternal(opened.zip, input.syntax);
  const state: RenderState = { missing: new Map() };
  const compiled = compileTemplate(opened.zip, input.syntax, state);
  const inspection = inspectCompiled(compiled, input.syntax);
  const issues = inspection.issues.filter((i) => i.severity === 'ERROR');
  if (!compiled.ok || issues.length > 0) return { ok: false, reason: 'template', issues };
  const builder = new DataBuilder(input.dateSlugs ?? [], input.locale);
  const data = builder.data(input.fields);
  const errors = [...builder.errors, ...unknownFields(input.fields, inspection)];
  const failed = fillFragments(input, inspection, data, errors);
  if (failed) return failed;
  compiled.doc.render(data);
  errors.push(...state.missing.values());
  if (input.strict && errors.length > 0) return { ok: false, reason: 'strict', errors };
  const zip = compiled.doc.getZip();
  // docxtemplater adds folder entries (`word/`): the package keeps its own entries only (`remove` would empty them).
  for (const name of Object.keys(zip.files)) if (!parts.has(name) && name.endsWith('/')) delete zip.files[name];
  const size = Buffer.byteLength(zip.file('word/document.xml')?.asText() ?? '');
  if (size > MAX_OUTPUT_BYTES) {
    return {
      ok: false,
      reason: 'dataset',
      message: `the document would take more than ${MAX_OUTPUT_BYTES} bytes (MAX_OUTPUT_BYTES)`,
    };
  }
  return { ok: true, zip, errors };
}

/**
 * Generates a document from a template and a dataset (types.ts, `GenerateInput`): the filled template itself
 * (`DOCX`, every other part of its package kept) or its layout (`PDF`, layout.ts), with its page count as laid
 * out. The dataset is checked against the limits first (dataset.ts). Never throws: an unexpected failure of the
 * template is `template`.
 */
export async function generate(input: GenerateInput): Promise<GenerateOutcome> {
  const limit = datasetLimit([input.fields, ...Object.values(input.fragments ?? {}).map((f) => f?.fields)]);
  if (limit) return { ok: false, reason: 'dataset', message: `the dataset has ${limit}` };
  let filled: Filled;
  try {
    filled = fill(input);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      reason: 'template',
      issues: [{ code: 'template_error', field: '', message, severity: 'ERROR' }],
    };
  }
  if (!filled.ok) return filled;
  if (input.format === 'PDF') {
    const { pdf, pages } = await layoutZip(filled.zip);
    return { ok: true, bytes: pdf, pages, errors: filled.errors };
  }
  const pages = await countZipPages(filled.zip);
  const bytes = filled.zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
  return { ok: true, bytes, pages, errors: filled.errors };
}
