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

/** What reading a file found: its values (when it had no error), its report and the counts of the report. */
export class DatasetCsv {
  readonly values = new Map<string, ImportedValue>();
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
      const known = this.values.get(id);
      if (known) {
        const differs = names.find((n) => {
          const before = known.localizedNames.find((k) => k.languageCode === n.languageCode);
          return before !== undefined && before.value !== n.value;
        });
        if (differs) {
          this.add({
            type: 'warning',
            line,
            field: `${this.dimensions[depth]}:${differs.languageCode}`,
            code: 'names_differ',
            message: `"${id}" was named "${known.localizedNames.find((k) => k.languageCode === differs.languageCode)?.value}" on an earlier row; that name is kept.`,
          });
        }
        for (const n of names) {
          if (!known.localizedNames.some((k) => k.languageCode === n.languageCode)) known.localizedNames.push(n);
        }
        continue;
      }
      if (this.values.size >= this.maxValues) {
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
      this.values.set(id, {
        id,
        code: codes[depth] as string,
        parentId: depth === 0 ? null : codes.slice(0, depth).join('.'),
        depth,
        localizedNames: names,
      });
    }
  }
}
