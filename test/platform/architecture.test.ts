/**
 * The rules of docs/architecture.md and docs/development.md ("The shape of a resource") that a reader of the
 * code could break without noticing: imports point down with no cycle at any depth, no route imports another
 * route, tenancy is applied by construction, sizes stay small, one clock, and repositories hand out camelCase
 * domain records, decoded (JSON parsed, 0/1 columns as booleans) there and only there.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { recordShapeFindings } from '../support/record-shapes.js';
import { ROOT as CHECKOUT } from '../support/root.js';
import { flagComparisons, noted, parse, sizes } from '../support/source-facts.js';

const ROOT = path.join(CHECKOUT, 'src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out.sort();
}

const files = sourceFiles(ROOT);
/** The SDK, a package of its own (packages/client), whose sources are its own and its generated schema types. */
const SDK = path.resolve(ROOT, '../packages/client/src');
const sdkFiles = sourceFiles(SDK);
const rel = (file: string) => path.relative(ROOT, file);
const text = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));

/** Relative imports of a file (static, dynamic and type-only), resolved to source files. */
function importsOf(file: string): string[] {
  const out: string[] = [];
  const source = text.get(file) ?? '';
  for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.resolve(path.dirname(file), match[1] as string).replace(/\.js$/, '.ts');
    if (text.has(target)) out.push(target);
  }
  return out;
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

/** docs/development.md, "Size": a class or a function a reader can hold in their head. */
const MAX_CLASS_LINES = 400;
const MAX_FUNCTION_LINES = 150;
/**
 * The reviewed exceptions to those sizes, each with its reason: `path:name`, or `folder/` for every item of the
 * files under a folder. Paths are from the checkout's root.
 */
const SIZE_EXCEPTIONS = new Map<string, string>([
  [
    'src/platform/db/migrations/',
    'a migration is frozen once released: it is the history of the schema, never edited to change its shape',
  ],
]);

/**
 * The reviewed types a repository may hand out in the API's wire names, each with its reason: stored JSON
 * documents kept as the API writes them (a decoded JSON document held by a record is never looked into; these are
 * also taken or returned on their own).
 */
const WIRE_DOCUMENTS = new Map<string, string>([
  [
    'EmployeesPerimeter',
    'an employee perimeter as the API writes it (reference "EmployeesPerimeterBase"), stored as JSON by users, request ' +
      'forms and articles, and matched in those names by hr/core/perimeters/rules.ts',
  ],
]);

/**
 * A condition on a tenant column written by hand: Kysely's `.where('client_id', …)`, a join's `onRef` or
 * `whereRef` on it, or a comparison in raw SQL or code (`a.client_id = ${clientId}`, `s.client_id = r.client_id`,
 * `owner.client_id !== id`).
 */
const TENANT_CONDITION = [
  /\.where\(\s*['"](?:\w+\.)?(?:client_id|academy_id)['"]/,
  /\b(?:onRef|whereRef|on)\(\s*['"](?:\w+\.)?(?:client_id|academy_id)['"]/,
  /\b\w+\??\.(?:client_id|academy_id)\s*(?:=|!=|<>)/,
  /(?:=|!=|<>)\s*\w+\??\.(?:client_id|academy_id)\b/,
];

/** Strongly connected components with more than one node (or a self-loop): the cycles of a graph. */
function cycles(nodes: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of nodes.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (on.has(w)) {
        low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || nodes.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of nodes.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/**
 * The unit a folder-level cycle is counted in: a resource folder (`hr/<area>/<resource>`, `academy/<part>`,
 * `platform/<part>`, `client`, `cli`), or a file of its own for the files directly in an API's folder
 * (`hr/errors.ts` is a foundation the resources import; `hr/plugin.ts` is the top that imports them).
 */
function unitOf(file: string): string {
  const parts = rel(file).split(path.sep);
  if (parts[0] === 'hr' && parts.length >= 4) return parts.slice(0, 3).join('/');
  if (parts[0] === 'hr' && parts.length === 3)
    return parts.slice(0, 2).join('/') + (parts[2] === 'index.ts' ? '/index' : '');
  if ((parts[0] === 'academy' || parts[0] === 'platform') && parts.length >= 3) return parts.slice(0, 2).join('/');
  if (parts.length === 1 || parts[0] === 'hr' || parts[0] === 'academy' || parts[0] === 'platform')
    return parts.join('/');
  return parts[0] as string;
}

/** Layers, lowest first: a file may import its own layer or a lower one, never a higher one. */
function layerOf(file: string): number {
  const r = rel(file).split(path.sep).join('/');
  if (r.startsWith('platform/')) return 1;
  if (/^hr\/(errors|item-route|module|openapi|openapi-examples)\.ts$/.test(r) || /^hr\/(lists|audit)\//.test(r))
    return 2;
  if (r.startsWith('hr/core/')) return 3;
  if (/^hr\/(documents|document-generation|knowledge|people-assist|automation|integrations)\//.test(r)) return 4;
  if (r.startsWith('academy/')) return 3;
  // The operators' side (tokens, the admin audit log): on the platform only, beside the APIs.
  if (r.startsWith('admin/')) return 3;
  // The console's page (the single-page app is built from console/, outside src/): on the platform only.
  if (r.startsWith('console/')) return 3;
  if (/^hr\/(index|plugin)\.ts$/.test(r)) return 5;
  if (r === 'app.ts' || r === 'services.ts') return 6;
  if (r.startsWith('cli/')) return 7;
  if (r.startsWith('client/')) return 8;
  return 9;
}

/** Files of src/ that import `now` from platform/time.ts (by name, or the whole module as a namespace). */
function nowImporters(): string[] {
  const time = path.join(ROOT, 'platform/time.ts');
  const out: string[] = [];
  for (const file of files) {
    const source = text.get(file) ?? '';
    for (const match of source.matchAll(
      /import\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    )) {
      const target = path.resolve(path.dirname(file), match[3] as string).replace(/\.js$/, '.ts');
      if (target !== time || match[1]) continue;
      const names = (match[2] as string)
        .replace(/[{}]/g, '')
        .split(',')
        .map((n) => n.trim().split(/\s+/)[0]);
      if ((match[2] as string).startsWith('*') || names.includes('now')) out.push(rel(file).split(path.sep).join('/'));
    }
  }
  return out;
}

describe('architecture', () => {
  it('has no import cycle between files', () => {
    const nodes = new Map([...graph].map(([f, to]) => [f, new Set(to)]));
    const found = cycles(nodes).map((c) => c.map(rel).join(' ↔ '));
    assert.deepEqual(found, [], `import cycles:\n${found.join('\n')}`);
  });

  it('has no import cycle between folders (resources, platform parts, API foundations)', () => {
    const nodes = new Map<string, Set<string>>();
    for (const [from, to] of graph) {
      const set = nodes.get(unitOf(from)) ?? new Set<string>();
      nodes.set(unitOf(from), set);
      for (const target of to) if (unitOf(target) !== unitOf(from)) set.add(unitOf(target));
    }
    const found = cycles(nodes).map((c) => c.join(' ↔ '));
    assert.deepEqual(found, [], `folder cycles:\n${found.join('\n')}`);
  });

  it('imports point down: platform < API foundations < core < other areas < composition < app < cli', () => {
    const upward: string[] = [];
    for (const [from, to] of graph) {
      for (const target of to) {
        if (layerOf(target) > layerOf(from)) upward.push(`${rel(from)} → ${rel(target)}`);
        // The two APIs never import each other.
        const [a, b] = [rel(from).split(path.sep)[0], rel(target).split(path.sep)[0]];
        if ((a === 'hr' && b === 'academy') || (a === 'academy' && b === 'hr'))
          upward.push(`${rel(from)} → ${rel(target)}`);
      }
    }
    assert.deepEqual(upward, [], `upward imports:\n${upward.join('\n')}`);
  });

  it('the SDK package (packages/client) imports nothing outside itself: no server module, no package', () => {
    const outside: string[] = [];
    for (const file of sdkFiles) {
      const source = fs.readFileSync(file, 'utf8');
      for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
        const spec = match[1] as string;
        const target = path.resolve(path.dirname(file), spec);
        if (!spec.startsWith('.') || !target.startsWith(`${SDK}${path.sep}`))
          outside.push(`${path.relative(SDK, file)} → ${spec}`);
      }
    }
    assert.ok(sdkFiles.length > 20, `${sdkFiles.length} SDK files`);
    assert.deepEqual(outside, [], `imports leaving the SDK package:\n${outside.join('\n')}`);
  });

  it('the server reaches the SDK package only for the wire contract, and client/index.ts re-exports it', () => {
    const uses: string[] = [];
    for (const file of files) {
      const source = text.get(file) ?? '';
      for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](@atrium\/client[^'"]*)['"]/g))
        uses.push(`${rel(file).split(path.sep).join('/')} → ${match[1]}`);
    }
    const wrong = uses.filter((u) => !u.endsWith(' → @atrium/client/wire') && u !== 'client/index.ts → @atrium/client');
    assert.deepEqual(wrong, [], `server imports of the SDK package:\n${wrong.join('\n')}`);
    assert.ok(uses.includes('client/index.ts → @atrium/client'), 'atrium/client re-exports @atrium/client');
    // The re-export is all that is left of the SDK in the server's sources.
    assert.deepEqual(files.filter((f) => rel(f).startsWith(`client${path.sep}`)).map(rel), [
      path.join('client', 'index.ts'),
    ]);
  });

  it('no route imports another route', () => {
    const bad: string[] = [];
    for (const [from, to] of graph) {
      if (!from.endsWith('routes.ts')) continue;
      for (const target of to) if (target.endsWith('routes.ts')) bad.push(`${rel(from)} → ${rel(target)}`);
    }
    assert.deepEqual(bad, [], bad.join('\n'));
  });

  it('loads the SQLite driver in one place (platform/db/database.ts)', () => {
    const loaders = files
      .filter((file) => rel(file) !== path.join('platform', 'db', 'database.ts'))
      .filter((file) => /^import (?!type )[^;]*from 'better-sqlite3';/m.test(text.get(file) ?? ''))
      .map(rel);
    assert.deepEqual(loaders, [], `import { Sqlite } from platform/db/database.ts instead:\n${loaders.join('\n')}`);
  });

  it('loads the PDF library in platform/pdf/pages.ts, stamp.ts and compose.ts, and platform/docgen/layout.ts, each run in a worker thread', () => {
    const loaders = files
      .filter((file) => /(?:from\s+|import\s*\(\s*)['"]@cantoo\/pdf-lib['"]/.test(text.get(file) ?? ''))
      .map(rel)
      .sort();
    assert.deepEqual(loaders, [
      path.join('platform', 'docgen', 'layout.ts'),
      ...['compose.ts', 'pages.ts', 'stamp.ts'].map((file) => path.join('platform', 'pdf', file)),
    ]);
    // The generation engine (docxtemplater, the layout) is loaded by its worker only: outside platform/docgen/,
    // only the runner, the converter, the types and the DOCX builder are imported.
    const engineUsers = files
      .filter((file) => !rel(file).startsWith(path.join('platform', 'docgen')))
      .filter((file) =>
        /^import (?!type )[^;]*from '[^']*docgen\/(?!runner|convert|types|build-docx)[^']*\.js';/m.test(
          text.get(file) ?? '',
        ),
      )
      .map(rel);
    assert.deepEqual(engineUsers, []);
    // Both are loaded by the worker only: nothing else imports them but for their types.
    const loaderFiles = new Set(
      ['compose.ts', 'pages.ts', 'stamp.ts'].map((f) => path.join(ROOT, 'platform', 'pdf', f)),
    );
    const importers = files
      .filter((file) =>
        [...(text.get(file) ?? '').matchAll(/^import (?!type )[^;]*from '(\.\.?\/[^']*)\.js';/gm)].some((m) =>
          loaderFiles.has(path.resolve(path.dirname(file), `${m[1]}.ts`)),
        ),
      )
      .map(rel);
    assert.deepEqual(importers, [path.join('platform', 'pdf', 'worker.ts')]);
  });

  it('loads the renderer (pdf.js, the canvas) in one place, platform/pdf/render.ts, run by the worker only', () => {
    const loaders = files
      .filter((file) =>
        /(?:from\s+|import\s*\(\s*)['"](?:pdfjs-dist[^'"]*|@napi-rs\/canvas)['"]/.test(text.get(file) ?? ''),
      )
      .map(rel);
    assert.deepEqual(loaders, [path.join('platform', 'pdf', 'render.ts')]);
    const importers = files
      .filter((file) => /^import (?!type )[^;]*from '\.\.?\/[^']*(render|text)\.js';/m.test(text.get(file) ?? ''))
      .map(rel)
      .sort();
    assert.deepEqual(importers, [path.join('platform', 'pdf', 'text.ts'), path.join('platform', 'pdf', 'worker.ts')]);
  });

  it('applies the tenant condition by construction (Tenant); a condition written by hand says why', () => {
    const byHand: string[] = [];
    for (const file of files) {
      const r = rel(file).split(path.sep).join('/');
      if (r === 'platform/db/tenant.ts' || r.startsWith('platform/db/migrations/')) continue;
      const source = text.get(file) ?? '';
      let tree: ReturnType<typeof parse> | undefined;
      source.split('\n').forEach((line, i) => {
        if (!TENANT_CONDITION.some((pattern) => pattern.test(line))) return;
        // A justified exception says why in a `tenant-by-hand:` comment: on the line, or before the statement,
        // declaration or member that holds it.
        tree ??= parse(file, source);
        if (noted(tree, i + 1, 'tenant-by-hand:')) return;
        byHand.push(`${r}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(
      byHand,
      [],
      `tenant conditions written by hand, without a tenant-by-hand: note:\n${byHand.join('\n')}`,
    );
  });

  it("gets a repository's tenant view in one place (HrRepository, AcademyRepository), from a branded tenant id", () => {
    const base = text.get(path.join(ROOT, 'platform', 'db', 'repository.ts')) ?? '';
    // A tenant view is made from the API's branded id only (platform/db/tenant.ts), never from a bare string or number.
    assert.match(base, /protected tenant\(clientId: HrTenantId\)/);
    assert.match(base, /protected tenant\(academyId: AcademyTenantId\)/);
    const own = files
      .filter((f) => rel(f) !== path.join('platform', 'db', 'repository.ts'))
      .filter((f) => /^\s*(?:private|protected)\s+tenant\(/m.test(text.get(f) ?? ''))
      .map(rel);
    assert.deepEqual(
      own,
      [],
      `repositories with their own tenant(): extend platform/db/repository.ts instead:\n${own.join('\n')}`,
    );
  });

  it('holds no class over 400 lines and no function over 150, but for the reviewed exceptions', () => {
    const over: string[] = [];
    const seen = new Set<string>();
    for (const file of [...files, ...sdkFiles]) {
      const r = path.relative(CHECKOUT, file).split(path.sep).join('/');
      for (const item of sizes(parse(file, fs.readFileSync(file, 'utf8')))) {
        const limit = item.kind === 'class' ? MAX_CLASS_LINES : MAX_FUNCTION_LINES;
        if (item.lines <= limit) continue;
        const key = `${r}:${item.name}`;
        seen.add(key);
        if (!SIZE_EXCEPTIONS.has(key) && ![...SIZE_EXCEPTIONS.keys()].some((k) => k.endsWith('/') && r.startsWith(k)))
          over.push(`${key} (line ${item.line}): a ${item.kind} of ${item.lines} lines`);
      }
    }
    assert.deepEqual(
      over,
      [],
      `over the size limits (split it, or add a reviewed exception with its reason):\n${over.join('\n')}`,
    );
    // An exception that no longer applies is removed, so that the list stays short and true.
    const stale = [...SIZE_EXCEPTIONS.keys()].filter((key) => !key.endsWith('/') && !seen.has(key));
    assert.deepEqual(stale, [], `size exceptions that no longer apply:\n${stale.join('\n')}`);
  });

  it('decodes stored JSON only in repositories', () => {
    const outside: string[] = [];
    for (const file of files) {
      const name = path.basename(file);
      if (!['routes.ts', 'service.ts', 'present.ts'].includes(name)) continue;
      const lines = (text.get(file) ?? '').split('\n');
      lines.forEach((line, i) => {
        if (!line.includes('JSON.parse(')) return;
        // Parsing what a caller sent (a body, an uploaded file) is not decoding a stored column.
        if (/not-stored:/.test(`${lines[i - 1] ?? ''} ${line}`)) return;
        outside.push(`${rel(file)}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(outside, [], `JSON.parse outside repositories:\n${outside.join('\n')}`);
  });

  it('reads the time from an injected Clock: platform/time.ts has no ambient now(), and nothing imports one', () => {
    const time = text.get(path.join(ROOT, 'platform', 'time.ts')) ?? '';
    assert.doesNotMatch(time, /export (?:function|const) now\b/, 'platform/time.ts exports an ambient now()');
    const found = nowImporters();
    assert.deepEqual(
      found,
      [],
      `these files import now() from platform/time.ts: read the time from the Clock they are given ` +
        `(clock.now()), or wallClock() for what belongs to no tenant (docs/architecture.md, "One clock"):\n` +
        found.join('\n'),
    );
  });
  it('repositories take and return camelCase domain records, never table rows', () => {
    const found = recordShapeFindings(CHECKOUT, new Set(WIRE_DOCUMENTS.keys())).map(
      (f) => `${f.file}: ${f.member}, ${f.where}: ${f.property}`,
    );
    const unique = [...new Set(found)];
    assert.deepEqual(
      unique,
      [],
      `repository methods that take or return names that are not camelCase (map the row to a …Record in the ` +
        `repository; docs/architecture.md, "One record shape"):\n${unique.slice(0, 80).join('\n')}` +
        (unique.length > 80 ? `\n… and ${unique.length - 80} more` : ''),
    );
  });

  it('decodes 0/1 columns only in repositories: no `x.flag === 1` anywhere else', () => {
    const outside: string[] = [];
    for (const file of [...files, ...sdkFiles]) {
      const r = path.relative(CHECKOUT, file).split(path.sep).join('/');
      if (/\/repository[^/]*\.ts$/.test(r) || r.startsWith('src/platform/db/migrations/')) continue;
      for (const found of flagComparisons(parse(file, fs.readFileSync(file, 'utf8'))))
        outside.push(`${r}:${found.line}: ${found.text}`);
    }
    assert.deepEqual(
      outside,
      [],
      `0/1 flags compared outside repositories (decode them to booleans in the repository):\n${outside.join('\n')}`,
    );
  });
});
