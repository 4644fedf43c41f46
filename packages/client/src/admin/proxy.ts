/**
 * The validation proxy's departures (`GET /admin/v1/proxy/departures`): what `atrium proxy` found where the real
 * service departs from Atrium's schemas, per operation, as `atrium proxy report --json` prints it.
 */

/** One distinct departure: where, what was expected and what came, how often, and one call that showed it. */
export interface ProxyDeparture {
  direction: 'request' | 'response';
  kind: string;
  /** A JSON pointer (`/body/…`, `/query/…`, `/header/…`, `/status`); empty: none. */
  field: string;
  expected: string;
  actual: string;
  count: number;
  first_seen: string;
  last_seen: string;
  example: { method: string; path: string; status: number };
}

/** An operation the proxy saw, with its departures, most frequent first. */
export interface ProxyOperation {
  operation: string;
  api: 'hr' | 'academy' | null;
  calls: number;
  /** Calls with at least one departure. */
  departing: number;
  first_seen: string;
  last_seen: string;
  departures: ProxyDeparture[];
}

/** The proxy's report: operations with departures first; empty when it has no journal yet. */
export interface ProxyDepartures {
  operations: ProxyOperation[];
  /** Every departure's count, summed. */
  departures: number;
  calls: number;
}
