import type { DatasetField, GenerationError } from './types.js';

/** Table and list rows a generation writes at most, in all (its fragments' included). */
export const MAX_ROWS = 10_000;
/** How deep a dataset's JSON may nest at most. */
export const MAX_DEPTH = 32;
/** Fields a dataset may hold at most. */
export const MAX_FIELDS = 2_000;
/** Values (objects, arrays, scalars) a dataset may hold in all: what walking it costs is bounded too. */
export const MAX_VALUES = 1_000_000;

/** A scope of the data docxtemplater renders: slugs to values, with no prototype (a slug may be `__proto__`). */
export type Scope = Record<string, unknown>;

const scope = (): Scope => Object.create(null) as Scope;

/**
 * Why a dataset is past the engine's limits (`MAX_FIELDS`, `MAX_ROWS`, `MAX_DEPTH`, `MAX_VALUES`), naming the
 * limit, or undefined. Walks the values without recursion and stops at the first limit passed, so that a million
 * rows or a value nested a thousand deep costs little.
 */
export function datasetLimit(fieldSets: unknown[]): string | undefined {
  let fields = 0;
  let rows = 0;
  let values = 0;
  const stack: [value: unknown, depth: number][] = [];
  for (const set of fieldSets) {
    if (!Array.isArray(set)) return 'the fields are not a list';
    fields += set.length;
    if (fields > MAX_FIELDS) return `more than ${MAX_FIELDS} fields (MAX_FIELDS)`;
    for (const field of set) {
      const value = (field as { value?: unknown } | null)?.value;
      if (Array.isArray(value)) rows += value.length;
      if (rows > MAX_ROWS) return `more than ${MAX_ROWS} table or list rows (MAX_ROWS)`;
      stack.push([field, 1]);
    }
  }
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (++values > MAX_VALUES) return `more than ${MAX_VALUES} values (MAX_VALUES)`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_DEPTH) return `values nested more than ${MAX_DEPTH} deep (MAX_DEPTH)`;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (values + children.length > MAX_VALUES) return `more than ${MAX_VALUES} values (MAX_VALUES)`;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or date-time written as a date of the locale, in UTC (`2026-01-31T23:30:00-02:00` is the 1st
 * of February); a date-time without an offset is read as UTC. Undefined when the value is not such a date.
 */
export function formatDate(value: unknown, locale: string): string | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value.trim())) return undefined;
  const text = value.trim();
  const time = Date.parse(/T\d{2}:\d{2}(:[\d.]+)?$/i.test(text) ? `${text}Z` : text);
  if (Number.isNaN(time)) return undefined;
  const options: Intl.DateTimeFormatOptions = { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, options);
  } catch {
    format = new Intl.DateTimeFormat('en-US', options);
  }
  return format.format(new Date(time));
}

/** Turns a dataset's fields into the data docxtemplater renders, with what is wrong in them (`invalid`). */
export class DataBuilder {
  readonly errors: GenerationError[] = [];
  private readonly dates: Set<string>;

  constructor(
    dateSlugs: string[],
    private readonly locale: string,
  ) {
    this.dates = new Set(dateSlugs);
  }

  private invalid(field: string, message: string) {
    this.errors.push({ field, code: 'invalid', message });
  }

  /** A scalar as written: a date formatted, `{label, value}` as its label; undefined when it has none. */
  private scalar(field: string, value: unknown, date: boolean): unknown {
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'object' && !Array.isArray(value) && 'label' in value) {
      return String((value as { label: unknown }).label ?? '');
    }
    if (date) {
      const formatted = formatDate(value, this.locale);
      if (formatted !== undefined) return formatted;
      this.invalid(field, `${JSON.stringify(value)} is not an ISO 8601 date`);
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
    this.invalid(field, 'not a text, a number, a boolean, a list or a table');
    return undefined;
  }

  /** A row of a table (`[{slug, value}, …]`) as a scope of its columns. */
  private row(field: string, cells: unknown[]): Scope {
    const row = scope();
    for (const cell of cells) {
      const { slug, value, type } = (cell ?? {}) as { slug?: unknown; value?: unknown; type?: unknown };
      if (typeof slug !== 'string') {
        this.invalid(field, 'a cell of a table row has no slug');
        continue;
      }
      row[slug] = this.scalar(`${field}.${slug}`, value, type === 'date' || this.dates.has(slug));
    }
    return row;
  }

  /** A field's value: a scalar, a list (an array of scalars) or a table (an array of rows). */
  value(field: DatasetField): unknown {
    const date = field.type === 'date' || this.dates.has(field.slug);
    if (!Array.isArray(field.value)) return this.scalar(field.slug, field.value, date);
    const items: unknown[] = field.value;
    if (items.length > 0 && items.every(Array.isArray)) {
      return items.map((cells, i) => this.row(`${field.slug}.${i}`, cells as unknown[]));
    }
    return items.map((item, i) => this.scalar(`${field.slug}.${i}`, item, date) ?? '');
  }

  /** The data of a whole dataset: each valid field's value, by slug (the last of two fields of one slug wins). */
  data(fields: DatasetField[]): Scope {
    const data = scope();
    for (const field of fields) {
      if (typeof field?.slug !== 'string') {
        this.invalid(String(field?.slug), 'a field has no slug');
        continue;
      }
      data[field.slug] = this.value(field);
    }
    return data;
  }
}
