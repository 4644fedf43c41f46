/**
 * A list parameter: comma-separated text (query strings) or an array (JSON bodies), each item trimmed, empty
 * items dropped. Undefined stays undefined.
 */
export function commaList(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? value.split(',') : [...value]).map((s) => s.trim()).filter(Boolean);
}
