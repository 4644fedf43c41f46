/**
 * The operations the validation proxy checks calls against (docs/proxy.md): those of Atrium's OpenAPI document
 * under the HR API's prefix (`/api/v2/client`) and the Academy API's (`/v1`), each with its parameters, request
 * bodies and answers. A call is matched to one the way the server's router does: segment by segment, a literal
 * segment before a parameter (`/employees/search` before `/employees/{id}`), and `HEAD` to the `GET` of its path
 * when the document has no `HEAD` of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../platform/build-info.js';

/** A JSON Schema of the document (its keywords are read by validate.ts). */
export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Answer {
  /** Declared headers by lower-case name. */
  headers: Map<string, { required: boolean; schema: Schema }>;
  /** Declared media types (`application/json`) and their schemas. */
  content: Map<string, Schema | undefined>;
}

export interface Operation {
  api: 'hr' | 'academy';
  operationId: string;
  method: string;
  /** The full path template: `/api/v2/client/organizations/{id}`. */
  template: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: Map<string, Schema | undefined> };
  /** By status code (`200`), range (`4XX`) or `default`. */
  responses: Map<string, Answer>;
}

export interface OperationIndex {
  /** The operation that serves this method and path (without its query), if any. */
  match(method: string, path: string): Operation | undefined;
  /** A `$ref` of the document, resolved. */
  resolve(schema: Schema): Schema;
  readonly size: number;
}

const PREFIXES: readonly [string, 'hr' | 'academy'][] = [
  ['/api/v2/client/', 'hr'],
  ['/v1/', 'academy'],
];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The document shipped with Atrium (`npm run build` writes it; the server serves the same at `/openapi.json`). */
export const PACKAGED_DOCUMENT = path.join(PACKAGE_ROOT, 'dist/openapi/openapi.json');

export function readDocument(file: string = PACKAGED_DOCUMENT): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

export function apiOf(urlPath: string): 'hr' | 'academy' | null {
  for (const [prefix, api] of PREFIXES) if (urlPath.startsWith(prefix)) return api;
  return null;
}

function content(raw: unknown): Map<string, Schema | undefined> {
  const out = new Map<string, Schema | undefined>();
  for (const [type, media] of Object.entries((raw ?? {}) as Record<string, { schema?: Schema }>)) {
    out.set(type.toLowerCase(), media.schema);
  }
  return out;
}

function answers(raw: unknown): Map<string, Answer> {
  const out = new Map<string, Answer>();
  for (const [status, answer] of Object.entries((raw ?? {}) as Record<string, Record<string, unknown>>)) {
    const headers = new Map<string, { required: boolean; schema: Schema }>();
    for (const [name, h] of Object.entries((answer.headers ?? {}) as Record<string, Record<string, unknown>>)) {
      headers.set(name.toLowerCase(), { required: h.required === true, schema: (h.schema ?? {}) as Schema });
    }
    out.set(status.toUpperCase(), { headers, content: content(answer.content) });
  }
  return out;
}

interface Entry {
  segments: string[];
  operation: Operation;
}

const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/** Compares two templates that both match a path: the one with a literal where the other has a parameter first. */
function moreSpecific(a: string[], b: string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const pa = isParam(a[i] as string);
    const pb = isParam(b[i] as string);
    if (pa !== pb) return pb;
  }
  return false;
}

/** The query parameters an operation's security schemes add (the Academy API's `apikey`), each optional. */
function queryKeys(document: Record<string, unknown>, security: Schema[] | undefined): Parameter[] {
  const schemes = ((document.components as Schema | undefined)?.securitySchemes ?? {}) as Record<string, Schema>;
  const out: Parameter[] = [];
  for (const requirement of security ?? []) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (scheme?.type === 'apiKey' && scheme.in === 'query') {
        out.push({ name: String(scheme.name), in: 'query', required: false, schema: { type: 'string' } });
      }
    }
  }
  return out;
}

function operationsOf(document: Record<string, unknown>, resolve: (s: Schema) => Schema): Entry[] {
  const entries: Entry[] = [];
  for (const [template, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    const api = apiOf(template);
    if (!api) continue;
    const shared = (item.parameters ?? []) as Schema[];
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const parameters = [...shared, ...((op.parameters ?? []) as Schema[])].map((raw) => {
        const p = resolve(raw);
        return {
          name: String(p.name),
          in: p.in as Parameter['in'],
          required: p.required === true,
          schema: (p.schema ?? {}) as Schema,
        };
      });
      parameters.push(...queryKeys(document, (op.security ?? document.security) as Schema[] | undefined));
      const body = op.requestBody ? resolve(op.requestBody as Schema) : undefined;
      entries.push({
        segments: template.split('/').slice(1),
        operation: {
          api,
          operationId: String(op.operationId ?? `${method} ${template}`),
          method: method.toUpperCase(),
          template,
          parameters,
          ...(body ? { requestBody: { required: body.required === true, content: content(body.content) } } : {}),
          responses: answers(op.responses),
        },
      });
    }
  }
  return entries;
}

export function operationIndex(document: Record<string, unknown>): OperationIndex {
  const resolve = (schema: Schema): Schema => {
    let s = schema;
    for (let depth = 0; typeof s.$ref === 'string' && depth < 32; depth++) {
      const steps = (s.$ref as string).replace(/^#\//, '').split('/');
      let at: unknown = document;
      for (const step of steps) at = (at as Record<string, unknown> | undefined)?.[step.replace(/~1/g, '/')];
      s = (at ?? {}) as Schema;
    }
    return s;
  };
  const entries = operationsOf(document, resolve);
  const byMethod = new Map<string, Entry[]>();
  for (const entry of entries) {
    const list = byMethod.get(entry.operation.method) ?? [];
    list.push(entry);
    byMethod.set(entry.operation.method, list);
  }
  const find = (method: string, segments: string[]): Operation | undefined => {
    let best: Entry | undefined;
    for (const entry of byMethod.get(method) ?? []) {
      if (entry.segments.length !== segments.length) continue;
      const fits = entry.segments.every((s, i) => s === segments[i] || (isParam(s) && segments[i] !== ''));
      if (fits && (!best || moreSpecific(entry.segments, best.segments))) best = entry;
    }
    return best?.operation;
  };
  return {
    size: entries.length,
    resolve,
    match(method, urlPath) {
      if (!apiOf(urlPath)) return undefined;
      const segments = urlPath.split('/').slice(1);
      const upper = method.toUpperCase();
      return find(upper, segments) ?? (upper === 'HEAD' ? find('GET', segments) : undefined);
    },
  };
}
