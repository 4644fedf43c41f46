import { isTemplatedPart, openDocx } from './package.js';
import type { NotATemplate, SyntaxVersion } from './types.js';
import type { ZipPackage } from './zip-package.js';

/** A placeholder's slug (after its `$`). */
export const SLUG = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;

/** A pair of tag delimiters: the opening and the closing character. */
export type Delimiters = readonly [open: string, close: string];

/** The delimiters of each syntax as written in templates: V2 `{$slug}`, V1 (older) `[$slug]`. */
export const DELIMITERS: Record<SyntaxVersion, Delimiters> = { V2: ['{', '}'], V1: ['[', ']'] };

/**
 * The delimiters docxtemplater is given: two private-use characters that a template's own text never holds (they
 * are replaced first). Only the delimiters of real tags (a delimiter followed by `$`, after `#`, `^`, `/` or `@`)
 * are rewritten to them, so that any other text between delimiters (`[1]` in a V1 document) stays literal text.
 */
export const INTERNAL: Delimiters = ['\uE000', '\uE001'];

/** A text node of a part: where its text starts in the XML, and its text (as written, entities included). */
interface TextNode {
  at: number;
  text: string;
}

const TOKENS = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:p[\s>/]|<\/w:p>/g;
/** What may precede a closing delimiter to make it the end of a tag whose opening is missing: `$slug`. */
const UNOPENED = /[#^/@]?\$[A-Za-z0-9_.-]*$/;

/** The text nodes of a part, by paragraph. */
function paragraphs(xml: string): TextNode[][] {
  const groups: TextNode[][] = [];
  let current: TextNode[] = [];
  for (const match of xml.matchAll(TOKENS)) {
    if (match[1] === undefined) {
      if (current.length > 0) groups.push(current);
      current = [];
      continue;
    }
    if (match[1].length > 0) current.push({ at: match.index + match[0].indexOf('>') + 1, text: match[1] });
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * Positions (in one paragraph's text) of the delimiters of its tags: a tag opens with `open` then `$` (after an
 * optional `#`, `^`, `/` or `@`) and closes at the next `close` before another `open`; an opening without its
 * closing and a closing after `$slug` without its opening are tags too (docxtemplater then reports them).
 */
function tagDelimiters(text: string, [open, close]: Delimiters): number[] {
  const found: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === open && /^[#^/@]?\$/.test(text.slice(i + 1, i + 3))) {
      found.push(i);
      const end = text.indexOf(close, i + 1);
      const next = text.indexOf(open, i + 1);
      if (end >= 0 && (next < 0 || end < next)) {
        found.push(end);
        i = end + 1;
      } else i++;
      continue;
    }
    if (c === close && UNOPENED.test(text.slice(Math.max(0, i - 110), i))) found.push(i);
    i++;
  }
  return found;
}

/**
 * Rewrites the tag delimiters of one XML part from `from` to `to`, character for character (a tag split across
 * runs included: each delimiter is replaced in the text node holding it), leaving every other character alone.
 * `scrub` replaces the internal delimiters a text may already hold.
 */
export function rewriteTags(xml: string, from: Delimiters, to: Delimiters, scrub = false): string {
  const edits: [at: number, char: string][] = [];
  for (const nodes of paragraphs(xml)) {
    if (scrub) {
      for (const node of nodes) {
        for (let k = 0; k < node.text.length; k++) {
          if (node.text[k] === INTERNAL[0] || node.text[k] === INTERNAL[1]) edits.push([node.at + k, '\uFFFD']);
        }
      }
    }
    const text = nodes.map((n) => n.text).join('');
    let n = 0;
    let base = 0;
    for (const position of tagDelimiters(text, from)) {
      while (position >= base + (nodes[n]?.text.length ?? 0)) base += nodes[n++]?.text.length ?? 0;
      const node = nodes[n];
      if (!node) break;
      edits.push([node.at + position - base, text[position] === from[0] ? to[0] : to[1]]);
    }
  }
  if (edits.length === 0) return xml;
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  for (const [at, char] of edits) {
    out += xml.slice(last, at) + char;
    last = at + 1;
  }
  return out + xml.slice(last);
}

/** Rewrites every templated part of a package (the body, headers, footers) from one syntax to other delimiters. */
export function rewritePackage(zip: ZipPackage, from: Delimiters, to: Delimiters, scrub: boolean): void {
  for (const name of Object.keys(zip.files)) {
    if (!isTemplatedPart(name)) continue;
    const xml = zip.file(name)?.asText();
    if (xml !== undefined) zip.file(name, rewriteTags(xml, from, to, scrub));
  }
}

/** Makes a template's package ready for docxtemplater: its tags written with the internal delimiters. */
export function toInternal(zip: ZipPackage, syntax: SyntaxVersion): void {
  rewritePackage(zip, DELIMITERS[syntax], INTERNAL, true);
}

/** Writes the internal delimiters back as a syntax's own, in a text (an issue's message, a tag as written). */
export function fromInternal(text: string, syntax: SyntaxVersion): string {
  const [open, close] = DELIMITERS[syntax];
  return text.replaceAll(INTERNAL[0], open).replaceAll(INTERNAL[1], close);
}

/**
 * A V1 template (`[$slug]`) written in V2 (`{$slug}`): every tag delimiter of the body, headers and footers is
 * rewritten in place, even when a tag is split across runs; all other text and every other part stay as they
 * were, so that the V2 document generates what the V1 one did.
 */
export function migrateV1toV2(docx: Uint8Array): { ok: true; bytes: Uint8Array } | NotATemplate {
  const opened = openDocx(docx);
  if (!opened.ok) return opened;
  rewritePackage(opened.zip, DELIMITERS.V1, DELIMITERS.V2, false);
  return { ok: true, bytes: opened.zip.generate({ type: 'uint8array', compression: 'DEFLATE' }) };
}
