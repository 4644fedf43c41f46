/**
 * Query-string conventions of the Academy API (reference §4, item 11): `k[]=v`
 * is read exactly as `k=v`, so `userIds[]=1&userIds[]=2` is `userIds=1&userIds=2`
 * (two values: an array) and a lone `limit[]=5` is `limit=5`. `+` is a space
 * already: the server's query parser decodes it.
 */
export function normaliseArrayKeys(query: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(query);
  if (!keys.some((k) => k.endsWith('[]') && k.length > 2)) return query;
  // No prototype, like the parser's own object: a key such as `__proto__[]` stays a plain key.
  const out: Record<string, unknown> = Object.create(null);
  const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
  for (const key of keys) {
    const name = key.endsWith('[]') && key.length > 2 ? key.slice(0, -2) : key;
    const prev = out[name];
    out[name] = prev === undefined ? query[key] : [...asList(prev), ...asList(query[key])];
  }
  return out;
}
