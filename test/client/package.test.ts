import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../support/root.js';

/** The SDK package's ES module build (packages/client), which the server's dist/client/index.js re-exports. */
const DIST = path.join(ROOT, 'packages/client/dist/esm');
const SRC = path.join(ROOT, 'packages/client/src');

/** Every module specifier a JavaScript file imports or re-exports, statically or dynamically. */
function specifiers(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string);
  for (const m of code.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string);
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out;
}

/** The files reachable from `entry` through relative imports, and every non-relative specifier met. */
function graph(entry: string): { files: string[]; external: string[] } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else external.add(spec);
    }
  };
  visit(entry);
  return { files: [...files], external: [...external] };
}

function node(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('SDK packaging: atrium/client', () => {
  it('package.json exports ./client, a re-export of the bundled @atrium/client, built by npm run build', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.exports['./client'], {
      types: './dist/client/index.d.ts',
      import: './dist/client/index.js',
      default: './dist/client/index.js',
    });
    assert.equal(pkg.bin.atrium, 'dist/cli/main.js', 'the CLI bin is unchanged');
    assert.equal(pkg.dependencies['@atrium/client'], '0.1.0');
    assert.deepEqual(pkg.bundleDependencies, ['@atrium/client'], 'it ships inside the server package');
    assert.deepEqual(pkg.workspaces, ['packages/client']);
    assert.equal(
      fs
        .readFileSync(path.join(ROOT, 'dist/client/index.js'), 'utf8')
        .match(/^export .*$/gm)
        ?.join('\n'),
      "export * from '@atrium/client';",
    );
    for (const file of ['index.js', 'index.d.ts', 'hr/client.js', 'academy/client.js']) {
      assert.ok(fs.existsSync(path.join(DIST, file)), `packages/client/dist/esm/${file} is built (npm run build)`);
    }
  });

  it('the built SDK imports nothing outside its dist: no server module, no package, no Node built-in', () => {
    const { files, external } = graph(path.join(DIST, 'index.js'));
    assert.deepEqual(external, [], 'no bare or node: imports at all');
    for (const file of files) {
      assert.ok(file.startsWith(`${DIST}${path.sep}`), `${file} stays in packages/client/dist/esm`);
    }
    assert.ok(files.length >= 6, 'the graph was walked');
  });

  it('runs with nothing else installed: a copy of its ES module build alone, in a directory without node_modules', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-client-alone-'));
    try {
      fs.cpSync(DIST, dir, {
        recursive: true,
        filter: (from) => fs.statSync(from).isDirectory() || from.endsWith('.js'),
      });
      fs.writeFileSync(path.join(dir, 'package.json'), '{"type": "module"}');
      const script = `
        const sdk = await import('./index.js');
        const hr = new sdk.HrClient({ baseUrl: 'http://127.0.0.1:1', applicationId: 'a', applicationSecret: 's', clientId: 'c' });
        const academy = new sdk.AcademyClient({ baseUrl: 'http://127.0.0.1:1', acadId: 1, apiKey: 'k' });
        console.log(hr.apiRoot, academy.apiRoot, typeof sdk.HrApiError, typeof sdk.AutoPager);
      `;
      const r = node(['--input-type=module', '-e', script], dir);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'http://127.0.0.1:1/api/v2/client http://127.0.0.1:1/v1 function function');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves as atrium/client through the exports map to the same module as @atrium/client, and loads no server module', () => {
    const script = `
      const { createRequire } = await import('node:module');
      const sdk = await import('atrium/client');
      const own = await import('@atrium/client');
      console.log(import.meta.resolve('atrium/client'));
      console.log(import.meta.resolve('@atrium/client'));
      console.log(Object.keys(sdk).includes('HrClient') && Object.keys(sdk).includes('AcademyClient'));
      console.log(sdk.HrClient === own.HrClient && sdk.HrApiError === own.HrApiError);
      // Server-only packages would be in the CommonJS cache had anything required them (pg, better-sqlite3, pino…).
      const require = createRequire(import.meta.url);
      console.log(Object.keys(require.cache).filter((k) => /node_modules\\/(fastify|kysely|pg|better-sqlite3(-node20)?|pino)\\//.test(k)).length);
    `;
    const r = node(['--input-type=module', '-e', script], ROOT);
    assert.equal(r.status, 0, r.stderr);
    const [resolved, resolvedOwn, hasBoth, same, serverModules] = r.stdout.trim().split('\n');
    assert.equal(resolved, `file://${path.join(ROOT, 'dist/client/index.js')}`);
    assert.equal(resolvedOwn, `file://${path.join(DIST, 'index.js')}`);
    assert.equal(hasBoth, 'true');
    assert.equal(same, 'true', 'a re-export, not a second copy: instanceof works across both names');
    assert.equal(serverModules, '0');
  });
});

describe('SDK documentation', () => {
  it('every public export of atrium/client, and every public member of HrClient and AcademyClient, has a TSDoc comment', async () => {
    const ts = (await import('typescript')).default;
    const entry = path.join(SRC, 'index.ts');
    const program = ts.createProgram([entry], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(entry);
    assert.ok(source, 'the entry point parses');
    const moduleSymbol = checker.getSymbolAtLocation(source);
    assert.ok(moduleSymbol, 'the entry point is a module');
    const documented = (s: import('typescript').Symbol) =>
      ts.displayPartsToString(s.getDocumentationComment(checker)).trim().length > 0;
    const undocumented: string[] = [];
    const exports = checker.getExportsOfModule(moduleSymbol);
    assert.ok(exports.length > 40, `${exports.length} exports`);
    for (const exported of exports) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!documented(symbol)) undocumented.push(exported.name);
      // The public members of the clients, and the verbs of each resource namespace.
      if (exported.name === 'HrClient' || exported.name === 'AcademyClient') {
        const instance = checker.getDeclaredTypeOfSymbol(symbol);
        for (const member of instance.getProperties()) {
          if (member.name.startsWith('#')) continue;
          const decl = member.valueDeclaration ?? member.declarations?.[0];
          const isPrivate = decl && ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Private;
          if (isPrivate) continue;
          if (!documented(member)) undocumented.push(`${exported.name}.${member.name}`);
        }
      }
    }
    assert.deepEqual(undocumented, [], 'exports without a doc comment');
  });
});

describe('the packed server package', () => {
  it('ships the docs the README links to, the licence, .env.example, the OpenAPI document and its Postman collection; source maps carry their sources', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const files = new Set(
      ((JSON.parse(r.stdout) as { files: { path: string }[] }[])[0]?.files ?? []).map((f) => f.path),
    );
    for (const file of [
      'README.md',
      'LICENSE',
      '.env.example',
      'package.json',
      'dist/cli/main.js',
      'dist/client/index.js',
      // The SDK package, bundled: `atrium/client` resolves it without the registry.
      'node_modules/@atrium/client/package.json',
      'node_modules/@atrium/client/dist/esm/index.js',
      'node_modules/@atrium/client/dist/cjs/index.js',
      // Built by npm run build (scripts/build-openapi.ts); the server serves the collection at /docs/postman.json.
      'dist/openapi/openapi.json',
      'dist/openapi/postman.json',
    ]) {
      assert.ok(files.has(file), `${file} is packed`);
    }
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const linked = new Set([...readme.matchAll(/\b(docs\/[A-Za-z-]+\.md)\b/g)].map((m) => m[1] as string));
    assert.ok(linked.size >= 5, `${linked.size} docs named by the README`);
    for (const doc of linked) assert.ok(files.has(doc), `${doc} is packed`);
    assert.equal(
      [...files].some((f) => f.startsWith('src/')),
      false,
      'sources ship inside the maps, not as files',
    );
    // Every map's sources are inlined, so a stack trace maps to readable code in an installed package.
    const maps = [...files].filter((f) => f.endsWith('.js.map'));
    assert.ok(maps.length > 100, `${maps.length} maps`);
    for (const file of maps) {
      const map = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      assert.equal(map.sourcesContent?.length, map.sources.length, `${file} inlines its sources`);
      assert.ok(
        map.sourcesContent?.every((s) => typeof s === 'string' && s.length > 0),
        `${file} has every source`,
      );
    }
  });
});
