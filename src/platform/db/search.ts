import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** `%text%` for LIKE, with `%`, `_` and `\` taken literally. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * True when any of the columns contains the text, ignoring case (Unicode lower case, the same on both dialects:
 * `atrium_fold`, migration 0010, against JavaScript's `toLowerCase` of the text), with LIKE and an explicit escape
 * character. The column sides are compared in the `C` collation on PostgreSQL, byte for byte as SQLite does.
 */
export function containsText(columns: string[], text: string): RawBuilder<SqlBool> {
  const pattern = likePattern(text);
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`atrium_fold(${sql.ref(c)}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}

/*
 * Full-text search. Both dialects index and query the same words: the text is
 * cut into words here (runs of Unicode letters and digits), folded to lower
 * case without diacritics, and handed to the database as space-separated
 * words. SQLite's FTS5 (default unicode61 tokenizer) and PostgreSQL's
 * `simple` configuration then see identical tokens, so a whole-word query
 * matches the same rows on both; only the ranking formulas differ.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of an HTML fragment: scripts, styles and tags removed (each tag a word break), entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

/** The words of a text, in lower case and without diacritics (`Café-crème` → `cafe`, `creme`). */
export function searchWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** A text as the full-text index stores it: its words, space-separated. */
export function searchDocument(text: string): string {
  return searchWords(text).join(' ');
}

/**
 * A PostgreSQL `tsvector` literal of already-cut words, each part with its weight (A highest, D lowest). Built
 * here rather than with `to_tsvector`, so PostgreSQL's parser (whose idea of a letter depends on the server's
 * locale) never re-cuts the words.
 */
export function pgTsvector(parts: [words: string[], weight: 'A' | 'B' | 'C' | 'D'][]): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  for (const [words, weight] of parts) {
    for (const word of words) {
      position = Math.min(position + 1, 16383);
      const list = positions.get(word) ?? [];
      // PostgreSQL keeps at most 256 positions per lexeme.
      if (list.length < 256) list.push(`${position}${weight}`);
      positions.set(word, list);
    }
  }
  return [...positions].map(([word, list]) => `'${word}':${list.join(',')}`).join(' ');
}

/** A PostgreSQL `tsquery` literal matching rows holding every word. */
export function pgTsquery(words: string[]): string {
  return words.map((w) => `'${w}'`).join(' & ');
}

/** An FTS5 query matching rows holding every word (each quoted: never read as an operator). */
export function fts5Query(words: string[]): string {
  return words.map((w) => `"${w}"`).join(' ');
}
