import { type Compiled, compileTemplate, slugOf, type TagPart, written } from './compile.js';
import { openDocx } from './package.js';
import { SLUG, toInternal } from './syntax.js';
import type { Inspection, NotATemplate, Placeholder, SyntaxVersion, TemplateIssue } from './types.js';

/** What a loop's body uses: `{$.}` (a list), other slugs (a table's columns), text (a condition's). */
interface Body {
  item: boolean;
  slugs: string[];
  text: boolean;
}

/** What the body of a loop uses, its nested loops included (their slugs are columns too). */
function bodyOf(parts: TagPart[], body: Body = { item: false, slugs: [], text: false }): Body {
  for (const part of parts) {
    if (part.type === 'content' && part.value.trim() !== '') body.text = true;
    if (part.type !== 'placeholder') continue;
    const slug = slugOf(part.value);
    if (slug === '.') body.item = true;
    else if (!body.slugs.includes(slug)) body.slugs.push(slug);
    if (part.subparsed) bodyOf(part.subparsed, body);
  }
  return body;
}

/** Reads a template's tags into placeholders (in order of first appearance) and issues. */
class Reader {
  readonly placeholders = new Map<string, Placeholder>();
  readonly issues: TemplateIssue[] = [];
  private readonly uses = new Map<string, Set<'value' | 'loop'>>();

  constructor(private readonly syntax: SyntaxVersion) {}

  private issue(code: string, field: string, message: string, severity: 'ERROR' | 'WARNING') {
    if (!this.issues.some((i) => i.code === code && i.field === field))
      this.issues.push({ code, field, message, severity });
  }

  private use(slug: string, as: 'value' | 'loop', kind: Placeholder['kind'], columns?: string[]) {
    const uses = this.uses.get(slug) ?? new Set();
    uses.add(as);
    this.uses.set(slug, uses);
    if (uses.size > 1) {
      this.issue('mixed_use', slug, `$${slug} is used both as a value and as a loop`, 'WARNING');
    }
    const known = this.placeholders.get(slug);
    if (!known) {
      this.placeholders.set(slug, columns ? { slug, kind, columns } : { slug, kind });
    } else if (known.kind === 'condition' && (kind === 'list' || kind === 'table')) {
      // `{^$x}` first (a condition), `{#$x}{$.}{/$x}` later: the loop says what $x is.
      known.kind = kind;
      if (columns) known.columns = columns;
    } else if (known.kind === 'table' && kind === 'table' && columns) {
      known.columns = [...new Set([...(known.columns ?? []), ...columns])];
    }
  }

  /** The tags of one scope: the template's top level, or a condition's body (which uses the same scope). */
  read(parts: TagPart[]): void {
    for (const part of parts) {
      if (part.type !== 'placeholder') continue;
      const slug = slugOf(part.value);
      if (slug === '.') {
        this.issue('item_outside_loop', '.', `${written(this.syntax, '$.')} is outside a list`, 'WARNING');
        continue;
      }
      if (!part.value.startsWith('$') || !SLUG.test(slug)) {
        this.issue('invalid_slug', slug, `${written(this.syntax, part.value)} is not a valid placeholder`, 'ERROR');
        continue;
      }
      if (part.module === 'rawxml') this.use(slug, 'value', 'fragment');
      else if (part.module === 'loop') this.loop(slug, part);
      else this.use(slug, 'value', 'text');
    }
  }

  private loop(slug: string, part: TagPart) {
    const sub = part.subparsed ?? [];
    const body = bodyOf(sub);
    if (!body.item && body.slugs.length === 0 && !body.text) {
      this.issue('empty_loop', slug, `the section ${written(this.syntax, `$${slug}`, '#')} is empty`, 'WARNING');
    }
    for (const column of body.slugs) {
      if (!SLUG.test(column)) {
        this.issue('invalid_slug', column, `${written(this.syntax, `$${column}`)} is not a valid placeholder`, 'ERROR');
      }
    }
    if (body.item) {
      // A list: other slugs in its body are the dataset's own (scopes fall back outwards).
      this.use(slug, 'loop', part.inverted ? 'condition' : 'list');
      this.read(sub.filter((p) => p.type === 'placeholder' && slugOf(p.value) !== '.'));
    } else if (body.slugs.length > 0 && !part.inverted) {
      this.use(
        slug,
        'loop',
        'table',
        body.slugs.filter((s) => SLUG.test(s)),
      );
    } else {
      this.use(slug, 'loop', 'condition');
      this.read(sub);
    }
  }
}

/** The placeholders and issues of a compiled template (compile.ts). */
export function inspectCompiled(compiled: Compiled, syntax: SyntaxVersion): Inspection {
  if (!compiled.ok) return { placeholders: [], issues: compiled.issues };
  const reader = new Reader(syntax);
  reader.read(compiled.tags);
  return { placeholders: [...reader.placeholders.values()], issues: reader.issues };
}

/**
 * A template read (`template_information`): its placeholders, in order of first appearance, with their kind
 * (`text`, `list` when a loop's body uses `{$.}`, `table` when it uses other slugs, its `columns`, which are not
 * placeholders of their own, `condition` otherwise, `fragment`), and its issues: docxtemplater's errors (an
 * unclosed tag, an unopened loop, a fragment not alone in its paragraph, …) and invalid slugs as ERRORs, what still
 * generates (a slug used as a value and as a loop, an empty section) as WARNINGs. A file that is not a template is
 * `NotATemplate`. Never throws.
 */
export function inspectTemplate(bytes: Uint8Array, syntax: SyntaxVersion): Inspection | NotATemplate {
  const opened = openDocx(bytes);
  if (!opened.ok) return opened;
  try {
    toInternal(opened.zip, syntax);
    return inspectCompiled(compileTemplate(opened.zip, syntax, { missing: new Map() }), syntax);
  } catch (err) {
    return { ok: false, reason: 'broken', message: err instanceof Error ? err.message : String(err) };
  }
}
