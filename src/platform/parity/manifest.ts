/**
 * The parity manifest, `docs/reference/operations.json`: the one transcription of the real APIs' operations (the
 * HR reference's path table, the Academy spec's endpoints and the routes real Academy clients call), each with the
 * known departures of Atrium from it and the docs section that explains each (docs/development.md, "Parity"). The
 * request log's near misses, the parity page (`npm run parity`, `/parity`) and its tests read it from here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../build-info.js';

/** Where the manifest lives, from the package root (the package ships `docs/`). */
export const MANIFEST_FILE = 'docs/reference/operations.json';

export type ParityApi = 'hr' | 'academy';
export const PARITY_APIS: readonly ParityApi[] = ['hr', 'academy'];

/** A known departure: what Atrium answers instead, and where the docs explain it. */
export interface Departure {
  summary: string;
  /** `docs/<file>.md#<heading anchor>`, as GitHub makes the anchor of a heading. */
  docs: string;
  /** A phrase of that section that says it. */
  quote: string;
}

export interface ManifestGroup {
  /** The source's heading, `Area: family`. */
  heading: string;
  /** `METHOD /path` under the API's prefix, with the source's parameter names. */
  operations: string[];
}

export interface ManifestApi {
  title: string;
  prefix: string;
  source: string;
  groups: ManifestGroup[];
  departures: Record<string, Departure[]>;
}

export interface Manifest {
  about: string;
  apis: Record<ParityApi, ManifestApi>;
}

/** One operation of the manifest, flattened. */
export interface ReferenceOperation {
  api: ParityApi;
  method: string;
  /** Under the API's prefix: `/organizations/{id}`. */
  path: string;
  /** The product area: the heading before its colon (`Platform`, `Document Manager`, `Events`…). */
  area: string;
  group: string;
  departures: Departure[];
}

let cached: Manifest | undefined;

/** The manifest, read once (from `root`'s, when given: the generator's checkout). */
export function loadManifest(root?: string): Manifest {
  if (root !== undefined) return JSON.parse(fs.readFileSync(path.join(root, MANIFEST_FILE), 'utf8')) as Manifest;
  cached ??= JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, MANIFEST_FILE), 'utf8')) as Manifest;
  return cached;
}

/** Every operation of the manifest, API by API, in the sources' order. */
export function referenceOperations(manifest: Manifest = loadManifest()): ReferenceOperation[] {
  return PARITY_APIS.flatMap((api) => {
    const { groups, departures } = manifest.apis[api];
    return groups.flatMap((group) =>
      group.operations.map((operation) => {
        const [method, opPath] = operation.split(' ') as [string, string];
        const colon = group.heading.indexOf(':');
        return {
          api,
          method,
          path: opPath,
          area: colon === -1 ? group.heading : group.heading.slice(0, colon).trim(),
          group: colon === -1 ? group.heading : group.heading.slice(colon + 1).trim(),
          departures: departures[operation] ?? [],
        };
      }),
    );
  });
}

/** A path template without its parameters' names, so that `{id}` and `{eventid}` compare equal. */
export const barePath = (template: string) => template.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

/** An operation's key for matching: `GET /v1/events/ilt/{}`. */
export const operationKey = (method: string, fullPath: string) => `${method.toUpperCase()} ${barePath(fullPath)}`;
