/**
 * The parity page's record of which test calls which operation (docs/development.md, "Parity"): with
 * `ATRIUM_PARITY_HITS=<dir>` (test/run.ts sets it on a whole run), every server the harness starts notes the
 * operationIds it answered (`countsAsTest`), and the test process writes them to `<dir>/<pid>.json` at its exit,
 * named by its test file (the folder must exist: test/run.ts makes it). Servers started as processes (the CLI's `serve`) are not recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ACADEMY_DOCUMENTATION } from '../../src/academy/openapi.js';
import { HR_DOCUMENTATION } from '../../src/hr/openapi.js';
import { operationIndex } from '../../src/platform/http/openapi.js';
import { countsAsTest, HITS_ENV, type HitsFile } from '../../src/platform/parity/hits.js';
import { ROOT } from './root.js';

const answered = new Set<string>();
let writing = false;

/** The test file this process runs, from the checkout: `test/hr/x.test.ts` for `.build/test/hr/x.test.js`. */
export function testFileOf(script: string): string {
  const relative = path.relative(ROOT, script).split(path.sep).join('/');
  return relative.replace(/^\.build\//, '').replace(/\.js$/, '.ts');
}

/** Writes this process's hits into `dir` (at exit; a test calls it to look), unless the folder is gone. */
export function writeParityHits(dir: string): void {
  if (!fs.existsSync(dir)) return;
  const hits: HitsFile = { file: testFileOf(process.argv[1] ?? 'unknown'), operations: [...answered].sort() };
  fs.writeFileSync(path.join(dir, `${process.pid}.json`), `${JSON.stringify(hits)}\n`);
}

/** Adds the recording hook to a server the harness built (before it listens), when the run asks for it. */
export function recordParityHits(server: FastifyInstance): void {
  const dir = process.env[HITS_ENV];
  if (!dir) return;
  const operationIdOf = operationIndex([HR_DOCUMENTATION, ACADEMY_DOCUMENTATION]);
  server.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === undefined || !countsAsTest(reply.statusCode)) return;
    const id = operationIdOf(request.method, route);
    if (id !== undefined) answered.add(id);
  });
  if (!writing) {
    writing = true;
    process.on('exit', () => writeParityHits(dir));
  }
}
