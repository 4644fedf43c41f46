import type { HrTenantId } from '../../../platform/db/tenant.js';
import { type FieldError, FieldValidationError } from '../../../platform/errors.js';
import { parseDate, parseDateTime } from '../../../platform/time.js';
import { type FieldValidation, type FormAnswer, type FormDefinition, type FormField, LAYOUT_TYPES } from './schemas.js';

/**
 * The rules of forms, shared by request forms and fill_form tasks: a
 * definition is checked once when it is written, and every `form_data` is
 * checked against it. Pure functions: no database, no HTTP.
 */

const CHOICE_TYPES = new Set(['checkboxes', 'dropdown', 'radios', 'radiosButtons']);
const LAYOUT = new Set<string>(LAYOUT_TYPES);
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LENGTH_RULES = new Set(['MAXLENGTH', 'MINLENGTH']);
const DATE_ONLY_RULES = new Set(['IS_AGE_ABOVE', 'IS_AGE_UNDER', 'IS_DATE_IN_THE_FUTURE', 'IS_DATE_IN_THE_PAST']);
const COMPARE_RULES = new Set(['EQ', 'NEQ', 'GT', 'GTE', 'LT', 'LTE']);

/** Normalises a definition (field ids, defaults) and refuses an inconsistent one; `path` prefixes error fields. */
export function checkDefinition(definition: FormDefinition, path: string): FormDefinition {
  const errors: FieldError[] = [];
  const seen = new Map<string, FormField>();
  definition.fields.forEach((field, i) => {
    const at = `${path}.fields.${i}`;
    if (seen.has(field.slug)) {
      errors.push({ field: `${at}.slug`, code: 'duplicate', message: `Slug "${field.slug}" is used twice.` });
    }
    seen.set(field.slug, field);
    if (CHOICE_TYPES.has(field.type_id)) {
      const items = field.items ?? [];
      if (items.length === 0) {
        errors.push({ field: `${at}.items`, code: 'too_few', message: `A ${field.type_id} field needs items.` });
      }
      const values = new Set<string>();
      items.forEach((item, k) => {
        if (values.has(item.value)) {
          errors.push({ field: `${at}.items.${k}.value`, code: 'duplicate', message: `Value "${item.value}" twice.` });
        }
        values.add(item.value);
      });
    }
    if (field.dataset_id !== undefined && field.type_id !== 'dataset') {
      errors.push({
        field: `${at}.dataset_id`,
        code: 'invalid_value',
        message: 'Only a dataset field names a dataset.',
      });
    }
    (field.validations ?? []).forEach((rule, k) => {
      const problem = validationProblem(field, rule);
      if (problem) errors.push({ field: `${at}.validations.${k}`, code: 'invalid_value', message: problem });
    });
  });
  (definition.conditions ?? []).forEach((condition, i) => {
    const at = `${path}.conditions.${i}`;
    condition.field_ids.forEach((slug, k) => {
      if (!seen.has(slug)) {
        errors.push({ field: `${at}.field_ids.${k}`, code: 'unknown_field', message: `No field "${slug}".` });
      }
    });
    condition.tests.forEach((test, k) => {
      if (!seen.has(test.field_id)) {
        errors.push({
          field: `${at}.tests.${k}.field_id`,
          code: 'unknown_field',
          message: `No field "${test.field_id}".`,
        });
      }
    });
  });
  if (errors.length > 0) throw new FieldValidationError(errors);
  return {
    ...definition,
    conditions: definition.conditions ?? [],
    fields: definition.fields.map((field, i) => ({
      ...field,
      id: i + 1,
      description: field.description ?? '',
      accesses: field.accesses ?? [],
    })),
  };
}

function validationProblem(field: FormField, rule: FieldValidation): string | undefined {
  const type = field.type_id;
  if (LENGTH_RULES.has(rule.type)) {
    if (!['text', 'paragraph', 'email'].includes(type)) return `${rule.type} applies to text fields.`;
    if (!Number.isInteger(Number(rule.value)) || Number(rule.value) < 0) return `${rule.type} needs a length.`;
  } else if (rule.type === 'REGEXP') {
    if (!['text', 'paragraph', 'email'].includes(type)) return 'REGEXP applies to text fields.';
    try {
      new RegExp(String(rule.value), 'u');
    } catch {
      return 'REGEXP needs a valid regular expression.';
    }
  } else if (DATE_ONLY_RULES.has(rule.type)) {
    if (type !== 'date') return `${rule.type} applies to date fields.`;
    if (rule.type.startsWith('IS_AGE') && !(Number.isInteger(Number(rule.value)) && Number(rule.value) >= 0)) {
      return `${rule.type} needs an age in years.`;
    }
  } else if (COMPARE_RULES.has(rule.type)) {
    if (type === 'number') {
      if (!Number.isFinite(Number(rule.value)) || String(rule.value).trim() === '')
        return `${rule.type} needs a number.`;
    } else if (type === 'date') {
      if (!parseDate(String(rule.value))) return `${rule.type} needs a date (YYYY-MM-DD).`;
    } else if (!['text', 'paragraph', 'email'].includes(type) || !['EQ', 'NEQ'].includes(rule.type)) {
      return `${rule.type} does not apply to a ${type} field.`;
    }
  }
  return undefined;
}

/** Whether the API must answer the field: its `API` access, else its `EMPLOYEE` access, is REQUIRED. */
export function isRequired(field: FormField): boolean {
  if (field.required) return true;
  const accesses = field.accesses ?? [];
  const level = (accesses.find((a) => a.access_id === 'API') ?? accesses.find((a) => a.access_id === 'EMPLOYEE'))
    ?.level;
  return level === 'REQUIRED';
}

/** A file answer: an upload to consume for the field, with the path of the value that named it. */
export interface FileAnswer {
  fieldId: string;
  uploadId: string;
  path: string;
}

export interface AnswerOptions {
  /** The payload key of the answers, for error paths (`form_data`). */
  path: string;
  /** Answers already stored (a PATCH or a saved draft): new answers replace them field by field. */
  previous?: readonly FormAnswer[];
  /** Files already attached, per field slug (they count as answers of file fields). */
  filesByField?: ReadonlyMap<string, number>;
  /** Enforce required fields (creating a request, completing a task); false for drafts. */
  requireAll: boolean;
  /** Today, `YYYY-MM-DD`, for the date rules. */
  today: string;
  /**
   * The values (their dotted ids) that the datasets named by dataset fields hold, among those the answers name
   * ({@link datasetValuesOf}); a dataset field with a `dataset_id` takes only these.
   */
  datasetValues?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Which of a dataset's values exist: the datasets service answers it. */
export interface DatasetValueLookup {
  existingValues(clientId: HrTenantId, datasetId: string, ids: readonly string[]): Promise<Set<string>>;
}

/**
 * The values that the answers to dataset fields name, looked up in their datasets (one query per dataset): what
 * {@link checkAnswers} takes as `datasetValues`.
 */
export async function datasetValuesOf(
  lookup: DatasetValueLookup,
  clientId: HrTenantId,
  definition: FormDefinition,
  answers: readonly FormAnswer[],
): Promise<Map<string, Set<string>>> {
  const named = new Map<string, string[]>();
  const bySlug = new Map(definition.fields.map((f) => [f.slug, f]));
  for (const answer of answers) {
    const datasetId = bySlug.get(answer.field_id)?.dataset_id;
    if (datasetId === undefined || !Array.isArray(answer.values)) continue;
    const ids = named.get(datasetId) ?? [];
    named.set(datasetId, ids);
    for (const path of answer.values) {
      if (!Array.isArray(path)) continue;
      for (const node of path) {
        const id = (node as { id?: unknown } | null)?.id;
        if (typeof id === 'string') ids.push(id);
      }
    }
  }
  const out = new Map<string, Set<string>>();
  for (const [datasetId, ids] of named) out.set(datasetId, await lookup.existingValues(clientId, datasetId, ids));
  return out;
}

export interface CheckedAnswers {
  /** Every non-file answer after the merge, in definition order. */
  answers: FormAnswer[];
  /** New files to attach. */
  files: FileAnswer[];
}

/**
 * Checks `answers` against the definition (reference §3d.4) and merges them
 * over `previous`. Every wrong answer is one field error whose path points at
 * it (`form_data.2.values.0`); throws `FieldValidationError` when any is wrong.
 */
export function checkAnswers(
  definition: FormDefinition,
  answers: readonly FormAnswer[],
  options: AnswerOptions,
): CheckedAnswers {
  const errors: FieldError[] = [];
  const bySlug = new Map(definition.fields.map((f) => [f.slug, f]));
  const merged = new Map<string, unknown[]>();
  for (const answer of options.previous ?? []) merged.set(answer.field_id, answer.values);
  const files: FileAnswer[] = [];
  const given = new Set<string>();
  // Fields whose answer was refused: their own error says enough, so no `required` is added for them.
  const refused = new Set<string>();

  answers.forEach((answer, i) => {
    const at = `${options.path}.${i}`;
    const field = bySlug.get(answer.field_id);
    if (!field) {
      errors.push({
        field: `${at}.field_id`,
        code: 'unknown_field',
        message: `The form has no field "${answer.field_id}".`,
      });
      return;
    }
    if (given.has(field.slug)) {
      errors.push({ field: `${at}.field_id`, code: 'duplicate', message: `Field "${field.slug}" is answered twice.` });
      return;
    }
    given.add(field.slug);
    if (LAYOUT.has(field.type_id)) {
      errors.push({
        field: `${at}.field_id`,
        code: 'not_answerable',
        message: `Field "${field.slug}" is a ${field.type_id}; it takes no answer.`,
      });
      return;
    }
    const before = errors.length;
    const values = checkValues(field, answer.values, `${at}.values`, options, errors);
    if (errors.length > before) refused.add(field.slug);
    if (field.type_id === 'file') {
      const existing = options.filesByField?.get(field.slug) ?? 0;
      if (!field.multiple && existing + answer.values.length > 1) {
        errors.push({
          field: `${at}.values`,
          code: 'too_many',
          message: `Field "${field.slug}" holds one file; delete the current file first to replace it.`,
        });
      }
      answer.values.forEach((value, k) => {
        const uploadId = (value as { upload_id?: unknown } | null)?.upload_id;
        if (typeof uploadId === 'string')
          files.push({ fieldId: field.slug, uploadId, path: `${at}.values.${k}.upload_id` });
      });
    } else if (values.length === 0) {
      merged.delete(field.slug);
    } else {
      merged.set(field.slug, values);
    }
  });

  if (options.requireAll) {
    const fileCount = (slug: string) =>
      (options.filesByField?.get(slug) ?? 0) + files.filter((f) => f.fieldId === slug).length;
    for (const field of definition.fields) {
      if (LAYOUT.has(field.type_id) || !isRequired(field) || refused.has(field.slug)) continue;
      if (!isDisplayed(definition, field.slug, merged)) continue;
      const answered = field.type_id === 'file' ? fileCount(field.slug) > 0 : (merged.get(field.slug)?.length ?? 0) > 0;
      if (!answered) {
        errors.push({ field: options.path, code: 'required', message: `Field "${field.slug}" needs an answer.` });
      }
    }
  }
  if (errors.length > 0) throw new FieldValidationError(errors);
  const ordered: FormAnswer[] = [];
  for (const field of definition.fields) {
    const values = merged.get(field.slug);
    if (values) ordered.push({ field_id: field.slug, values });
  }
  return { answers: ordered, files };
}

/** A field is shown unless a `display_iff` condition naming it fails. */
function isDisplayed(definition: FormDefinition, slug: string, answers: ReadonlyMap<string, unknown[]>): boolean {
  for (const condition of definition.conditions ?? []) {
    if (!condition.field_ids.includes(slug)) continue;
    const pass = condition.tests.every((test) => {
      const given = answers.get(test.field_id) ?? [];
      return given.some((v) => test.values.some((w) => String(w) === String(v)));
    });
    if (!pass) return false;
  }
  return true;
}

function fail(errors: FieldError[], field: string, code: string, message: string): undefined {
  errors.push({ field, code, message });
  return undefined;
}

/** Checks one field's values; returns them normalised (numbers as numbers, booleans as booleans). */
function checkValues(
  field: FormField,
  values: readonly unknown[],
  at: string,
  options: AnswerOptions,
  errors: FieldError[],
): unknown[] {
  const single = !field.multiple && field.type_id !== 'checkboxes';
  if (single && values.length > 1) {
    errors.push({ field: at, code: 'too_many', message: `Field "${field.slug}" takes one value.` });
    return [];
  }
  const out: unknown[] = [];
  const itemValues = new Set((field.items ?? []).map((i) => i.value));
  values.forEach((value, k) => {
    const vAt = `${at}.${k}`;
    const normal = checkValue(field, value, vAt, itemValues, options, errors);
    if (normal !== undefined) out.push(normal);
  });
  if (field.type_id === 'checkboxes' && new Set(out.map(String)).size !== out.length) {
    errors.push({ field: at, code: 'duplicate', message: 'A choice is given twice.' });
  }
  return out;
}

function checkValue(
  field: FormField,
  value: unknown,
  at: string,
  itemValues: ReadonlySet<string>,
  options: AnswerOptions,
  errors: FieldError[],
): unknown {
  switch (field.type_id) {
    case 'text':
    case 'paragraph':
    case 'email': {
      if (typeof value !== 'string') return fail(errors, at, 'invalid_type', 'Expected a string.');
      if (field.type_id === 'email' && !EMAIL_RE.test(value)) {
        return fail(errors, at, 'invalid_email', 'Expected an email address.');
      }
      if (field.type_id === 'text' && /[\r\n]/.test(value)) {
        return fail(errors, at, 'invalid_value', 'A text field holds one line; use a paragraph field for more.');
      }
      return applyRules(field, value, at, options, errors) ? value : undefined;
    }
    case 'number': {
      const n =
        typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return fail(errors, at, 'invalid_type', 'Expected a number.');
      return applyRules(field, n, at, options, errors) ? n : undefined;
    }
    case 'checkbox': {
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      return fail(errors, at, 'invalid_type', 'Expected true or false.');
    }
    case 'date': {
      if (typeof value !== 'string') return fail(errors, at, 'invalid_date', 'Expected a date (YYYY-MM-DD).');
      const day = parseDate(value) ? value : parseDateTime(value) !== undefined ? value.slice(0, 10) : undefined;
      if (!day || !parseDate(day)) return fail(errors, at, 'invalid_date', 'Expected a date (YYYY-MM-DD).');
      return applyRules(field, day, at, options, errors) ? value : undefined;
    }
    case 'checkboxes':
    case 'dropdown':
    case 'radios':
    case 'radiosButtons': {
      if (typeof value !== 'string' || !itemValues.has(value)) {
        return fail(errors, at, 'invalid_choice', `Expected one of: ${[...itemValues].join(', ')}.`);
      }
      return value;
    }
    case 'file': {
      const uploadId = (value as { upload_id?: unknown } | null)?.upload_id;
      const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
      if (typeof uploadId !== 'string' || uploadId.length === 0 || keys.some((k) => k !== 'upload_id')) {
        return fail(errors, at, 'invalid_type', 'Expected {"upload_id": "<id from POST /uploads>"}.');
      }
      return value;
    }
    case 'dataset': {
      if (!Array.isArray(value) || value.length === 0) {
        return fail(errors, at, 'invalid_type', 'Expected the path of dataset nodes from the root to the chosen one.');
      }
      for (const [k, node] of value.entries()) {
        const n = node as { id?: unknown; name?: unknown; code?: unknown } | null;
        if (
          n === null ||
          typeof n !== 'object' ||
          typeof n.id !== 'string' ||
          typeof n.name !== 'string' ||
          (n.code !== undefined && typeof n.code !== 'string')
        ) {
          return fail(errors, `${at}.${k}`, 'invalid_type', 'Expected a node {"id", "name", "code"}.');
        }
      }
      if (field.dataset_id !== undefined) {
        const known = options.datasetValues?.get(field.dataset_id) ?? new Set<string>();
        for (const [k, node] of (value as { id: string; code?: string }[]).entries()) {
          const parent = k === 0 ? undefined : (value[k - 1] as { id: string }).id;
          const segments = node.id.split('.');
          if (segments.length !== k + 1 || (parent !== undefined && !node.id.startsWith(`${parent}.`))) {
            return fail(
              errors,
              `${at}.${k}.id`,
              'invalid_path',
              'Expected the path from the root: each node the one under the node before it.',
            );
          }
          if (!known.has(node.id)) {
            return fail(
              errors,
              `${at}.${k}.id`,
              'not_found',
              `The dataset "${field.dataset_id}" has no value "${node.id}".`,
            );
          }
          if (node.code !== undefined && node.code !== segments.at(-1)) {
            return fail(
              errors,
              `${at}.${k}.code`,
              'invalid_value',
              `The code of "${node.id}" is "${segments.at(-1)}".`,
            );
          }
        }
      }
      return value;
    }
    default:
      return fail(errors, at, 'not_answerable', 'This field takes no answer.');
  }
}

/** Applies the field's `validations`; records each broken one. */
function applyRules(
  field: FormField,
  value: string | number,
  at: string,
  options: AnswerOptions,
  errors: FieldError[],
): boolean {
  let ok = true;
  for (const rule of field.validations ?? []) {
    const broken = brokenRule(field, rule, value, options.today);
    if (broken) {
      errors.push({ field: at, code: broken.code, message: rule.message ?? broken.message });
      ok = false;
    }
  }
  return ok;
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function addYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const year = String(y + years).padStart(4, '0');
  const out = `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return parseDate(out) ? out : `${year}-${String(m).padStart(2, '0')}-28`;
}

function brokenRule(
  field: FormField,
  rule: FieldValidation,
  value: string | number,
  today: string,
): { code: string; message: string } | undefined {
  const bound = field.type_id === 'number' && COMPARE_RULES.has(rule.type) ? Number(rule.value) : String(rule.value);
  switch (rule.type) {
    case 'MAXLENGTH':
      return String(value).length > Number(rule.value)
        ? { code: 'too_long', message: `At most ${rule.value} characters.` }
        : undefined;
    case 'MINLENGTH':
      return String(value).length < Number(rule.value)
        ? { code: 'too_short', message: `At least ${rule.value} characters.` }
        : undefined;
    case 'REGEXP':
      return new RegExp(String(rule.value), 'u').test(String(value))
        ? undefined
        : { code: 'invalid_format', message: `Does not match ${rule.value}.` };
    case 'EQ':
      return compare(value, bound) === 0 ? undefined : { code: 'invalid_value', message: `Must equal ${rule.value}.` };
    case 'NEQ':
      return compare(value, bound) !== 0
        ? undefined
        : { code: 'invalid_value', message: `Must differ from ${rule.value}.` };
    case 'GT':
      return compare(value, bound) > 0 ? undefined : { code: 'too_small', message: `Must be above ${rule.value}.` };
    case 'GTE':
      return compare(value, bound) >= 0 ? undefined : { code: 'too_small', message: `Must be at least ${rule.value}.` };
    case 'LT':
      return compare(value, bound) < 0 ? undefined : { code: 'too_large', message: `Must be below ${rule.value}.` };
    case 'LTE':
      return compare(value, bound) <= 0 ? undefined : { code: 'too_large', message: `Must be at most ${rule.value}.` };
    case 'IS_DATE_IN_THE_FUTURE':
      return String(value) > today ? undefined : { code: 'invalid_date', message: 'Must be a date in the future.' };
    case 'IS_DATE_IN_THE_PAST':
      return String(value) < today ? undefined : { code: 'invalid_date', message: 'Must be a date in the past.' };
    case 'IS_AGE_ABOVE':
      // Born on `value`: older than N years means the N-th birthday is today or earlier.
      return addYears(String(value), Number(rule.value)) <= today
        ? undefined
        : { code: 'invalid_date', message: `The age must be at least ${rule.value}.` };
    case 'IS_AGE_UNDER':
      return addYears(String(value), Number(rule.value)) > today
        ? undefined
        : { code: 'invalid_date', message: `The age must be under ${rule.value}.` };
    default:
      return undefined;
  }
}
