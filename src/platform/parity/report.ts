/**
 * The parity report (docs/development.md, "Parity"): for every operation of the manifest, whether Atrium serves it
 * (its OpenAPI document has the method and path), which test files call it (the calls the test servers answered,
 * recorded during a whole `npm test`), and its known departures; the operations Atrium serves beyond the manifest;
 * and the counts per API and product area. `npm run parity` writes it as `docs/parity.json` and `docs/parity.md`;
 * `/parity` shows the JSON as a page.
 */
import {
  type Departure,
  type Manifest,
  operationKey,
  PARITY_APIS,
  type ParityApi,
  referenceOperations,
} from './manifest.js';

/** The tag of the operations the real service does not have (as the OpenAPI document's tests declare it). */
const EXTENSION_TAG = 'Atrium extensions';

/** What the report reads of an OpenAPI document. */
export interface OpenApiPaths {
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
}

/** An operation of the OpenAPI document under one of the two tenant APIs. */
export interface ServedOperation {
  api: ParityApi;
  method: string;
  /** The full path template, prefix included. */
  path: string;
  operationId: string;
  extension: boolean;
}

export interface ParityOperation {
  api: ParityApi;
  area: string;
  group: string;
  method: string;
  /** Under the API's prefix, as the manifest spells it. */
  path: string;
  served: boolean;
  operation_id: string | null;
  /** The test files (paths from the checkout) whose calls the operation answered. */
  tests: string[];
  departures: Departure[];
}

/** A served operation the manifest does not list: an Atrium extension, or a path the sources do not have. */
export interface BeyondOperation {
  api: ParityApi;
  method: string;
  path: string;
  operation_id: string;
  extension: boolean;
  tests: string[];
}

export interface Counts {
  operations: number;
  served: number;
  tested: number;
  departures: number;
}

export interface ApiSummary extends Counts {
  api: ParityApi;
  title: string;
  prefix: string;
  source: string;
  areas: (Counts & { area: string })[];
  /** Served operations beyond the manifest, and how many of them a test calls. */
  beyond: { served: number; tested: number };
}

export interface ParityReport {
  /** When and from which commit the page was generated: not compared when checking that the page is current. */
  generated: { date: string; commit: string | null };
  apis: ApiSummary[];
  operations: ParityOperation[];
  beyond_reference: BeyondOperation[];
}

const PREFIXES: Record<ParityApi, (manifest: Manifest) => string> = {
  hr: (m) => m.apis.hr.prefix,
  academy: (m) => m.apis.academy.prefix,
};

/** The HR and Academy operations of an OpenAPI document (not the admin API's, not the server's own pages). */
export function servedOperations(document: OpenApiPaths, manifest: Manifest): ServedOperation[] {
  const out: ServedOperation[] = [];
  for (const [fullPath, item] of Object.entries(document.paths)) {
    const api = PARITY_APIS.find((a) => fullPath.startsWith(`${PREFIXES[a](manifest)}/`));
    if (!api) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!operation?.operationId) continue;
      out.push({
        api,
        method: method.toUpperCase(),
        path: fullPath,
        operationId: operation.operationId,
        extension: operation.tags?.includes(EXTENSION_TAG) === true,
      });
    }
  }
  return out;
}

function count(rows: readonly (ParityOperation | BeyondOperation)[]): Omit<Counts, 'operations' | 'departures'> {
  return {
    served: rows.filter((r) => !('served' in r) || r.served).length,
    tested: rows.filter((r) => (!('served' in r) || r.served) && r.tests.length > 0).length,
  };
}

function countsOf(rows: readonly ParityOperation[]): Counts {
  return {
    operations: rows.length,
    ...count(rows),
    departures: rows.reduce((n, r) => n + r.departures.length, 0),
  };
}

/**
 * The report. `hits` maps an operationId to the test files that called it (test/support/parity-hits.ts, merged by
 * scripts/parity.ts).
 */
export function parityReport(
  manifest: Manifest,
  served: readonly ServedOperation[],
  hits: ReadonlyMap<string, readonly string[]>,
  generated: ParityReport['generated'],
): ParityReport {
  const byKey = new Map(served.map((s) => [operationKey(s.method, s.path), s]));
  const listed = new Set<string>();
  const testsOf = (operationId: string | null) => (operationId ? [...(hits.get(operationId) ?? [])].sort() : []);
  const operations = referenceOperations(manifest).map((op): ParityOperation => {
    const key = operationKey(op.method, `${manifest.apis[op.api].prefix}${op.path}`);
    listed.add(key);
    const found = byKey.get(key);
    return {
      api: op.api,
      area: op.area,
      group: op.group,
      method: op.method,
      path: op.path,
      served: found !== undefined,
      operation_id: found?.operationId ?? null,
      tests: testsOf(found?.operationId ?? null),
      departures: op.departures,
    };
  });
  const beyond = served
    .filter((s) => !listed.has(operationKey(s.method, s.path)))
    .map(
      (s): BeyondOperation => ({
        api: s.api,
        method: s.method,
        path: s.path.slice(manifest.apis[s.api].prefix.length),
        operation_id: s.operationId,
        extension: s.extension,
        tests: testsOf(s.operationId),
      }),
    );
  const apis = PARITY_APIS.map((api): ApiSummary => {
    const rows = operations.filter((o) => o.api === api);
    const areas = [...new Set(rows.map((r) => r.area))].map((area) => ({
      area,
      ...countsOf(rows.filter((r) => r.area === area)),
    }));
    const { title, prefix, source } = manifest.apis[api];
    return { api, title, prefix, source, ...countsOf(rows), areas, beyond: count(beyond.filter((b) => b.api === api)) };
  });
  return { generated, apis, operations, beyond_reference: beyond };
}

/**
 * The facts of the report, what must not change for the committed page to be current: every count, and for each
 * operation whether it is served, whether a test calls it, and its departures. Its date and commit are left out, and
 * so are the lists of test files: a new test of an operation already tested does not make the page stale.
 */
export function comparable(report: ParityReport): string {
  const facts = <T extends { tests: string[] }>({ tests, ...rest }: T) => ({ ...rest, tested: tests.length > 0 });
  return JSON.stringify({
    ...report,
    generated: null,
    operations: report.operations.map(facts),
    beyond_reference: report.beyond_reference.map(facts),
  });
}
