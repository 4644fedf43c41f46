import { referenceOperations } from '../../platform/parity/manifest.js';

/**
 * The operations of the real HR service delivery API v2 (its public specification, 314 operations), from the parity
 * manifest (`docs/reference/operations.json`, the one transcription): each path template after `/api/v2/client`,
 * with its methods, space-separated. The request log's near misses read it to say that a call Atrium does not serve
 * exists in the real API (docs/admin.md, "Near misses"). Parameter names are the reference's; only their places
 * matter here.
 */
export const REFERENCE_OPERATIONS: Readonly<Record<string, string>> = Object.freeze(
  referenceOperations()
    .filter((operation) => operation.api === 'hr')
    .reduce<Record<string, string>>((table, { method, path }) => {
      table[path] = table[path] === undefined ? method : `${table[path]} ${method}`;
      return table;
    }, {}),
);
