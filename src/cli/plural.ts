/**
 * Counts in the CLI's words: "1 organization group", "8 organization groups", "1 process", "3 kb categories".
 */

/** The count and its noun, singular for exactly 1. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** The singular of a plural English noun as the CLI's kinds spell them: categories, processes, employees. */
export function singular(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(plural)) return plural.slice(0, -2);
  return plural.endsWith('s') ? plural.slice(0, -1) : plural;
}

/** A count of a kind named by its plural wire name (`organization_groups`): "1 organization group". */
export function countOf(n: number, kind: string): string {
  const plural = kind.replaceAll('_', ' ');
  return count(n, singular(plural), plural);
}
