import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The rules whose outcome depends on the page's colours: all that a dark scheme can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * The serious and critical violations axe-core finds on the page as it is now. axe-core is injected as a script:
 * open the page with `bypassCSP: true`, since a page's own policy (rightly) refuses it.
 * `coloursOnly` runs only the colour rules: for the same page in its dark scheme, which changes colours and nothing
 * else of the pages' structure (their stylesheets switch custom properties under `prefers-color-scheme: dark`), so
 * every other rule gives what it gave in the light scheme, and a third of the run's time is saved.
 */
export async function seriousViolations(page: Page, options: { coloursOnly?: boolean } = {}): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const only = options.coloursOnly ? `runOnly: { type: "rule", values: ${JSON.stringify(COLOUR_RULES)} }, ` : '';
  const violations = (await page.evaluate(
    `axe.run(document, { ${only}resultTypes: ["violations"] }).then((r) => r.violations)`,
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
