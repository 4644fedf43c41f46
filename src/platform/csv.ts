/**
 * Reading CSV files (imports): strict UTF-8, the separator (`;` or `,`) taken from the header line, quoting, a
 * byte-order mark and CRLF line ends handled by the `csv-parse` library, never by a hand-written splitter. Records
 * stream: memory does not grow with the file.
 */
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { yieldToLoop } from './tick.js';

/** The file cannot be read as CSV at all: not UTF-8, an unclosed quote. `line` is the record where it broke. */
export class CsvFormatError extends Error {
  override name = 'CsvFormatError';
  constructor(
    message: string,
    /** The record (0 for the header), or null when the whole file is at fault. */
    readonly line: number | null,
  ) {
    super(message);
  }
}

/** One record: its cells, and its number (0 for the header line, 1 for the first row after it). */
export interface CsvRecord {
  cells: string[];
  line: number;
}

/** The largest record accepted, in characters (a cell of a larger record is certainly a broken quote). */
const MAX_RECORD_CHARS = 1_048_576;

/**
 * The most columns a header may name (docs/imports.md, "Limits"): no import's layout comes near it, and a wider file
 * would cost every one of its rows as much work as a whole ordinary file.
 */
export const MAX_COLUMNS = 1000;

/**
 * Characters handed to the parser at a time, with a turn of the event loop between two pieces: csv-parse parses what
 * it is given in one go, so a long line (a header of 200,000 columns) would otherwise hold the loop while it is split.
 */
const PARSE_PIECE_CHARS = 16_384;

/** The text in pieces of at most PARSE_PIECE_CHARS, the event loop running between two. */
async function* inPieces(text: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const chunk of text) {
    for (let start = 0; start < chunk.length; start += PARSE_PIECE_CHARS) {
      yield chunk.slice(start, start + PARSE_PIECE_CHARS);
      await yieldToLoop();
    }
  }
}

/** Decodes UTF-8, refusing invalid bytes; a leading byte-order mark is dropped. */
async function* utf8(source: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    try {
      const text = decoder.decode(bytes, { stream: true });
      if (text) yield text;
    } catch {
      throw new CsvFormatError(`The file is not UTF-8 text: invalid bytes after byte ${offset}.`, null);
    }
    offset += bytes.length;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new CsvFormatError('The file is not UTF-8 text: it ends inside a character.', null);
  }
}

/** The text, with the separator its header line uses: `;` when the line holds one, else `,`. */
async function* withSeparator(
  text: AsyncGenerator<string>,
  found: (separator: string) => void,
): AsyncGenerator<string> {
  let head = '';
  let decided = false;
  for await (const chunk of text) {
    if (decided) {
      yield chunk;
      continue;
    }
    head += chunk;
    const end = head.search(/[\r\n]/);
    if (end >= 0 || head.length > MAX_RECORD_CHARS) {
      found(head.slice(0, end >= 0 ? end : head.length).includes(';') ? ';' : ',');
      decided = true;
      yield head;
    }
  }
  if (!decided) {
    found(head.includes(';') ? ';' : ',');
    if (head) yield head;
  }
}

/**
 * The records of a CSV file, in order. Rows may have any number of cells (the caller checks them against the
 * header); empty lines are skipped. Throws {@link CsvFormatError} for what no row can be read past, and for a header
 * of more than MAX_COLUMNS columns. The parsing yields to the event loop every PARSE_PIECE_CHARS characters.
 */
export async function* csvRecords(source: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<CsvRecord> {
  let separator = ',';
  const text = withSeparator(utf8(source), (s) => {
    separator = s;
  });
  // The separator is known once the first line has been read: start the parser on that first piece.
  const first = await text.next();
  if (first.done) return;
  const parser = parse({
    delimiter: separator,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
    info: true,
  });
  async function* all(): AsyncGenerator<string> {
    yield first.value as string;
    yield* text;
  }
  const input = Readable.from(inPieces(all()));
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { records: number } }>) {
      const line = item.info.records - 1;
      if (line === 0 && item.record.length > MAX_COLUMNS) {
        throw new CsvFormatError(
          `The header has ${item.record.length} columns: a file may have at most ${MAX_COLUMNS}.`,
          0,
        );
      }
      yield { cells: item.record, line };
    }
  } catch (error) {
    if (error instanceof CsvFormatError) throw error;
    if (error instanceof CsvError) {
      const records = (error as CsvError & { records?: number }).records;
      throw new CsvFormatError(
        `The file is not valid CSV: ${error.message}`,
        typeof records === 'number' ? records : null,
      );
    }
    throw error;
  } finally {
    input.destroy();
  }
}
