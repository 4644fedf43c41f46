import type { CommaList } from '@atrium/client/wire';
import { type StringOptions, type TUnsafe, Type } from '@sinclair/typebox';

/**
 * A list parameter: comma-separated text (query strings) or an array (JSON bodies), each item trimmed, empty
 * items dropped. Undefined stays undefined.
 */
export function commaList(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? value.split(',') : [...value]).map((s) => s.trim()).filter(Boolean);
}

/** A comma-separated list of the values `E`: the wire contract's type (in the SDK package), re-exported. */
export type { CommaList };

/**
 * The schema of a {@link CommaList}: the string it is on the wire (validated as before, no more), with the values
 * listed in the OpenAPI document as `x-comma-separated`.
 */
export function CommaListSchema<const E extends string>(
  values: readonly E[],
  options: StringOptions,
): TUnsafe<CommaList<E>> {
  return Type.Unsafe<CommaList<E>>(Type.String({ ...options, 'x-comma-separated': values }));
}
