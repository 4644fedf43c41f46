/**
 * `npm run parity`: writes the parity page, `docs/parity.md` and its data `docs/parity.json` (served at `/parity`),
 * from the manifest (`docs/reference/operations.json`), the OpenAPI document of an app built here, and the calls
 * the last whole `npm test` recorded (`.build/parity-hits/`, test/support/parity-hits.ts). docs/development.md,
 * "Parity".
 *
 * `npm run parity -- --check` writes nothing and fails (exit 1) when the committed page is not what it would write
 * (date and commit aside), when a served operation has no test, or when a departure's docs line is missing.
 * test/run.ts runs it at the end of a whole `npm test`. `--hits DIR` reads another folder of hits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInfo } from '../src/platform/build-info.js';
import { departureProblems, untested } from '../src/platform/parity/check.js';
import { readHits } from '../src/platform/parity/hits.js';
import { loadManifest } from '../src/platform/parity/manifest.js';
import { parityMarkdown } from '../src/platform/parity/markdown.js';
import { PARITY_JSON, PARITY_MARKDOWN } from '../src/platform/parity/page-files.js';
import {
  comparable,
  type OpenApiPaths,
  type ParityReport,
  parityReport,
  servedOperations,
} from '../src/platform/parity/report.js';
import { openApiDocument } from './build-openapi.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where a whole `npm test` leaves its hits (test/run.ts). */
export const DEFAULT_HITS = path.join(root, '.build', 'parity-hits');

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** The report of this checkout, with these hits. */
async function report(hitsDir: string): Promise<ParityReport> {
  const manifest = loadManifest(root);
  const served = servedOperations((await openApiDocument()) as unknown as OpenApiPaths, manifest);
  const generated = { date: new Date().toISOString().slice(0, 10), commit: buildInfo().commit };
  return parityReport(manifest, served, readHits(hitsDir), generated);
}

const hitsDir = path.resolve(option('--hits') ?? DEFAULT_HITS);
if (!fs.existsSync(hitsDir) || fs.readdirSync(hitsDir).length === 0) {
  console.error(`parity: no test calls recorded in ${hitsDir}: run the whole suite first (npm test).`);
  process.exit(1);
}
const fresh = await report(hitsDir);
const jsonFile = path.join(root, PARITY_JSON);
const markdownFile = path.join(root, PARITY_MARKDOWN);

if (!process.argv.includes('--check')) {
  fs.writeFileSync(jsonFile, `${JSON.stringify(fresh, null, 2)}\n`);
  fs.writeFileSync(markdownFile, parityMarkdown(fresh));
  const [hr, academy] = fresh.apis;
  console.log(
    `parity: wrote ${PARITY_MARKDOWN} and ${PARITY_JSON}: HR ${hr?.served}/${hr?.operations} served, ${hr?.tested} tested; Academy ${academy?.served}/${academy?.operations} served, ${academy?.tested} tested`,
  );
} else {
  const problems: string[] = [];
  const committed = fs.existsSync(jsonFile) ? (JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as ParityReport) : null;
  const withoutDate = (text: string) => text.replace(/^Generated \d{4}-.*$/m, '');
  const markdown = fs.existsSync(markdownFile) ? fs.readFileSync(markdownFile, 'utf8') : '';
  if (!committed || comparable(committed) !== comparable(fresh)) problems.push(`${PARITY_JSON} is stale`);
  else if (withoutDate(parityMarkdown(committed)) !== withoutDate(markdown))
    problems.push(`${PARITY_MARKDOWN} is stale`);
  problems.push(...untested(fresh), ...departureProblems(loadManifest(root), root));
  if (problems.length > 0) {
    console.error(`parity: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    if (problems.some((p) => p.endsWith('is stale'))) {
      console.error("Regenerate the page from this run's calls with `npm run parity` and commit docs/parity.*.");
    }
    process.exit(1);
  }
  console.log('parity: the page is current, every served operation has a test, every departure its docs line');
}
