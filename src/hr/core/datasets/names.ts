import type { DatasetName } from './repository.js';
import type { DatasetLocalizedString } from './schemas.js';

/** Names as the domain holds them, from the wire's (or the stored JSON's, which has the wire's names). */
export function datasetNames(names: readonly DatasetLocalizedString[]): DatasetName[] {
  return names.map((n) => ({ languageCode: n.language_code, value: n.value }));
}

/** Names in the wire's shape (which the stored JSON keeps too). */
export function wireNames(names: readonly DatasetName[]): DatasetLocalizedString[] {
  return names.map((n) => ({ language_code: n.languageCode, value: n.value }));
}
