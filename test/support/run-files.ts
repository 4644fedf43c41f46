/**
 * The test runner's process (started by test/run.ts with the environment it prepared): runs the test files named
 * on its command line, in that order, `ATRIUM_TEST_CONCURRENCY` at a time, each in a process of its own, with the
 * spec reporter. Through `run()` rather than `node --test <files>`: the command line's names are glob patterns,
 * whose matches Node sorts by name, so the longest files, named first, would start last and run on alone at the
 * end. It runs compiled, from `.build/` (test/run.ts); children inherit its `--enable-source-maps`.
 */
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const files = process.argv.slice(2);
const concurrency = Number(process.env.ATRIUM_TEST_CONCURRENCY);
const timeout = Number(process.env.ATRIUM_TEST_TIMEOUT_MS ?? 600_000);

const stream = run({ files, concurrency, timeout });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
stream.compose(new spec()).pipe(process.stdout);
