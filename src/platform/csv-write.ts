/**
 * Writing CSV (the audit events export, the dataset-import and distribution reports): every writer goes through
 * here, so every cell is written under one rule. A text cell a spreadsheet would run as a formula (it starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return, or the full-width `＝`, `＋`, `－`, `＠`) gets a leading `'`, as
 * OWASP's CSV-injection guidance says; numbers are written as they are. The `csv-stringify` library quotes and
 * escapes.
 */
import { type Options, type Stringifier, stringify } from 'csv-stringify';
import { stringify as stringifyAll } from 'csv-stringify/sync';

const SAFE = { escape_formulas: true } as const;

/** Rows to CSV text at once (a report that fits in memory). */
export function csvText(rows: unknown[][], options: Omit<Options, 'escape_formulas'>): string {
  return stringifyAll(rows, { ...options, ...SAFE });
}

/** A stream that writes the records piped into it as CSV (an export of any length). */
export function csvStream(options: Omit<Options, 'escape_formulas'>): Stringifier {
  return stringify({ ...options, ...SAFE });
}
