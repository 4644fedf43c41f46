/**
 * Builds @atrium/client twice from the same sources: ES modules in dist/esm, CommonJS in dist/cjs (marked by its own
 * package.json), each with its declarations, so that `import` and `require` each get code and types of their own
 * format (package.json "exports").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const tsc = createRequire(path.join(dir, 'package.json')).resolve('typescript/bin/tsc');
fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
for (const project of ['tsconfig.json', 'tsconfig.cjs.json']) {
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(dir, project)], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
fs.writeFileSync(path.join(dir, 'dist/cjs/package.json'), '{ "type": "commonjs" }\n');
