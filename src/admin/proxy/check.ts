/**
 * One exchange through the validation proxy checked against Atrium's schemas of its operation (docs/proxy.md,
 * "What is checked"): the request's query, headers and body, then the answer's status, content type, declared
 * headers and body. A body is checked when it was read whole (up to the proxy's body limit) and, for JSON, parses.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Answer, Operation, OperationIndex, Parameter, Schema } from './operations.js';
import { escapeStep, type Found, SchemaChecker } from './validate.js';

export interface Exchange {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Lower-case names. */
  requestHeaders: Record<string, string>;
  /** Undefined when over the body limit. */
  requestBody: Buffer | undefined;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Buffer | undefined;
}

export interface Departure extends Found {
  direction: 'request' | 'response';
}

export interface Checked {
  operation: Operation | undefined;
  departures: Departure[];
}

/** At most this many departures are kept of one exchange (a list of 100 wrong items says it once anyway). */
const MAX_PER_EXCHANGE = 50;

export function mediaType(value: string | undefined): string {
  return (value ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/** A body as sent, its content encoding undone; undefined when it cannot be. */
export function decoded(body: Buffer, encoding: string | undefined): Buffer | undefined {
  try {
    switch ((encoding ?? '').trim().toLowerCase()) {
      case '':
      case 'identity':
        return body;
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body);
      case 'deflate':
        return inflateSync(body);
      case 'br':
        return brotliDecompressSync(body);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

function formObject(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** A query parameter's text read as its schema's type (`per_page=2` as 2), or left a string. */
function typedParameter(schema: Schema, text: string): unknown {
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * Whether a declared content (`application/json`, `image/*`, `*\/*`) takes this media type. A binary schema
 * (`format: binary`: a file whose type its bytes say) takes any.
 */
function accepts(content: Map<string, Schema | undefined>, type: string): string | undefined {
  for (const [declared, schema] of content) {
    if (schema?.format === 'binary') return declared;
    if (declared === type || declared === '*/*') return declared;
    if (declared.endsWith('/*') && type.startsWith(declared.slice(0, -1))) return declared;
  }
  return undefined;
}

export class ExchangeChecker {
  private readonly schemas: SchemaChecker;
  private readonly requests: SchemaChecker;

  constructor(private readonly index: OperationIndex) {
    this.schemas = new SchemaChecker(index.resolve);
    this.requests = new SchemaChecker(index.resolve, 'closed');
  }

  check(exchange: Exchange): Checked {
    const q = exchange.url.indexOf('?');
    const path = q < 0 ? exchange.url : exchange.url.slice(0, q);
    const operation = this.index.match(exchange.method, path);
    if (!operation) {
      const actual = `${exchange.method} ${path}`;
      return {
        operation,
        departures: [
          { direction: 'request', kind: 'unserved_operation', field: '', expected: 'an operation of Atrium', actual },
        ],
      };
    }
    // A request outside Atrium's schema departs only when the real service took it: refused by both, they agree.
    const accepted = exchange.status < 400;
    const request = accepted ? this.request(operation, exchange, q < 0 ? '' : exchange.url.slice(q + 1)) : [];
    const response = this.response(operation, exchange);
    const departures: Departure[] = [];
    const seen = new Set<string>();
    for (const [direction, list] of [
      ['request', request],
      ['response', response],
    ] as const) {
      for (const found of list) {
        const key = `${direction}\u0000${found.kind}\u0000${found.field}\u0000${found.expected}\u0000${found.actual}`;
        if (seen.has(key) || departures.length >= MAX_PER_EXCHANGE) continue;
        seen.add(key);
        departures.push({ direction, ...found });
      }
    }
    return { operation, departures };
  }

  private request(operation: Operation, exchange: Exchange, query: string): Found[] {
    const out: Found[] = [];
    const params = new Map<string, Parameter>();
    for (const p of operation.parameters) params.set(`${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`, p);
    const given = formObject(query);
    for (const p of params.values()) {
      const field = `/${p.in}/${escapeStep(p.name)}`;
      const present =
        p.in === 'query'
          ? given[p.name] !== undefined
          : p.in === 'header'
            ? p.name.toLowerCase() in exchange.requestHeaders
            : true;
      if (p.required && !present) out.push({ kind: 'missing_field', field, expected: 'present', actual: 'absent' });
    }
    for (const [name, value] of Object.entries(given)) {
      const p = params.get(`query:${name}`) ?? params.get(`query:${name.replace(/\[\]$/, '')}`);
      const field = `/query/${escapeStep(name)}`;
      // A parameter Atrium does not know is ignored by it (refused only with ATRIUM_STRICT=1): not a departure.
      if (p && typeof value === 'string' && p.schema.type !== 'array') {
        out.push(...this.requests.check(p.schema, typedParameter(p.schema, value), field));
      }
    }
    const body = operation.requestBody;
    const raw = exchange.requestBody;
    if (!body || raw === undefined) return out;
    const type = mediaType(exchange.requestHeaders['content-type']);
    if (raw.length === 0) {
      if (body.required) out.push({ kind: 'missing_field', field: '/body', expected: 'a body', actual: 'absent' });
      return out;
    }
    const declared = accepts(body.content, type);
    if (!declared) {
      const expected = [...body.content.keys()].join(' | ');
      out.push({ kind: 'header', field: '/header/content-type', expected, actual: type || 'absent' });
      return out;
    }
    const schema = body.content.get(declared);
    out.push(...this.body(this.requests, schema, type, raw, exchange.requestHeaders['content-encoding']));
    return out;
  }

  private response(operation: Operation, exchange: Exchange): Found[] {
    const status = String(exchange.status);
    const answer =
      operation.responses.get(status) ??
      operation.responses.get(`${status[0]}XX`) ??
      operation.responses.get('DEFAULT');
    if (!answer) {
      const expected = [...operation.responses.keys()].join(', ');
      return [{ kind: 'undeclared_status', field: '/status', expected, actual: status }];
    }
    const out = this.headers(answer, exchange.responseHeaders);
    const raw = exchange.responseBody;
    const noBody = exchange.method === 'HEAD' || exchange.status === 204 || exchange.status === 304;
    if (noBody || raw === undefined) return out;
    const type = mediaType(exchange.responseHeaders['content-type']);
    if (raw.length === 0) {
      if (answer.content.size > 0) {
        out.push({
          kind: 'missing_field',
          field: '/body',
          expected: [...answer.content.keys()].join(' | '),
          actual: 'absent',
        });
      }
      return out;
    }
    const declared = accepts(answer.content, type);
    if (!declared) {
      const expected = answer.content.size ? [...answer.content.keys()].join(' | ') : 'no body';
      out.push({ kind: 'header', field: '/header/content-type', expected, actual: type || 'absent' });
      return out;
    }
    const schema = answer.content.get(declared);
    out.push(...this.body(this.schemas, schema, type, raw, exchange.responseHeaders['content-encoding']));
    return out;
  }

  private headers(answer: Answer, headers: Record<string, string>): Found[] {
    const out: Found[] = [];
    for (const [name, { required, schema }] of answer.headers) {
      const field = `/header/${escapeStep(name)}`;
      const value = headers[name];
      if (value === undefined) {
        if (required) out.push({ kind: 'header', field, expected: 'present', actual: 'absent' });
        continue;
      }
      for (const found of this.schemas.check(schema, typedParameter(schema, value), field)) {
        out.push({ ...found, kind: 'header' });
      }
    }
    return out;
  }

  private body(
    checker: SchemaChecker,
    schema: Schema | undefined,
    type: string,
    raw: Buffer,
    encoding: string | undefined,
  ): Found[] {
    if (!schema) return [];
    if (schema.format === 'binary') return [];
    const bytes = decoded(raw, encoding);
    if (!bytes) return [];
    const text = bytes.toString('utf8');
    let value: unknown;
    if (type === 'application/x-www-form-urlencoded') value = formObject(text);
    else if (isJson(type)) {
      try {
        value = JSON.parse(text) as unknown;
      } catch {
        return [{ kind: 'wrong_type', field: '/body', expected: 'JSON', actual: 'not JSON' }];
      }
    } else return [];
    return checker.check(schema, value, '/body');
  }
}
