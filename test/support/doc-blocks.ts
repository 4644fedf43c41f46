/**
 * The fenced code blocks of the README and of docs/*.md, and the checks of the blocks that are not run (JSON, XML,
 * CSV, HTTP messages): test/docs/code-blocks.test.ts runs the others. The contract is described there and in
 * docs/development.md ("Tests").
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';

/** Languages whose blocks run in the file's bash session. `console` blocks run their `$ ` lines only. */
export const SHELL = new Set(['sh', 'bash', 'console']);
/** Languages type-checked (ts) and run. */
export const PROGRAM = new Set(['ts', 'js', 'mjs']);
/** Languages checked for well-formedness only. */
export const SAMPLE = new Set(['json', 'jsonc', 'http', 'xml', 'csv', 'text']);

/**
 * Why a block may be left unrun: each reason given after `not-run:` must match one of these. A new kind of skip is
 * added here, where a reviewer sees it, not in the Markdown alone.
 */
export const NOT_RUN_REASONS: { pattern: RegExp; why: string }[] = [
  { pattern: /\bneeds a Docker engine\b/, why: 'no machine of the project has one' },
  { pattern: /\bCI runs it\b.*\.ci\/run/, why: '.ci/run runs it on every submission' },
  {
    pattern: /\btakes minutes\b.*\bnpm (run|test)\b/,
    why: 'the benchmark, soak, attack, package and whole-suite commands run for minutes',
  },
  {
    pattern: /\breplaces the clone's node_modules\b/,
    why: 'npm ci and npm prune would replace the node_modules the suite itself runs from',
  },
  { pattern: /\bneeds PostgreSQL\b/, why: 'the block is for a PostgreSQL installation (DATABASE_URL)' },
  {
    pattern: /\bthe test does it\b/,
    why: 'set-up the harness itself performs: npm install (npm test ran it), a server on a free port',
  },
];

export interface Block {
  /** The Markdown file, relative to the checkout. */
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  /** The info string as written. */
  info: string;
  lang: string;
  background: boolean;
  fragment: boolean;
  /** `file=NAME`: the block is also written to NAME in the working directory, before anything runs. */
  fileName?: string;
  /** `not-run: reason`: the reason (possibly empty, which the test refuses). */
  notRun?: string;
  /** Unknown words of the info string (the test refuses them). */
  unknown: string[];
  code: string;
}

/** README.md and docs/*.md of the checkout, narrowed by ATRIUM_DOCS_FILTER (a substring of the path) when set. */
export function markdownFiles(root: string, filter = process.env.ATRIUM_DOCS_FILTER): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs].filter((f) => !filter || f.includes(filter));
}

/** The fenced blocks of one Markdown text (``` or ~~~, indented in a list item or not), in document order. */
export function extractBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let open: { line: number; indent: number; fence: string; info: string; body: string[] } | undefined;
  lines.forEach((l, i) => {
    const m = /^( *)(`{3,}|~{3,})(.*)$/.exec(l);
    if (!open) {
      if (m)
        open = {
          line: i + 1,
          indent: (m[1] as string).length,
          fence: m[2] as string,
          info: (m[3] as string).trim(),
          body: [],
        };
      return;
    }
    const fence = open.fence;
    if (
      m &&
      (m[2] as string)[0] === fence[0] &&
      (m[2] as string).length >= fence.length &&
      (m[3] as string).trim() === ''
    ) {
      blocks.push(parseInfo(file, open.line, open.info, `${open.body.join('\n')}\n`));
      open = undefined;
      return;
    }
    // Content lines lose the fence's indentation (a block inside a list item).
    const indent = Math.min(open.indent, /^ */.exec(l)?.[0].length ?? 0);
    open.body.push(l.slice(indent));
  });
  if (open) throw new Error(`${file}:${open.line}: the code block is never closed`);
  return blocks;
}

function parseInfo(file: string, line: number, info: string, code: string): Block {
  const notRunAt = info.indexOf('not-run:');
  const head = notRunAt >= 0 ? info.slice(0, notRunAt) : info;
  const [lang = '', ...words] = head.trim().split(/\s+/).filter(Boolean);
  const block: Block = { file, line, info, lang, background: false, fragment: false, unknown: [], code };
  if (notRunAt >= 0) block.notRun = info.slice(notRunAt + 'not-run:'.length).trim();
  for (const w of words) {
    if (w === 'background') block.background = true;
    else if (w === 'fragment') block.fragment = true;
    else if (w.startsWith('file=') && w.length > 5) block.fileName = w.slice(5);
    else block.unknown.push(w);
  }
  return block;
}

/** `file:line`, as failure messages name a block. */
export const where = (b: Block) => `${b.file}:${b.line}`;

/** Removes `//` and `/* *\/` comments outside strings. */
function stripComments(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new Error('an unclosed /* comment');
      i = end + 1;
    } else out += c;
  }
  return out;
}

/** Splits a text into its top-level JSON values (objects, arrays or scalars written one after another). */
function jsonValues(text: string): string[] {
  const values: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) {
          values.push(text.slice(start, i + 1));
          start = -1;
        }
      }
      continue;
    }
    if (/\s/.test(c) && depth === 0) {
      if (start >= 0) {
        values.push(text.slice(start, i));
        start = -1;
      }
      continue;
    }
    if (start < 0) start = i;
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) {
        values.push(text.slice(start, i + 1));
        start = -1;
      }
    }
  }
  if (start >= 0) values.push(text.slice(start));
  return values;
}

/** Balanced tags, one root element, and nothing but a declaration, comments and whitespace around it. */
function checkXml(text: string): void {
  const stack: string[] = [];
  let roots = 0;
  const tag = /<(\?[\s\S]*?\?>|!--[\s\S]*?-->|\/?[A-Za-z_][\w.:-]*(?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*\/?>)/g;
  let last = 0;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const between = text.slice(last, m.index);
    if (stack.length === 0 && between.trim() !== '')
      throw new Error(`text outside the root element: ${between.trim()}`);
    if (/[<>]/.test(between)) throw new Error(`a malformed tag near: ${between.trim().slice(0, 60)}`);
    last = m.index + m[0].length;
    const t = m[1] as string;
    if (t.startsWith('?') || t.startsWith('!--')) continue;
    const name = /^\/?([^\s/>]+)/.exec(t)?.[1] as string;
    if (t.startsWith('/')) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open ?? 'nothing'}>`);
    } else {
      if (stack.length === 0) roots++;
      if (!t.endsWith('/>')) stack.push(name);
    }
  }
  const rest = text.slice(last);
  if (rest.trim() !== '') throw new Error(`text after the root element: ${rest.trim().slice(0, 60)}`);
  if (stack.length > 0) throw new Error(`<${stack.at(-1)}> is never closed`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}

/** A request line or a status line, then `Name: value` header lines up to an empty line; the body is free. */
function checkHttp(text: string): void {
  const lines = text.replace(/\n$/, '').split('\n');
  const first = lines[0] ?? '';
  if (!/^(HTTP\/\d(\.\d)? \d{3}( .*)?|[A-Z]+ \S+ HTTP\/\d(\.\d)?)$/.test(first)) {
    throw new Error(`the first line is neither a status line nor a request line: ${first}`);
  }
  for (const l of lines.slice(1)) {
    if (l === '') break;
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+: ?.*$/.test(l)) throw new Error(`not a header line: ${l}`);
  }
}

/** Throws, saying why, when a sample block (json, jsonc, http, xml, csv, text) is not well-formed. */
export function checkSample(b: Block): void {
  switch (b.lang) {
    case 'json':
      JSON.parse(b.code);
      return;
    case 'jsonc': {
      const values = jsonValues(stripComments(b.code));
      if (values.length === 0) throw new Error('no JSON value');
      for (const v of values) JSON.parse(v);
      return;
    }
    case 'xml':
      checkXml(b.code);
      return;
    case 'csv': {
      const header = b.code.split('\n')[0] ?? '';
      const delimiter = header.includes(';') && !header.includes(',') ? ';' : ',';
      const rows = parseCsv(b.code, { delimiter }) as string[][];
      if (rows.length === 0) throw new Error('no row');
      return;
    }
    case 'http':
      checkHttp(b.code);
      return;
    case 'text':
      if (b.code.trim() === '') throw new Error('an empty block');
      return;
    default:
      throw new Error(`not a sample language: ${b.lang}`);
  }
}

/**
 * `typescript@latest`, installed by npm into `prefix` (the npm registry is reachable from every machine of the
 * project): its `tsc` and version, or why it could not be had. The caller skips loudly on a failure, and fails
 * instead when CI is set.
 */
export async function installLatestTypeScript(
  prefix: string,
): Promise<{ tsc: string; version: string } | { failed: string }> {
  fs.mkdirSync(prefix, { recursive: true });
  const npm = path.join(path.dirname(process.execPath), 'npm');
  const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--loglevel=error'];
  const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(fs.existsSync(npm) ? npm : 'npm', [...args, 'typescript@latest'], { cwd: prefix }, (error, _out, err) =>
      resolve({ code: error ? 1 : 0, stderr: String(err) }),
    );
  });
  if (result.code !== 0) return { failed: `npm install typescript@latest failed:\n${result.stderr}` };
  const pkg = JSON.parse(fs.readFileSync(path.join(prefix, 'node_modules/typescript/package.json'), 'utf8'));
  return { tsc: path.join(prefix, 'node_modules/typescript/bin/tsc'), version: String(pkg.version) };
}
