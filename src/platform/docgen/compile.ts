import Docxtemplater, { type DXT } from 'docxtemplater';
import inspectModule from 'docxtemplater/js/inspect-module.js';
import { DELIMITERS, fromInternal, INTERNAL, SLUG } from './syntax.js';
import type { GenerationError, SyntaxVersion, TemplateIssue } from './types.js';
import type { ZipPackage } from './zip-package.js';

/** A part of a template as docxtemplater parsed it: a tag (`placeholder`), text (`content`) or XML. */
export interface TagPart {
  type: string;
  value: string;
  module?: string;
  inverted?: boolean;
  subparsed?: TagPart[];
}

/** What a render collects: the placeholders that had no value (each once, by field). */
export interface RenderState {
  missing: Map<string, GenerationError>;
}

/** A compiled template: docxtemplater ready to render, and its tags, in order, for inspect.ts. */
export type Compiled =
  | { ok: true; doc: Docxtemplater<ZipPackage>; tags: TagPart[] }
  | { ok: false; issues: TemplateIssue[] };

/** docxtemplater's error ids, as `template_information` codes. */
/** docxtemplater's inspect module (a factory in CommonJS, typed as a class): the parsed parts of each file. */
interface Inspector extends DXT.Module {
  fullInspected: object;
  getInspected(file: string): TagPart[];
}
const createInspector = inspectModule as unknown as () => Inspector;

const CODES: Record<string, string> = {
  unclosed_tag: 'unclosed_tag',
  unopened_tag: 'unopened_tag',
  duplicate_open_tag: 'duplicate_open_tag',
  duplicate_close_tag: 'duplicate_close_tag',
  unclosed_loop: 'unclosed_loop',
  unopened_loop: 'unopened_loop',
  closing_tag_does_not_match_opening_tag: 'mismatched_loop',
  unbalanced_loop_tags: 'unbalanced_loop',
  raw_xml_tag_should_be_only_text_in_paragraph: 'raw_tag_not_alone',
  raw_tag_outerxml_invalid: 'raw_tag_not_alone',
  loop_position_invalid: 'loop_position_invalid',
};

/** The slug of a tag's value (`$slug` → `slug`), or the value as written when it is not one. */
export const slugOf = (value: string) => (value.startsWith('$') ? value.slice(1) : value);

/** A placeholder as the template writes it (`{$slug}`, `[#$slug]`, …), for messages and for what is kept. */
export function written(syntax: SyntaxVersion, value: string, prefix = ''): string {
  const [open, close] = DELIMITERS[syntax];
  return `${open}${prefix}${value}${close}`;
}

interface RawError {
  message?: string;
  properties?: { id?: string; xtag?: string; openingtag?: string; explanation?: string; errors?: RawError[] };
}

/** docxtemplater's compile errors as issues (severity ERROR), the internal delimiters written back. */
function toIssues(err: unknown, syntax: SyntaxVersion): TemplateIssue[] {
  const raw = err as RawError;
  const errors = raw.properties?.errors ?? [raw];
  return errors.map((e) => {
    const id = e.properties?.id ?? 'template_error';
    const tag = fromInternal(e.properties?.xtag ?? e.properties?.openingtag ?? '', syntax);
    const explanation = fromInternal(e.properties?.explanation ?? e.message ?? String(err), syntax);
    return { code: CODES[id] ?? 'template_error', field: slugOf(tag), message: explanation, severity: 'ERROR' };
  });
}

/** Where a missing value was expected: its slug, after each loop item it is in (`rows.2.amount`). */
function fieldPath(scopeManager: DXT.ScopeManager, value: string): string {
  const path: string[] = [];
  scopeManager.scopePath.forEach((loop, i) => {
    // A condition's body renders in its parent's scope (the same object): not an item of a list or table.
    if (scopeManager.scopeList[i + 1] !== scopeManager.scopeList[i]) {
      path.push(slugOf(loop), String(scopeManager.scopePathItem[i] ?? 0));
    }
  });
  path.push(slugOf(value));
  return path.join('.');
}

/**
 * The value of a tag in a scope: `$slug` is an own property of the scope (a null-prototype object), `$.` the
 * current item of a list (never the dataset itself). What is not a `$` tag has no value.
 */
function parser(tag: string): DXT.Parser {
  const name = tag.startsWith('$') ? tag.slice(1) : undefined;
  return {
    get(scope: unknown, context: DXT.ParserContext) {
      if (name === '.') return context.num > 0 && context.num === context.scopeList.length - 1 ? scope : undefined;
      if (name === undefined || !SLUG.test(name) || typeof scope !== 'object' || scope === null) return undefined;
      return Object.hasOwn(scope, name) ? (scope as Record<string, unknown>)[name] : undefined;
    },
  };
}

/**
 * What a placeholder without a value writes: itself, as written in the template (a fragment: a paragraph holding
 * it); a loop writes nothing (an inverted one shows). Each is recorded as `missing`.
 */
function nullGetter(syntax: SyntaxVersion, state: RenderState) {
  return (part: DXT.Part, scopeManager?: DXT.ScopeManager): unknown => {
    const field = scopeManager ? fieldPath(scopeManager, part.value) : slugOf(part.value);
    if (!state.missing.has(field)) {
      state.missing.set(field, { field, code: 'missing', message: `no value for ${written(syntax, part.value)}` });
    }
    if (part.module === 'loop') return undefined;
    if (part.module === 'rawxml') {
      const text = written(syntax, part.value, '@').replace(/&/g, '&amp;').replace(/</g, '&lt;');
      return `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
    }
    return written(syntax, part.value);
  };
}

/**
 * Compiles a package whose tags are written with the internal delimiters (syntax.ts, `toInternal`): paragraph
 * loops (a loop alone in its paragraphs repeats them; in a table row's first and last cells, the row), raw XML
 * for fragments. Its errors are issues, never thrown.
 */
export function compileTemplate(zip: ZipPackage, syntax: SyntaxVersion, state: RenderState): Compiled {
  const inspect = createInspector();
  try {
    const doc = new Docxtemplater(zip, {
      delimiters: { start: INTERNAL[0], end: INTERNAL[1] },
      paragraphLoop: true,
      linebreaks: true,
      errorLogging: false,
      syntax: { changeDelimiterPrefix: null },
      modules: [inspect],
      parser,
      nullGetter: nullGetter(syntax, state),
    });
    const rank = (file: string) => (file.includes('header') ? 0 : file.includes('footer') ? 2 : 1);
    const files = Object.keys(inspect.fullInspected).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    return { ok: true, doc, tags: files.flatMap((file) => inspect.getInspected(file)) };
  } catch (err) {
    return { ok: false, issues: toIssues(err, syntax) };
  }
}
