/**
 * `@atrium/client`, the SDK as a package of its own (issue 17, item 6): packed with `npm pack`, it has no
 * dependency and stays under 300 KB (every operation of both APIs, ES modules with their sources in source maps); unpacked alone into a consumer's node_modules, it type-checks under
 * `moduleResolution` node16, nodenext and bundler (and node10, the default of `"module": "commonjs"`), from ES
 * modules and from CommonJS, with only the DOM and ES libraries (no @types/node), and loads with `import` and
 * `require` at run time.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../support/root.js';

/** A consumer's code: a resource call with a filter of known values, a model type, the error classes, the wire. */
const USE = `
const hr = new HrClient({ baseUrl: 'http://127.0.0.1:1', applicationId: 'a', applicationSecret: 's', clientId: 'c' });
const academy = new AcademyClient({ baseUrl: 'http://127.0.0.1:1', acadId: 1, apiKey: 'k' });
export const pages = hr.requests.list({ status: ['opened', 'closed'], per_page: 10 });
// @ts-expect-error: not a status of requests (the types are the server's, not any)
hr.requests.list({ status: ['opened', 'nonsense'] });
export const organization: Pick<Organization, 'id' | 'name'> = { id: 'acme', name: 'Acme' };
export const isError = (e: unknown): boolean => e instanceof HrApiError;
export const roots: string[] = [hr.apiRoot, academy.apiRoot];
`;

const consumers: {
  name: string;
  options: ts.CompilerOptions;
  type: 'module' | 'commonjs';
  file: string;
  code: string;
}[] = [
  ...(['Node16', 'NodeNext'] as const).flatMap((kind) => [
    {
      name: `${kind}, ES module`,
      options: { module: ts.ModuleKind[kind], moduleResolution: ts.ModuleResolutionKind[kind] },
      type: 'module' as const,
      file: 'use.mts',
      code: `import { AcademyClient, HrApiError, HrClient, type Organization } from '@atrium/client';\nimport { HEADERS } from '@atrium/client/wire';\nexport const h: string = HEADERS.requestId;\n${USE}`,
    },
    {
      name: `${kind}, CommonJS`,
      options: { module: ts.ModuleKind[kind], moduleResolution: ts.ModuleResolutionKind[kind] },
      type: 'commonjs' as const,
      file: 'use.cts',
      code: `import { AcademyClient, HrApiError, HrClient, type Organization } from '@atrium/client';\n${USE}`,
    },
  ]),
  {
    name: 'bundler',
    options: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
    type: 'module',
    file: 'use.ts',
    code: `import { AcademyClient, HrApiError, HrClient, type Organization } from '@atrium/client';\nimport { HEADERS } from '@atrium/client/wire';\nexport const h: string = HEADERS.requestId;\n${USE}`,
  },
  {
    name: 'node10 ("module": "commonjs")',
    options: { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 },
    type: 'commonjs',
    file: 'use.ts',
    code: `import { AcademyClient, HrApiError, HrClient, type Organization } from '@atrium/client';\n${USE}`,
  },
];

/** A compiler host that parses TypeScript's own lib files once for all the consumers (lib.dom.d.ts is large). */
const libFiles = new Map<string, ts.SourceFile>();
function host(options: ts.CompilerOptions): ts.CompilerHost {
  const base = ts.createCompilerHost(options);
  const libDir = path.dirname(ts.getDefaultLibFilePath(options));
  const getSourceFile = base.getSourceFile.bind(base);
  base.getSourceFile = (file, lang, onError, create) => {
    if (!file.startsWith(libDir)) return getSourceFile(file, lang, onError, create);
    const cached = libFiles.get(file) ?? getSourceFile(file, lang, onError, create);
    if (cached) libFiles.set(file, cached);
    return cached;
  };
  return base;
}

describe('@atrium/client, packed', () => {
  let tmp: string;
  let consumerRoot: string;
  let packed: { size: number; files: { path: string }[]; filename: string };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-client-pkg-'));
    // --ignore-scripts: pack the build npm run build made (its prepack would build it again).
    const r = spawnSync(
      'npm',
      ['pack', '--workspace', '@atrium/client', '--pack-destination', tmp, '--json', '--ignore-scripts'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    packed = (JSON.parse(r.stdout) as (typeof packed)[])[0] as typeof packed;
    // The consumer's node_modules holds this package and nothing else.
    consumerRoot = path.join(tmp, 'consumer');
    const target = path.join(consumerRoot, 'node_modules/@atrium/client');
    fs.mkdirSync(target, { recursive: true });
    const x = spawnSync('tar', ['xzf', path.join(tmp, packed.filename), '-C', target, '--strip-components=1']);
    assert.equal(x.status, 0, String(x.stderr));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('has no dependency, ships only its build, and packs under 300 KB', () => {
    const pkg = JSON.parse(
      fs.readFileSync(path.join(consumerRoot, 'node_modules/@atrium/client/package.json'), 'utf8'),
    );
    assert.equal(pkg.name, '@atrium/client');
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.peerDependencies, undefined);
    assert.equal(pkg.optionalDependencies, undefined);
    assert.ok(packed.size < 300 * 1024, `${packed.size} bytes packed`);
    console.log(`@atrium/client packs to ${packed.size} bytes, ${packed.files.length} files`);
    const files = packed.files.map((f) => f.path);
    const outside = files.filter(
      (f) => !f.startsWith('dist/') && !['package.json', 'LICENSE', 'README.md'].includes(f),
    );
    assert.deepEqual(outside, []);
    for (const f of ['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts'])
      assert.ok(files.includes(f), `${f} is packed`);
    assert.ok(files.includes('dist/cjs/package.json'), 'dist/cjs is marked CommonJS');
  });

  for (const consumer of consumers) {
    it(`type-checks a consumer under ${consumer.name}`, () => {
      const dir = path.join(consumerRoot, consumer.name.replace(/\W+/g, '-'));
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: consumer.type }));
      fs.writeFileSync(path.join(dir, consumer.file), consumer.code);
      const options: ts.CompilerOptions = {
        ...consumer.options,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      };
      const program = ts.createProgram({ rootNames: [path.join(dir, consumer.file)], options, host: host(options) });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      assert.deepEqual(diagnostics, []);
      // It read the package's own declarations, of the format the consumer asked for.
      const declarations = program
        .getSourceFiles()
        .map((f) => path.relative(consumerRoot, f.fileName))
        .filter((f) => f.startsWith('node_modules/@atrium/client/'));
      const esm = consumer.type === 'module' || consumer.options.moduleResolution === ts.ModuleResolutionKind.Bundler;
      assert.ok(
        declarations.includes(`node_modules/@atrium/client/dist/${esm ? 'esm' : 'cjs'}/index.d.ts`),
        declarations.join(', '),
      );
    });
  }

  it('loads with import and with require, the same API', () => {
    const esm = `import { HrClient, AcademyClient, HrApiError } from '@atrium/client';
      import { HEADERS } from '@atrium/client/wire';
      const hr = new HrClient({ baseUrl: 'http://127.0.0.1:1', applicationId: 'a', applicationSecret: 's', clientId: 'c' });
      console.log(hr.apiRoot, typeof AcademyClient, typeof HrApiError, HEADERS.requestId);`;
    const cjs = `const { HrClient, AcademyClient, HrApiError } = require('@atrium/client');
      const { HEADERS } = require('@atrium/client/wire');
      const hr = new HrClient({ baseUrl: 'http://127.0.0.1:1', applicationId: 'a', applicationSecret: 's', clientId: 'c' });
      console.log(hr.apiRoot, typeof AcademyClient, typeof HrApiError, HEADERS.requestId);`;
    fs.writeFileSync(path.join(consumerRoot, 'run.mjs'), esm);
    fs.writeFileSync(path.join(consumerRoot, 'run.cjs'), cjs);
    for (const file of ['run.mjs', 'run.cjs']) {
      const r = spawnSync(process.execPath, [file], {
        cwd: consumerRoot,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      assert.equal(r.status, 0, `${file}: ${r.stderr}`);
      assert.equal(r.stdout.trim(), 'http://127.0.0.1:1/api/v2/client function function X-Request-Id', file);
    }
  });
});
