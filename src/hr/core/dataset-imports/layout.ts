import type { CsvRecord } from '../../../platform/csv.js';
import type { DatasetName } from '../datasets/repository.js';
import { CODE, LANGUAGE_CODE } from '../datasets/schemas.js';
import type { ImportReportEntry } from './repository.js';

/**
 * The CSV layout of a dataset import (docs/hr-api.md, "Dataset imports"): a header naming, for each dimension of the
 * dataset, its code column (`countries`) and any name columns (`countries:en-us`); then one row per path, parents
 * repeated. Every prefix of a row's path is a value.
 */

/** Report entries kept (the counts in `stats` count them all). */
export const MAX_REPORT_ENTRIES = 1000;

const CODE_RE = new RegExp(`^${CODE}$`);
const LANGUAGE = new RegExp(LANGUAGE_CODE);

export interface ImportedValue {
  id: string;
  code: string;
  parentId: string | null;
  depth: number;
  localizedNames: DatasetName[];
}

/** A value's names as the file holds them while it is read: '' for none, else JSON of `[language, name, …]`. */
type PackedNames = string;

function packNames(names: readonly DatasetName[]): PackedNames {
  return names.length === 0 ? '' : JSON.stringify(names.flatMap((n) => [n.languageCode, n.value]));
}

function unpackNames(packed: PackedNames): DatasetName[] {
  if (packed === '') return [];
  const flat = JSON.parse(packed) as string[];
  const names: DatasetName[] = [];
  for (let i = 0; i < flat.length; i += 2)
    names.push({ languageCode: flat[i] as string, value: flat[i + 1] as string });
  return names;
}

/**
 * What reading a file found: its values (when it had no error), its report and the counts of the report. A value is
 * kept as its id (its path of codes joined by `.`, which no code contains) and its packed names, its ids listed by
 * level: a file of 300,000 values holds a few tens of MB while it is read, not one object per value and per name.
 */
export class DatasetCsv {
  /** Each value's names, by id. */
  private readonly names = new Map<string, PackedNames>();
  /** The ids of each level, in the order they were first read. */
  private readonly levels: string[][] = [];
  readonly report: ImportReportEntry[] = [];
  rows = 0;
  globalErrors = 0;
  rowErrors = 0;
  warnings = 0;
  private codeColumns: number[] = [];
  private nameColumns: { depth: number; language: string; column: number }[] = [];
  private width = 0;
  private header = false;
  private overflow = false;

  constructor(
    private readonly dimensions: readonly string[],
    private readonly maxValues: number,
  ) {}

  /** How many values the file holds. */
  get count(): number {
    return this.names.size;
  }

  /** The values, parents first (level by level, each in the file's order): the order they are stored in. */
  *inDepthOrder(): Generator<ImportedValue> {
    for (const [depth, ids] of this.levels.entries()) {
      for (const id of ids) {
        const dot = id.lastIndexOf('.');
        yield {
          id,
          code: id.slice(dot + 1),
          parentId: dot < 0 ? null : id.slice(0, dot),
          depth,
          localizedNames: unpackNames(this.names.get(id) ?? ''),
        };
      }
    }
  }

  get failed(): boolean {
    return this.globalErrors + this.rowErrors > 0;
  }

  add(entry: ImportReportEntry): void {
    if (entry.type === 'global_error') this.globalErrors++;
    else if (entry.type === 'row_error') this.rowErrors++;
    else if (entry.type === 'warning') this.warnings++;
    if (this.report.length < MAX_REPORT_ENTRIES) this.report.push(entry);
  }

  /** Reads one record; answers false when nothing more can be read (a broken header). */
  read(record: CsvRecord): boolean {
    if (!this.header) {
      this.header = true;
      return this.readHeader(record);
    }
    this.rows++;
    this.readRow(record);
    return true;
  }

  /** After the last record. */
  end(): void {
    if (!this.header) {
      this.add({ type: 'global_error', line: null, field: '', code: 'empty', message: 'The file is empty.' });
    }
  }

  private readHeader(record: CsvRecord): boolean {
    const cells = record.cells.map((c) => c.trim());
    this.width = cells.length;
    const codes = new Map<number, number>();
    const seen = new Set<string>();
    cells.forEach((cell, column) => {
      if (seen.has(cell)) {
        this.add({
          type: 'global_error',
          line: 0,
          field: cell,
          code: 'duplicate',
          message: `Column "${cell}" is given twice.`,
        });
        return;
      }
      seen.add(cell);
      const [dimension, language, extra] = cell.split(':');
      const depth = this.dimensions.indexOf(dimension ?? '');
      if (depth >= 0 && language === undefined) {
        codes.set(depth, column);
      } else if (depth >= 0 && extra === undefined && LANGUAGE.test(language ?? '')) {
        this.nameColumns.push({ depth, language: language as string, column });
      } else {
        this.add({
          type: 'warning',
          line: 0,
          field: cell,
          code: 'unknown_column',
          message: `Column "${cell}" is neither a dimension of the dataset (${this.dimensions.join(', ')}) nor a dimension's name in a language (countries:en-us); it is ignored.`,
        });
      }
    });
    if (codes.size === 0) {
      this.add({
        type: 'global_error',
        line: 0,
        field: '',
        code: 'required',
        message: `The header names no dimension of the dataset (${this.dimensions.join(', ')}).`,
      });
      return false;
    }
    for (let depth = 0; depth < Math.max(...codes.keys()); depth++) {
      if (!codes.has(depth)) {
        this.add({
          type: 'global_error',
          line: 0,
          field: this.dimensions[depth] as string,
          code: 'required',
          message: `The column of dimension "${this.dimensions[depth]}" is missing: the levels below it need it.`,
        });
      }
    }
    this.codeColumns = [...codes.entries()].sort((a, b) => a[0] - b[0]).map(([, column]) => column);
    return this.globalErrors === 0;
  }

  private readRow(record: CsvRecord): void {
    const { cells, line } = record;
    const rowError = (field: string, code: string, message: string) =>
      this.add({ type: 'row_error', line, field, code, message });
    if (cells.length !== this.width) {
      rowError('', 'invalid_row', `Expected ${this.width} cells, as the header, found ${cells.length}.`);
      return;
    }
    const codes = this.codeColumns.map((column) => (cells[column] ?? '').trim());
    let last = -1;
    codes.forEach((code, depth) => {
      if (code !== '') last = depth;
    });
    if (last < 0) {
      rowError(this.dimensions[0] as string, 'required', 'The row names no value.');
      return;
    }
    for (let depth = 0; depth <= last; depth++) {
      const dimension = this.dimensions[depth] as string;
      const code = codes[depth] as string;
      if (code === '') {
        rowError(dimension, 'required', `A value of "${dimension}" is needed above "${codes[last]}".`);
        return;
      }
      if (!CODE_RE.test(code)) {
        rowError(dimension, 'invalid_format', `"${code}" is not a code: 1 to 100 letters, digits, _ or -.`);
        return;
      }
    }
    for (let depth = 0; depth <= last; depth++) {
      const id = codes.slice(0, depth + 1).join('.');
      const names = this.nameColumns
        .filter((n) => n.depth === depth && (cells[n.column] ?? '').trim() !== '')
        .map((n) => ({ languageCode: n.language, value: (cells[n.column] as string).trim().slice(0, 255) }));
      const packed = this.names.get(id);
      if (packed !== undefined) {
        this.merge(id, packed, names, line, depth);
        continue;
      }
      if (this.names.size >= this.maxValues) {
        if (this.overflow) return;
        this.overflow = true;
        this.add({
          type: 'global_error',
          line,
          field: '',
          code: 'too_many',
          message: `A dataset holds at most ${this.maxValues} values.`,
        });
        return;
      }
      this.names.set(id, packNames(names));
      const level = this.levels[depth] ?? [];
      level.push(id);
      this.levels[depth] = level;
    }
  }

  /** A value read again: a name in a new language is added; one that differs from the first is warned about. */
  private merge(id: string, packed: PackedNames, names: DatasetName[], line: number, depth: number): void {
    if (names.length === 0) return;
    const known = unpackNames(packed);
    const differs = names.find((n) => {
      const before = known.find((k) => k.languageCode === n.languageCode);
      return before !== undefined && before.value !== n.value;
    });
    if (differs) {
      this.add({
        type: 'warning',
        line,
        field: `${this.dimensions[depth]}:${differs.languageCode}`,
        code: 'names_differ',
        message: `"${id}" was named "${known.find((k) => k.languageCode === differs.languageCode)?.value}" on an earlier row; that name is kept.`,
      });
    }
    const added = names.filter((n) => !known.some((k) => k.languageCode === n.languageCode));
    if (added.length > 0) this.names.set(id, packNames([...known, ...added]));
  }
}
