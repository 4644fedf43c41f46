/**
 * Document generation's engine, as the HR API's services see it (docs/hr-api.md, "Document generation"): a DOCX
 * template is inspected (its placeholders and the problems found in it), filled from a dataset, written as DOCX or
 * PDF, and converted from V1 to V2 syntax. Nothing here knows HTTP, a database or a tenant.
 */

/** The placeholder syntax of a template version. */
export type SyntaxVersion = 'V1' | 'V2';

/** The formats a generation can be written in. */
export type OutputFormat = 'DOC' | 'DOCX' | 'ODT' | 'PDF';

/** A problem found in a template (`template_information`): an ERROR stops generation, a WARNING does not. */
export interface TemplateIssue {
  /** `unclosed_tag`, `unopened_tag`, `unclosed_loop`, `unopened_loop`, `invalid_slug`, `duplicate_open`, … */
  code: string;
  /** The placeholder concerned (its slug, or the text as written when it is not one). */
  field: string;
  message: string;
  severity: 'ERROR' | 'WARNING';
}

/**
 * What a placeholder is, read from how the document uses it: `text` (a scalar), `list` (a loop over scalars,
 * `{$.}` inside), `table` (a loop whose body uses column slugs), `condition` (a section shown when the value is
 * true), `fragment` (another template inserted in place of the paragraph).
 */
export type PlaceholderKind = 'text' | 'list' | 'table' | 'condition' | 'fragment';

/** A placeholder of a template, in the order of its first appearance. */
export interface Placeholder {
  /** The slug, without the leading `$`. */
  slug: string;
  kind: PlaceholderKind;
  /** A table's columns (the slugs used inside its loop), in order of appearance. */
  columns?: string[];
}

/** A template read: its placeholders, its problems, and its page count as laid out. */
export interface Inspection {
  placeholders: Placeholder[];
  issues: TemplateIssue[];
}

/**
 * A value of the dataset (reference §5.5, `DatasetField`): a scalar, `{label, value}` (the label is written), an
 * array of scalars (a list), or an array of rows, each an array of `{slug, value}` (a table). `type: 'date'` marks
 * a date: an ISO 8601 date or date-time, written in UTC.
 */
export interface DatasetField {
  slug: string;
  value: unknown;
  type?: string;
}

/** A fragment inserted by a `fragment` placeholder: the fragment template's document, syntax and own fields. */
export interface FragmentInput {
  template: Uint8Array;
  syntax: SyntaxVersion;
  fields: DatasetField[];
}

/** What to generate. */
export interface GenerateInput {
  template: Uint8Array;
  syntax: SyntaxVersion;
  fields: DatasetField[];
  /** By fragment placeholder slug. A fragment placeholder with no entry stays as written (a `missing` error). */
  fragments: Record<string, FragmentInput>;
  /** Slugs typed `date` by the version's `doc_fields`, in addition to the fields that say `type: 'date'`. */
  dateSlugs: string[];
  /** BCP 47 (`fr-fr`, `en-us`): how dates are written. */
  locale: string;
  /** True: any placeholder without a value, or any field without a placeholder, fails the generation. */
  strict: boolean;
  /** `DOCX` is the filled template itself; `PDF` is laid out by the engine from the filled document. */
  format: 'DOCX' | 'PDF';
}

/** A reported difference between the dataset and the template (`errors` of `DocGenFullWithErrors`). */
export interface GenerationError {
  field: string;
  /** `missing` (a placeholder without a value), `unknown` (a field without a placeholder), `invalid` (a value of the wrong shape, such as a date that is not one). */
  code: 'missing' | 'unknown' | 'invalid';
  message: string;
}

export type GenerateOutcome =
  /** Written. `errors` lists what permissive mode let through (empty when everything matched). */
  | { ok: true; bytes: Uint8Array; pages: number; errors: GenerationError[] }
  /** Strict mode, and the dataset and the template differ: nothing is written. */
  | { ok: false; reason: 'strict'; errors: GenerationError[] }
  /** The template has an ERROR in its `template_information`, or is not a DOCX. */
  | { ok: false; reason: 'template'; issues: TemplateIssue[] }
  /** The dataset is past the engine's limits (rows, depth, size of the output). */
  | { ok: false; reason: 'dataset'; message: string }
  /** Past the time or memory limits of the worker, or the worker is too busy. */
  | { ok: false; reason: 'limits' };

/** Why a file is not a template (`inspect` answers it instead of an inspection). */
export type NotATemplate = { ok: false; reason: 'not_docx' | 'too_large' | 'broken' | 'limits'; message: string };

/** A document laid out as a PDF (a template's previews), or why not. */
export type LayoutOutcome = { ok: true; pdf: Uint8Array; pages: number } | NotATemplate;

/** What the HR services ask of the engine (the worker of runner.ts answers it; tests may stand in for it). */
export interface DocgenEngine {
  inspect(bytes: Uint8Array, syntax: SyntaxVersion): Promise<Inspection | NotATemplate>;
  generate(input: GenerateInput): Promise<GenerateOutcome>;
  migrate(bytes: Uint8Array): Promise<{ ok: true; bytes: Uint8Array } | NotATemplate>;
  layout(docx: Uint8Array): Promise<LayoutOutcome>;
}
