/**
 * Which test files call which operation (docs/development.md, "Parity"). With `ATRIUM_PARITY_HITS=<dir>` (set by
 * test/run.ts on a whole run), every server the test harness starts records the operationIds it answered, and each
 * test process writes them, at its exit, to a file of its own in that folder (test/support/parity-hits.ts); the
 * generator (scripts/parity.ts) merges the files here.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The variable naming the folder of the test processes' hit files. */
export const HITS_ENV = 'ATRIUM_PARITY_HITS';

/**
 * Test files whose calls do not count: the live probe calls every operation with placeholder ids, to show that it
 * is routed; that tests the route table, not the operation.
 */
export const PROBE_FILES: readonly string[] = ['test/platform/parity.test.ts'];

/**
 * Whether a call tests its operation: any answer but those given before the operation runs (a refused credential,
 * a missing scope, the rate limit). A 404 of an unknown object, a 422 of a refused body and a 2xx all do.
 */
export function countsAsTest(status: number): boolean {
  return status !== 401 && status !== 403 && status !== 429;
}

/** One test process's hits: its test file (from the checkout) and the operationIds its servers answered. */
export interface HitsFile {
  file: string;
  operations: string[];
}

/** operationId → the test files that called it, sorted, probes left out. */
export function readHits(dir: string): Map<string, string[]> {
  const byOperation = new Map<string, Set<string>>();
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
  for (const name of names) {
    const hits = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as HitsFile;
    if (PROBE_FILES.includes(hits.file)) continue;
    for (const operation of hits.operations) {
      const files = byOperation.get(operation) ?? new Set<string>();
      byOperation.set(operation, files.add(hits.file));
    }
  }
  return new Map([...byOperation].map(([operation, files]) => [operation, [...files].sort()]));
}
