/**
 * What `npm run parity -- --check` refuses besides a stale page (docs/development.md, "Parity"): a served operation
 * that no test calls, and a departure whose docs line is not where the manifest says (no such file, no heading with
 * that anchor, or the quoted phrase is not in that section), or that names no operation of the manifest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Manifest, PARITY_APIS, referenceOperations } from './manifest.js';
import type { ParityReport } from './report.js';

/** The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A Markdown file's sections, by anchor: each heading's text up to the next heading (fenced code skipped). */
export function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  let anchor: string | undefined;
  let body: string[] = [];
  let fenced = false;
  const close = () => {
    if (anchor === undefined) return;
    // A repeated heading gets `-1`, `-2`… as GitHub numbers them.
    let key = anchor;
    for (let n = 1; out.has(key); n++) key = `${anchor}-${n}`;
    out.set(key, body.join('\n'));
  };
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      close();
      anchor = headingAnchor(heading[1] as string);
      body = [];
    } else {
      body.push(line);
    }
  }
  close();
  return out;
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ');

/** Every departure's docs line checked in the checkout at `root`. */
export function departureProblems(manifest: Manifest, root: string): string[] {
  const problems: string[] = [];
  const files = new Map<string, Map<string, string> | undefined>();
  const known = new Set(referenceOperations(manifest).map((op) => `${op.api} ${op.method} ${op.path}`));
  for (const api of PARITY_APIS) {
    for (const [operation, departures] of Object.entries(manifest.apis[api].departures)) {
      if (!known.has(`${api} ${operation}`)) problems.push(`${api} ${operation}: a departure of no operation`);
      for (const departure of departures) {
        const [file, anchor] = departure.docs.split('#') as [string, string | undefined];
        if (!files.has(file)) {
          const full = path.join(root, file);
          files.set(file, fs.existsSync(full) ? sections(fs.readFileSync(full, 'utf8')) : undefined);
        }
        const found = files.get(file);
        const section = anchor === undefined ? undefined : found?.get(anchor);
        if (!found) problems.push(`${api} ${operation}: ${file} does not exist`);
        else if (section === undefined) problems.push(`${api} ${operation}: ${departure.docs}: no such heading`);
        else if (!squeeze(section).includes(squeeze(departure.quote))) {
          problems.push(`${api} ${operation}: ${departure.docs} does not say "${departure.quote}"`);
        }
      }
    }
  }
  return problems;
}

/** Served operations, of the manifest or beyond it, that no test file calls. */
export function untested(report: ParityReport): string[] {
  return [
    ...report.operations.filter((o) => o.served && o.tests.length === 0),
    ...report.beyond_reference.filter((o) => o.tests.length === 0),
  ].map((o) => `${o.api} ${o.method} ${o.path}: served, and no test calls it`);
}
