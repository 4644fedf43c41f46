/**
 * The README and docs/ point only at what exists: every relative link, and every repository path quoted in
 * backticks (`src/…`, `docs/…`, `test/…`, …), names a file or folder of the checkout (issue 17, item 18).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../support/root.js';

/** Paths the docs name that are not in a checkout, on purpose: run outputs (git-ignored) and naming patterns. */
const NOT_IN_CHECKOUT = [/^bench\/results\//, /00NN_/];

const documents = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

describe('docs name what exists', () => {
  it('every relative link and quoted repository path of README.md and docs/ exists', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const doc of documents) {
      const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
      const base = path.dirname(path.join(ROOT, doc));
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const link = m[1] as string;
        if (/^[a-z]+:/.test(link)) continue;
        checked++;
        if (!fs.existsSync(path.resolve(base, link))) missing.push(`${doc}: link ${link}`);
      }
      for (const m of text.matchAll(/`((?:src|docs|test|bench|scripts|examples|\.ci)\/[^`\s*<>…{}]+)`/g)) {
        const quoted = (m[1] as string).replace(/[:#].*$/, '');
        if (NOT_IN_CHECKOUT.some((re) => re.test(quoted))) continue;
        checked++;
        if (!fs.existsSync(path.join(ROOT, quoted)) && !fs.existsSync(path.resolve(base, quoted))) {
          missing.push(`${doc}: path ${quoted}`);
        }
      }
    }
    assert.ok(checked > 100, `${checked} references checked`);
    assert.deepEqual(missing, []);
  });

  it('cites the shared specification by title, not by a path outside the repository', () => {
    const outside = documents.filter((doc) =>
      /`(?:\.\.\/)?shared\/(?:spec|reference)\//.test(fs.readFileSync(path.join(ROOT, doc), 'utf8')),
    );
    assert.deepEqual(outside, []);
  });
});
