/**
 * Property-based fuzzing of both APIs from the OpenAPI document (fast-check): every operation gets requests
 * built from its own schemas (valid-looking values, so the cases reach the services) and then mutated —
 * wrong types, missing and extra fields, deep nesting, huge strings, NUL, invalid UTF-8, out-of-range numbers,
 * impossible dates, repeated parameters, wrong content types, truncated JSON, oversized bodies.
 */
import http from 'node:http';
import fc from 'fast-check';
import { type Api, collectionOf, type JsonSchema, type Operation, pathParams } from './openapi.js';

/** A request as bytes: the path may hold raw bytes 0x80–0xFF (sent as latin1), the body any bytes. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the case is, for the failure message. */
  label: string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Sends a request exactly as given (no normalisation of the path or the body). */
export function send(base: string, req: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let r: http.ClientRequest;
    try {
      r = http.request({
        host: url.hostname,
        port: Number(url.port),
        method: req.method,
        path: req.path,
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        // One connection per case: an answer that closes its connection (a parse error) cannot disturb the next.
        agent: false,
        timeout: timeoutMs,
      });
    } catch (err) {
      reject(err);
      return;
    }
    r.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Nasty values

/** Markers replaced, after JSON serialisation, by raw JSON text that JSON.stringify cannot produce. */
const RAW_PREFIX = '@@RAW:';
const RAW_TEXT: Record<string, (n: number) => string> = {
  deepArray: (n) => `${'['.repeat(n)}${']'.repeat(n)}`,
  deepObject: (n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`,
  hugeExponent: () => '1e999',
  negHugeExponent: () => '-1e999',
  bigInteger: () => '123456789012345678901234567890',
  duplicateKeys: () => '{"a":1,"a":2}',
  loneSurrogate: () => '"\\ud800x"',
  escapedNul: () => '"a\\u0000b"',
  proto: () => '{"__proto__":{"polluted":1}}',
  constructorProto: () => '{"constructor":{"prototype":{"polluted":1}}}',
};

const rawMarker = fc
  .tuple(fc.constantFrom(...Object.keys(RAW_TEXT)), fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constant(20_000)))
  .map(([kind, n]) => `${RAW_PREFIX}${kind}:${n}@@`);

export function serialize(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(/"@@RAW:([A-Za-z]+):(\d+)@@"/g, (_m, kind: string, n: string) =>
    (RAW_TEXT[kind] as (n: number) => string)(Number(n)),
  );
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '2024-02-30',
  '2024-02-30T10:00:00+00:00',
  '2023-13-01',
  '2023-00-10',
  '0000-00-00',
  '9999-12-31T23:59:60+00:00',
  '2024-01-01T25:00:00Z',
  '-000001-01-01',
  '\ud800',
  '😀',
  '%00',
  '%ZZ',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'null',
  'true',
  '1',
  '-1',
  '1e309',
  'NaN',
  '\u202e',
  '\r\n',
  'A'.repeat(256),
  'é'.repeat(1001),
];

const NASTY_SCALARS = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

/** Values no schema expects: each usable anywhere in a body or a parameter. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_SCALARS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double().map((d) => (Number.isFinite(d) ? d : 0)) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>([], {}, [[]], [null], { x: [1, { y: 'z' }] }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  },
  { weight: 2, arbitrary: rawMarker },
);

// ---------------------------------------------------------------------------------------------------------
// Values from a schema

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const dateArb = fc
  .date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2040, 11, 31)), noInvalidDate: true })
  .map((d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`);
const dateTimeArb = fc
  .date({ min: new Date(Date.UTC(1990, 0, 1)), max: new Date(Date.UTC(2040, 11, 31)), noInvalidDate: true })
  .map((d) => `${d.toISOString().slice(0, 19)}+00:00`);

function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/**
 * A fast-check arbitrary of values that satisfy the schema (as far as a generator reasonably can:
 * patterns, formats, bounds, enums, required keys); `pools` supply real ids for `*_id` fields.
 */
export function fromSchema(schema: JsonSchema, pools: IdPools, depth = 0, key = ''): fc.Arbitrary<unknown> {
  if (depth > 5) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    return fc.oneof(
      ...branches.map((b) =>
        fromSchema({ ...schema, anyOf: undefined, oneOf: undefined, ...b }, pools, depth + 1, key),
      ),
    );
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => fromSchema({ ...schema, type: t }, pools, depth, key)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = num(schema.minimum) ?? (num(schema.exclusiveMinimum) ?? -1001) + 1;
      const max = num(schema.maximum) ?? (num(schema.exclusiveMaximum) ?? 100_001) - 1;
      const ids = pools.numbers;
      const range = fc.integer({ min: Math.max(min, -1_000_000), max: Math.min(max, 1_000_000) });
      return ids.length && /id/i.test(key) ? fc.oneof(fc.constantFrom(...ids), range) : range;
    }
    case 'number': {
      const min = num(schema.minimum) ?? -1e6;
      const max = num(schema.maximum) ?? 1e6;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return stringFor(schema, pools, key);
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {};
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.max(minLength, Math.min(num(schema.maxItems) ?? 3, 3));
      return fc.array(fromSchema(items, pools, depth + 1, key), { minLength, maxLength });
    }
    case 'object': {
      const props = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
      const required = (schema.required as string[] | undefined) ?? [];
      const keys = Object.keys(props);
      if (keys.length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const k of keys) model[k] = fromSchema(props[k] as JsonSchema, pools, depth + 1, k);
      return fc.record(model, { requiredKeys: required.filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(schema: JsonSchema, pools: IdPools, key: string): fc.Arbitrary<unknown> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.max(minLength, Math.min(num(schema.maxLength) ?? 24, 24));
  switch (schema.format) {
    case 'date':
      return dateArb;
    case 'date-time':
      return dateTimeArb;
    case 'uuid':
      return pools.strings.length ? fc.oneof(fc.constantFrom(...pools.strings), fc.uuid()) : fc.uuid();
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (num(schema.maxLength) ?? 255));
    case 'binary':
      return fc.string({ maxLength: 32 });
  }
  if (schema['x-date-or-datetime']) return fc.oneof(dateArb, dateTimeArb);
  if (typeof schema.pattern === 'string') {
    try {
      const re = new RegExp(schema.pattern, 'u');
      return fc.stringMatching(re).filter((s) => s.length >= minLength && s.length <= (num(schema.maxLength) ?? 1e9));
    } catch {
      // A pattern JavaScript cannot read: fall through to any string.
    }
  }
  const plain = fc.string({ minLength, maxLength });
  return /(^|_)ids?$/.test(key) && pools.strings.length ? fc.oneof(fc.constantFrom(...pools.strings), plain) : plain;
}

// ---------------------------------------------------------------------------------------------------------
// Mutations

type Op = 'replace' | 'delete' | 'extra' | 'wrap';
export interface Mutation {
  at: number;
  op: Op;
  value: unknown;
}

export const mutationsArb: fc.Arbitrary<Mutation[]> = fc.array(
  fc.record({
    at: fc.nat(),
    op: fc.constantFrom<Op>('replace', 'replace', 'delete', 'extra', 'wrap'),
    value: nastyValue,
  }),
  { maxLength: 3 },
);

/** Every [container, key] of a JSON value, the root included as [undefined, undefined]. */
function slots(
  value: unknown,
  out: [Record<string, unknown> | unknown[] | undefined, string | number | undefined][] = [],
) {
  if (out.length === 0) out.push([undefined, undefined]);
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([value, i]);
      slots(v, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([value as Record<string, unknown>, k]);
      slots(v, out);
    }
  }
  return out;
}

/** Applies the mutations to a deep copy of the value. */
export function mutate(value: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(value);
  for (const m of mutations) {
    const all = slots(root);
    const [container, key] = all[m.at % all.length] as (typeof all)[number];
    const current = container === undefined ? root : (container as Record<string | number, unknown>)[key as string];
    // A copy: constants are shared between cases, and a value must never end up inside itself.
    const value = structuredClone(m.value);
    let next: unknown;
    switch (m.op) {
      case 'replace':
        next = value;
        break;
      case 'wrap':
        next = [[[[current]]]];
        break;
      case 'extra':
        if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
          (current as Record<string, unknown>)[`extra_${m.at % 7}`] = value;
          continue;
        }
        next = value;
        break;
      case 'delete':
        if (container === undefined) {
          root = undefined;
          continue;
        }
        if (Array.isArray(container)) container.splice(key as number, 1);
        else delete (container as Record<string, unknown>)[key as string];
        continue;
    }
    if (container === undefined) root = next;
    else (container as Record<string | number, unknown>)[key as string] = next;
  }
  return root;
}

// ---------------------------------------------------------------------------------------------------------
// Requests from operations

/** Real ids, by collection path, and every id seen. */
export interface IdPools {
  byCollection: Record<string, (string | number)[]>;
  strings: string[];
  numbers: number[];
}

export function idPools(...sources: Record<string, (string | number)[]>[]): IdPools {
  const byCollection: Record<string, (string | number)[]> = {};
  for (const source of sources) {
    for (const [k, v] of Object.entries(source)) byCollection[k] = [...(byCollection[k] ?? []), ...v];
  }
  const all = Object.values(byCollection).flat();
  return {
    byCollection,
    strings: [...new Set(all.filter((v): v is string => typeof v === 'string'))],
    numbers: [...new Set(all.filter((v): v is number => typeof v === 'number'))],
  };
}

const NASTY_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '2147483648',
  '99999999999999999999',
  '%00',
  'a%00b',
  '%FF',
  '%C3%28',
  '%ZZ',
  '%2F',
  '..',
  '%2E%2E',
  '%20',
  'null',
  '%F0%9F%98%80',
  '\u00ff\u00fe',
  '2024-02-30',
  'x'.repeat(1001),
];

/** How a body is sent. */
type Encoding = 'json' | 'truncated' | 'invalidUtf8' | 'wrongType' | 'none' | 'oversized' | 'bytes' | 'form';

export interface Credentials {
  /** Headers that authenticate (HR: Authorization). */
  headers: Record<string, string>;
  /** Query parameters that authenticate (Academy: acadId, apikey). */
  query: [string, string][];
  /** Extra header values worth trying (an HR user id for X-Atrium-User-Id). */
  userIds: string[];
}

export interface CaseContext {
  pools: IdPools;
  hr: Credentials;
  academy: Credentials;
  /** The token endpoints' Basic credentials and client id. */
  basic: { authorization: string; clientId: string; token: string };
  bodyLimit: number;
}

const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/octet-stream',
  'image/png',
  '*/*',
  'application/json, text/plain',
];

const INVALID_UTF8 = [
  Buffer.from([0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
];

/** Percent-encoding that never throws (a lone surrogate goes out as U+FFFD's bytes). */
export function pct(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function encodeQuery(pairs: [string, string][], raw: boolean): string {
  if (pairs.length === 0) return '';
  // Raw: only what would break the query's structure is encoded; other bytes go out as they are (latin1).
  const enc = (s: string) =>
    raw
      ? Buffer.from(s, 'utf8')
          .toString('latin1')
          .replace(/[^\x21-\x7e\x80-\xff]|[#&%]/g, (c) => pct(c))
      : pct(s);
  return `?${pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')}`;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(asText).join(',');
  return serialize(value);
}

/** Raw bytes in a header value are refused by Node's client; keep what it can send (printable latin1). */
function headerSafe(value: string): string {
  return value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').slice(0, 8000);
}

function multipart(file: Buffer, filename: string, field = 'file'): { body: Buffer; type: string } {
  const boundary = '----atriumfuzz';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    'latin1',
  );
  return {
    body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** An arbitrary request to this operation: valid-looking parts, then mutated ones. */
export function requestArb(op: Operation, ctx: CaseContext): fc.Arbitrary<RawRequest> {
  const creds = op.api === 'hr' ? ctx.hr : ctx.academy;
  const params = pathParams(op.path);
  const segment = (name: string): fc.Arbitrary<string> => {
    const pool = ctx.pools.byCollection[collectionOf(op.path, name)] ?? [];
    const real = pool.length ? fc.constantFrom(...pool.map(String)) : fc.constant('missing');
    const any = [...ctx.pools.strings, ...ctx.pools.numbers.map(String)];
    return fc.oneof(
      { weight: 6, arbitrary: real.map(pct) },
      { weight: 1, arbitrary: any.length ? fc.constantFrom(...any).map(pct) : real },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY_SEGMENTS) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(pct) },
    );
  };
  const segments = fc.tuple(...params.map(segment));

  const queryParams = op.parameters.filter((p) => p.in === 'query' && !['acadId'].includes(p.name));
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: fromSchema(p.schema, ctx.pools, 0, p.name).map(asText) },
          { weight: 1, arbitrary: nastyValue.map(asText) },
        ),
      ),
    )
    .map((values) => {
      const pairs: [string, string][] = [];
      values.forEach((v, i) => {
        if (v !== undefined) pairs.push([(queryParams[i] as (typeof queryParams)[number]).name, v]);
      });
      return pairs;
    });
  const queryMutation = fc.oneof(
    { weight: 6, arbitrary: fc.constant('none') },
    { weight: 1, arbitrary: fc.constant('repeat') },
    { weight: 1, arbitrary: fc.constant('unknown') },
    { weight: 1, arbitrary: fc.constant('brackets') },
    { weight: 1, arbitrary: fc.constant('junk') },
    { weight: 1, arbitrary: fc.constant('raw') },
  );
  const authArb = fc.constantFrom('valid', 'valid', 'valid', 'valid', 'valid', 'valid', 'none', 'garbage', 'twice');

  const jsonBody = op.body.find((b) => b.contentType === 'application/json');
  const formBody = op.body.find((b) => b.contentType === 'application/x-www-form-urlencoded');
  const fileBody = op.body.find((b) => b.contentType.startsWith('multipart/'));
  const bodySchema = jsonBody?.schema ?? formBody?.schema ?? { type: 'object' };
  const valueArb = fromSchema(bodySchema, ctx.pools);
  const writes = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method);
  const encodingArb = fc.constantFrom<Encoding>(
    ...((writes
      ? formBody
        ? ['form', 'form', 'form', 'json', 'truncated', 'invalidUtf8', 'wrongType', 'none', 'oversized']
        : fileBody
          ? ['bytes', 'bytes', 'bytes', 'json', 'truncated', 'invalidUtf8', 'wrongType', 'none', 'oversized']
          : ['json', 'json', 'json', 'json', 'truncated', 'invalidUtf8', 'wrongType', 'none', 'oversized', 'bytes']
      : ['none', 'none', 'none', 'none', 'json', 'wrongType', 'bytes']) as Encoding[]),
  );

  const headerArb = fc.record(
    {
      'x-atrium-user-id': fc.oneof(
        creds.userIds.length ? fc.constantFrom(...creds.userIds) : fc.constant('nobody'),
        nastyValue.map(asText),
      ),
      'x-synchronization-event-id': nastyValue.map(asText),
      'x-synchronization-application': fc.string({ maxLength: 40 }),
      range: fc.constantFrom(
        'bytes=0-10',
        'bytes=-5',
        'bytes=5-1',
        'bytes=abc',
        'bytes=0-0,2-3',
        'bytes=99999999999999999999-',
        'items=0-1',
      ),
      accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml;q=0.1', ''),
      'x-request-id': fc.string({ maxLength: 200 }),
      'if-none-match': fc.constantFrom('*', '"x"', 'W/"1"'),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', 'x'),
    },
    { requiredKeys: [] },
  );

  return fc
    .record({
      segments,
      query: queryArb,
      queryMutation,
      auth: authArb,
      value: valueArb,
      mutations: mutationsArb,
      encoding: encodingArb,
      cut: fc.nat(),
      extraHeaders: headerArb,
      wrongType: fc.constantFrom(...WRONG_TYPES),
      bytes: fc.uint8Array({ maxLength: 2048 }),
      filename: fc.oneof(
        fc.constantFrom('a.pdf', '../../x.pdf', '', 'a\u0000b.pdf', 'x'.repeat(300), '\u00e9t\u00e9.txt'),
        fc.string({ maxLength: 30 }),
      ),
    })
    .map((c) => {
      let path = op.path;
      params.forEach((name, i) => {
        path = path.replace(`{${name}}`, c.segments[i] as string);
      });
      const labels: string[] = [];
      const query = [...c.query];
      const headers: Record<string, string> = { connection: 'close' };
      // Credentials.
      if (c.auth === 'valid' || c.auth === 'twice') {
        Object.assign(headers, creds.headers);
        query.unshift(...creds.query);
      } else if (c.auth === 'garbage') {
        if (op.api === 'hr') headers.authorization = 'Bearer x.y.z';
        else query.unshift(['acadId', '1'], ['apikey', 'garbage']);
      } else if (op.api === 'academy') {
        query.unshift(...creds.query.filter(([k]) => k === 'acadId'));
      }
      if (c.auth === 'twice') {
        if (op.api === 'hr') query.push(['access_token', 'x']);
        else query.push(['apikey', 'second']);
      }
      if (op.security.includes('basicAuth')) {
        if (c.auth === 'valid') headers.authorization = ctx.basic.authorization;
      }
      labels.push(`auth=${c.auth}`);
      // Query mutations.
      switch (c.queryMutation) {
        case 'repeat':
          if (query.length) query.push(query[query.length - 1] as [string, string]);
          else query.push(['per_page', '5'], ['per_page', '6']);
          break;
        case 'unknown':
          query.push(['unknown_param', 'x']);
          break;
        case 'brackets':
          query.push([`${queryParams[0]?.name ?? 'x'}[]`, '1'], [`${queryParams[0]?.name ?? 'x'}[a]`, 'b']);
          break;
      }
      let qs = encodeQuery(query, c.queryMutation === 'raw');
      if (c.queryMutation === 'junk') qs += `${qs ? '&' : '?'}%ZZ=%FF&&=x&%00=%00&a=%E0%A4`;
      labels.push(`query=${c.queryMutation}`);
      // Headers the operation declares, sometimes, and a few generic ones.
      for (const [name, value] of Object.entries(c.extraHeaders)) {
        const declared = op.parameters.some((p) => p.in === 'header' && p.name === name);
        if (declared || c.cut % 5 === 0) headers[name] = headerSafe(String(value));
      }
      // The body.
      const value = c.mutations.length ? mutate(c.value, c.mutations) : c.value;
      labels.push(`body=${c.encoding}`, `mutations=${c.mutations.map((m) => m.op).join(',') || 'none'}`);
      let body: Buffer | undefined;
      const text = Buffer.from(serialize(value), 'utf8');
      switch (c.encoding) {
        case 'json':
          body = text;
          headers['content-type'] = 'application/json';
          break;
        case 'form': {
          const fields =
            value !== null && typeof value === 'object' && !Array.isArray(value)
              ? Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, asText(v)] as [string, string])
              : [['x', asText(value)] as [string, string]];
          if (op.path.endsWith('/tokens') && c.mutations.length === 0) {
            fields.splice(
              0,
              fields.length,
              ['grant_type', 'client_credentials'],
              ['scope', 'client'],
              ['client_id', ctx.basic.clientId],
            );
          }
          if (op.path.endsWith('/revoke_token') && c.mutations.length === 0)
            fields.splice(0, fields.length, ['token', ctx.basic.token]);
          body = Buffer.from(new URLSearchParams(fields).toString());
          headers['content-type'] = 'application/x-www-form-urlencoded';
          break;
        }
        case 'truncated':
          body = text.subarray(0, c.cut % Math.max(1, text.length));
          headers['content-type'] = formBody ? 'application/x-www-form-urlencoded' : 'application/json';
          break;
        case 'invalidUtf8': {
          const at = c.cut % (text.length + 1);
          body = Buffer.concat([
            text.subarray(0, at),
            INVALID_UTF8[c.cut % INVALID_UTF8.length] as Buffer,
            text.subarray(at),
          ]);
          headers['content-type'] = formBody ? 'application/x-www-form-urlencoded' : 'application/json';
          break;
        }
        case 'wrongType':
          body = c.cut % 2 ? text : Buffer.from(c.bytes);
          headers['content-type'] = c.wrongType;
          break;
        case 'none':
          if (c.cut % 3 === 0) headers['content-type'] = 'application/json';
          break;
        case 'oversized': {
          const size = ctx.bodyLimit + 1 + (c.cut % 4096);
          body = Buffer.from(`{"a":"${'x'.repeat(size)}"}`);
          headers['content-type'] = fileBody
            ? 'application/octet-stream'
            : formBody
              ? 'application/x-www-form-urlencoded'
              : 'application/json';
          break;
        }
        case 'bytes':
          if (fileBody) {
            if (c.cut % 2) {
              const mp = multipart(Buffer.from(c.bytes), c.filename, c.cut % 5 === 0 ? 'other' : 'file');
              body = c.cut % 7 === 0 ? mp.body.subarray(0, c.cut % mp.body.length) : mp.body;
              headers['content-type'] = mp.type;
            } else {
              body = Buffer.from(c.bytes);
              headers['content-type'] = 'application/octet-stream';
              headers['content-disposition'] = headerSafe(`attachment; filename="${c.filename}"`);
            }
          } else {
            body = Buffer.from(c.bytes);
            headers['content-type'] = 'application/json';
          }
          break;
      }
      if (body && (op.method === 'GET' || op.method === 'HEAD') && c.encoding === 'none') body = undefined;
      return { method: op.method, path: `${path}${qs}`, headers, ...(body ? { body } : {}), label: labels.join(' ') };
    });
}

// ---------------------------------------------------------------------------------------------------------
// Checks

/** The error statuses each API documents (docs/hr-api.md, docs/academy-api.md). */
export const DOCUMENTED = {
  hr: new Set([400, 401, 403, 404, 405, 408, 409, 413, 415, 416, 422, 424, 429, 431, 501, 503]),
  academy: new Set([400, 401, 403, 404, 408, 409, 413, 415, 429, 431, 503]),
  // The admin API answers in the HR API's body (docs/admin.md).
  admin: new Set([400, 401, 404, 408, 413, 415, 422, 429, 431, 503]),
};

/** Why the response breaks the API's promises, or undefined when it keeps them. */
export function problem(api: Api, method: string, res: RawResponse): string | undefined {
  // 503: retry later; 501: the one operation the reference marks unavailable (the campaigns' csv), documented so.
  if (res.status >= 500 && res.status !== 503 && res.status !== 501) return `status ${res.status}`;
  if (res.status < 400) return undefined;
  if (!DOCUMENTED[api].has(res.status)) return `undocumented status ${res.status}`;
  if (method === 'HEAD') return undefined;
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return `error with content-type "${type}"`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'error body is not JSON';
  }
  if (typeof body.code !== 'string' || body.code === '') return 'error body without a code';
  if (typeof body.message !== 'string') return 'error body without a message';
  if (api === 'academy' && body.status !== res.status) return `academy error body status ${String(body.status)}`;
  if (api !== 'academy' && 'status' in body) return 'HR error body carries the academy shape';
  if (body.errors !== undefined) {
    if (!Array.isArray(body.errors)) return 'errors is not a list';
    for (const e of body.errors as Record<string, unknown>[]) {
      if (typeof e.field !== 'string' || typeof e.code !== 'string' || typeof e.message !== 'string') {
        return `malformed field error ${JSON.stringify(e)}`;
      }
    }
  }
  return undefined;
}

export function describeCase(req: RawRequest, res?: RawResponse): string {
  const body = req.body ? req.body.subarray(0, 600).toString('latin1') : '(none)';
  const answer = res ? `${res.status} ${res.body.subarray(0, 600).toString('utf8')}` : '(no answer)';
  return `${req.method} ${req.path.slice(0, 600)}\n  case: ${req.label}\n  headers: ${JSON.stringify(req.headers).slice(0, 600)}\n  body (${req.body?.length ?? 0} bytes): ${body}\n  answer: ${answer}`;
}
