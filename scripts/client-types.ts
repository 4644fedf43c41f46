/**
 * The SDK's copies of the server's schema types (issue 17, item 6). The SDK (packages/client) is a package of its
 * own and imports nothing of the server, yet its parameter and result types are the server's: this script reads
 * which schema types the SDK imports (`import type { … } from '…/schemas/<server path>.js'`), asks TypeScript what
 * each one is in the server's schema module (a `type X = Static<typeof X>`, or `Static<typeof X>` of a schema that
 * has no type of its name), and writes it out as a plain type in packages/client/src/schemas/<server path>.ts.
 *
 *   npm run gen:client-types            writes the files
 *   npm run gen:client-types -- --check exits 1 when a file differs (test/client/schema-types.test.ts runs it)
 *
 * The server path maps `src/hr/core/users/schemas.ts` to `schemas/hr/core/users.ts`, and `src/platform/lists.ts`
 * to `schemas/platform/lists.ts`. `CommaList` (the wire contract, packages/client/src/wire.ts) stays a name.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../src/platform/build-info.js';

// The checkout (found upwards: the tests run this file compiled, from .build/scripts).
const ROOT = PACKAGE_ROOT;
const CLIENT = path.join(ROOT, 'packages/client/src');
const OUT = path.join(CLIENT, 'schemas');

/** SDK files (not the generated ones) and, per generated module, the names they import from it. */
function wanted(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== OUT) walk(full);
      } else if (entry.name.endsWith('.ts')) {
        const code = fs.readFileSync(full, 'utf8');
        for (const m of code.matchAll(/import\s+type\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
          const target = path.resolve(path.dirname(full), (m[2] as string).replace(/\.js$/, '.ts'));
          if (!target.startsWith(`${OUT}${path.sep}`)) continue;
          const module = path.relative(OUT, target).replace(/\.ts$/, '');
          const names = out.get(module) ?? new Set<string>();
          out.set(module, names);
          for (const spec of (m[1] as string).split(',')) {
            const name = spec
              .trim()
              .split(/\s+as\s+/)[0]
              ?.trim();
            if (name) names.add(name);
          }
        }
      }
    }
  };
  walk(CLIENT);
  return out;
}

/** The server module a generated module copies. */
function serverModule(module: string): string {
  const direct = path.join(ROOT, 'src', `${module}.ts`);
  if (fs.existsSync(direct)) return direct;
  return path.join(ROOT, 'src', module, 'schemas.ts');
}

/**
 * Generic type aliases of the server that a printed type keeps by name (the printer expands everything but the
 * arguments of an alias): their declarations are copied into the generated file that needs them.
 */
const HELPERS: Record<string, string> = { SortTerm: 'src/hr/lists/sort.ts' };

function helperText(program: ts.Program, name: string): string {
  const file = program.getSourceFile(path.join(ROOT, HELPERS[name] as string));
  const decl = file?.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  if (!file || !decl || !ts.isTypeAliasDeclaration(decl))
    throw new Error(`client-types: no ${name} in ${HELPERS[name]}`);
  return `/** As in ${HELPERS[name]}. */\ntype ${name}${decl.typeParameters ? `<${decl.typeParameters.map((p) => p.getText(file)).join(', ')}>` : ''} = ${decl.type.getText(file)};`;
}

const PROBE = path.join(ROOT, '__client_types_probe__.ts');
const WIRE = path.join(CLIENT, 'wire.ts');

function program(probe: string, old?: ts.Program): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    // The server's schemas reach the wire contract through the package name; read it from the sources.
    baseUrl: ROOT,
    paths: { '@atrium/client/wire': ['./packages/client/src/wire.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, onError, create) =>
    path.resolve(file) === PROBE ? ts.createSourceFile(file, probe, lang) : getSourceFile(file, lang, onError, create);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === PROBE || fileExists(file);
  return ts.createProgram({ rootNames: [PROBE], options, host, ...(old ? { oldProgram: old } : {}) });
}

/** The printer writes the node builder's object types on one line; one member per line reads better. */
function multiline<T extends ts.Node>(node: T): T {
  const visit = (n: ts.Node) => {
    if (ts.isTypeLiteralNode(n)) ts.setEmitFlags(n, ts.EmitFlags.None);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return node;
}

/**
 * `reversed` checks the modules in the opposite order: TypeScript numbers types as it meets them, and a union's
 * members and a mapped type's properties come out in that order, so a canonical output must not depend on it
 * (test/client/schema-types.test.ts compares the two).
 */
/** Plain code-unit order: the same on every machine and locale. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The type in one canonical form: an object type's members sorted by name, a union's members by their text (with
 * `null` and `undefined` last). The
 * node builder gives both in the order TypeScript met their types, which changes when an unrelated module is
 * added; sorted, a file changes only when its own types do.
 */
function canonical(node: ts.TypeNode, print: (n: ts.Node) => string): ts.TypeNode {
  const key = (member: ts.TypeElement) =>
    member.name ? print(member.name).replace(/^['"]|['"]$/g, '') : print(member);
  // `null` and `undefined` last, as one writes them: `string | null`.
  const unionKey = (t: ts.TypeNode) => {
    const text = print(t);
    return text === 'null' || text === 'undefined' ? `\uffff${text}` : text;
  };
  const result = ts.transform(node, [
    (context) => (root) => {
      const visit = (n: ts.Node): ts.Node => {
        const v = ts.visitEachChild(n, visit, context);
        if (ts.isTypeLiteralNode(v))
          return ts.factory.updateTypeLiteralNode(
            v,
            ts.factory.createNodeArray([...v.members].sort((a, b) => byText(key(a), key(b)))),
          );
        if (ts.isUnionTypeNode(v))
          return ts.factory.updateUnionTypeNode(
            v,
            ts.factory.createNodeArray([...v.types].sort((a, b) => byText(unionKey(a), unionKey(b)))),
          );
        return v;
      };
      return visit(root) as ts.TypeNode;
    },
  ]);
  const out = result.transformed[0] as ts.TypeNode;
  result.dispose();
  return out;
}

export function generate(options: { reversed?: boolean } = {}): Map<string, string> {
  const sorted = [...wanted()].sort(([a], [b]) => byText(a, b));
  const modules = options.reversed ? sorted.reverse() : sorted;
  const rel = (file: string) => `./${path.relative(ROOT, file).replace(/\.ts$/, '.js')}`;
  const imports = modules.map(([m], i) => `import type * as M${i} from '${rel(serverModule(m))}';`);
  // Pass 1: which names are types of the module, which only schemas (values).
  const first = program(imports.join('\n'));
  const checker1 = first.getTypeChecker();
  const lines = ["import type { Static } from '@sinclair/typebox';", ...imports];
  modules.forEach(([module, names], i) => {
    const source = first.getSourceFile(serverModule(module));
    if (!source) throw new Error(`client-types: no server module for schemas/${module} (${serverModule(module)})`);
    const symbol = checker1.getSymbolAtLocation(source);
    const exports = new Map((symbol ? checker1.getExportsOfModule(symbol) : []).map((s) => [s.name, s]));
    for (const name of [...names].sort()) {
      const exported = exports.get(name);
      if (!exported) throw new Error(`client-types: ${path.relative(ROOT, serverModule(module))} exports no ${name}`);
      const s = exported.flags & ts.SymbolFlags.Alias ? checker1.getAliasedSymbol(exported) : exported;
      // A type of that name; else a TypeBox schema (its Static type); else a constant (its literal type).
      const isType = (s.flags & ts.SymbolFlags.Type) !== 0;
      const isSchema = !isType && checker1.getTypeOfSymbol(s).getProperty('static') !== undefined;
      const target = isType ? `M${i}.${name}` : isSchema ? `Static<typeof M${i}.${name}>` : `typeof M${i}.${name}`;
      lines.push(`export type M${i}__${name} = ${target};`);
    }
  });
  // Pass 2: print each one, expanded.
  const second = program(lines.join('\n'), first);
  const checker = second.getTypeChecker();
  const probe = second.getSourceFile(PROBE) as ts.SourceFile;
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  for (const statement of probe.statements)
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement);
  const flags =
    ts.NodeBuilderFlags.NoTruncation |
    ts.NodeBuilderFlags.InTypeAlias |
    ts.NodeBuilderFlags.UseSingleQuotesForStringLiteralType |
    ts.NodeBuilderFlags.IgnoreErrors;
  const files = new Map<string, string>();
  modules.forEach(([module, names], i) => {
    const body: string[] = [];
    let usesCommaList = false;
    const helpers = new Set<string>();
    for (const name of [...names].sort()) {
      const decl = aliases.get(`M${i}__${name}`) as ts.TypeAliasDeclaration;
      const type = checker.getTypeAtLocation(decl.name);
      const node = checker.typeToTypeNode(type, undefined, flags);
      if (!node) throw new Error(`client-types: cannot print ${module}.${name}`);
      const print = (n: ts.Node) => printer.printNode(ts.EmitHint.Unspecified, n, probe);
      const text = print(multiline(canonical(node, print)));
      if (/\bCommaList</.test(text)) usesCommaList = true;
      for (const helper of Object.keys(HELPERS)) if (new RegExp(`\\b${helper}<`).test(text)) helpers.add(helper);
      if (/\bimport\(|\bM\d+\b|\bany\b/.test(text))
        throw new Error(`client-types: ${module}.${name} prints a name it cannot keep:\n${text.slice(0, 400)}`);
      body.push(`export type ${name} = ${text};`);
    }
    const file = path.join(OUT, `${module}.ts`);
    const wire = path.relative(path.dirname(file), WIRE).replace(/\.ts$/, '.js');
    const header = [
      `// Generated by scripts/client-types.ts (npm run gen:client-types) from ${path.relative(ROOT, serverModule(module))}.`,
      '// Do not edit: change the server schema and run it again. test/client/schema-types.test.ts checks it is current.',
      ...(usesCommaList ? [`import type { CommaList } from '${wire.startsWith('.') ? wire : `./${wire}`}';`] : []),
      '',
    ];
    for (const helper of [...helpers].sort()) body.push(helperText(second, helper));
    files.set(file, `${[...header, ...body].join('\n')}\n`);
  });
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const files = generate();
  const stale: string[] = [];
  for (const [file, text] of files) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === text) continue;
    stale.push(path.relative(ROOT, file));
    if (!check) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
  }
  // Files no longer generated.
  const existing = fs.existsSync(OUT)
    ? fs
        .readdirSync(OUT, { recursive: true })
        .map((n) => path.join(OUT, String(n)))
        .filter((f) => f.endsWith('.ts'))
    : [];
  for (const file of existing) {
    if (files.has(file)) continue;
    stale.push(path.relative(ROOT, file));
    if (!check) fs.rmSync(file);
  }
  if (check && stale.length > 0) {
    console.error(`client types out of date (npm run gen:client-types): ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log(check ? 'client types are current' : `client types: ${files.size} files, ${stale.length} written`);
}
