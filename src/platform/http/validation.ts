import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../errors.js';
import { parseDate, parseDateTime } from '../time.js';

// ajv-formats ships CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats?: string[]) => Ajv;

/**
 * Marks an array body whose items are checked one at a time after the request (a bulk call: one bad item fails only
 * itself). The route checks the array (its type and length) and leaves the items to {@link compileBodyCheck} over
 * the same item schema, so one schema still gives the OpenAPI document, the types and the validation.
 */
export const ITEMS_CHECKED_LATER = 'x-items-checked-later';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    useDefaults: true,
    ...options,
  });
  addFormats(ajv, ['email', 'uri', 'uuid']);
  // The spec's date forms, checked against the calendar (2024-02-30 is refused).
  ajv.addFormat('date', { type: 'string', validate: (s: string) => parseDate(s) !== undefined });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => parseDateTime(s) !== undefined });
  ajv.addKeyword({ keyword: 'x-date-or-datetime' });
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: ITEMS_CHECKED_LATER });
  return ajv;
}

/**
 * Bodies are checked as sent: no type coercion, so `"1"` for an integer is an error. Each part has two ajv
 * instances: one that stops at the first error (every request is checked with it) and one that collects every
 * error (run only on input already found invalid, and only when it is small: see {@link FULL_CHECK_MAX_VALUES}).
 */
const bodyAjv = makeAjv({ coerceTypes: false, removeAdditional: false, allErrors: false });
const bodyAjvAll = makeAjv({ coerceTypes: false, removeAdditional: false });
/**
 * The same, but a member that an object schema does not declare is dropped, not refused: the lenient reading of
 * bodies (unknown fields are ignored). Every object schema that lists its `properties` and says nothing of others
 * is closed first ({@link closeObjects}), so the member is dropped at every level, never stored. A union of two
 * object schemas would drop members while trying a branch that then fails; no body schema has one, and a test
 * walks every route's body to keep it so.
 */
const bodyAjvLenient = makeAjv({ coerceTypes: false, removeAdditional: true, allErrors: false });
const bodyAjvLenientAll = makeAjv({ coerceTypes: false, removeAdditional: true });
/** Query strings, path and headers arrive as text: scalars are coerced to the declared type. */
const textAjv = makeAjv({ coerceTypes: true, removeAdditional: false, allErrors: false });
const textAjvAll = makeAjv({ coerceTypes: true, removeAdditional: false });

/** At most this many field errors are listed in an answer; a last entry says how many more there were. */
export const MAX_LISTED_ERRORS = 100;

/**
 * Invalid input holding more values than this (array items and object members, counted through every level) is
 * reported with its first error only: collecting every error of a large input costs time and memory in proportion
 * to it (200,000 wrong items made 200,000 errors), which an attacker could multiply by sending it often.
 */
export const FULL_CHECK_MAX_VALUES = 10_000;

/** The ajv keyword of the last entry of a capped list of errors (its `params.count`: how many were left out). */
export const MORE_ERRORS_KEYWORD = 'x-more-errors';
/** The ajv keyword of a non-finite number (`1e999` parses as Infinity; JSON has no such number). */
export const FINITE_KEYWORD = 'x-finite';

/** The ajv keyword reported for a string holding U+0000 (no schema declares it; the check is built in). */
export const NUL_KEYWORD = 'x-no-nul';

/** Parsed input holds plain records (the query parser's have their own empty prototype); streams and bytes are not walked. */
function isRecord(value: object): boolean {
  return !ArrayBuffer.isView(value) && typeof (value as { pipe?: unknown }).pipe !== 'function';
}

function nulError(pointer: string): ErrorObject {
  return {
    keyword: NUL_KEYWORD,
    instancePath: pointer,
    schemaPath: `#/${NUL_KEYWORD}`,
    params: {},
    message: 'must not contain the NUL character (U+0000)',
  };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function finiteError(pointer: string): ErrorObject {
  return {
    keyword: FINITE_KEYWORD,
    instancePath: pointer,
    schemaPath: `#/${FINITE_KEYWORD}`,
    params: {},
    message: 'must be a finite number',
  };
}

/** What one walk of parsed input found: the values it holds, and the strings and numbers no schema may take. */
export interface InputScan {
  /** Array items and object members, counted through every level. */
  values: number;
  /** Strings and keys holding U+0000 (no database text column takes it), and non-finite numbers. */
  errors: ErrorObject[];
}

/**
 * One walk of parsed input (records, arrays, strings, numbers; streams and bytes are left alone): it counts the
 * values, and reports every string and object key holding U+0000 (PostgreSQL refuses it) and every non-finite
 * number (`1e999` parses as Infinity, which JSON cannot carry back), so bad input is a validation error of the
 * API, never a database failure or an answer that breaks its own schema. At most {@link MAX_LISTED_ERRORS} + 1
 * errors are kept.
 */
export function scanInput(value: unknown, pointer = '', scan: InputScan = { values: 0, errors: [] }): InputScan {
  const report = (error: ErrorObject) => {
    if (scan.errors.length <= MAX_LISTED_ERRORS) scan.errors.push(error);
  };
  if (typeof value === 'string') {
    if (value.includes('\u0000')) report(nulError(pointer));
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) report(finiteError(pointer));
  } else if (Array.isArray(value)) {
    scan.values += value.length;
    for (let i = 0; i < value.length; i++) scanInput(value[i], `${pointer}/${i}`, scan);
  } else if (value !== null && typeof value === 'object' && isRecord(value)) {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      scan.values++;
      const at = `${pointer}/${escapePointer(key)}`;
      if (key.includes('\u0000')) report(nulError(at));
      else scanInput((value as Record<string, unknown>)[key], at, scan);
    }
  }
  return scan;
}

/**
 * Keeps the first {@link MAX_LISTED_ERRORS} errors, and a last entry saying how many were left out (`count`), or
 * that the others were not looked for (`count: null`, input too large to list every error).
 */
function capErrors(errors: ErrorObject[], notLookedFor: boolean): ErrorObject[] {
  const leftOut = Math.max(0, errors.length - MAX_LISTED_ERRORS);
  if (leftOut === 0 && !notLookedFor) return errors;
  return [
    ...errors.slice(0, MAX_LISTED_ERRORS),
    {
      keyword: MORE_ERRORS_KEYWORD,
      instancePath: '',
      schemaPath: `#/${MORE_ERRORS_KEYWORD}`,
      params: { count: notLookedFor ? null : leftOut },
      message: notLookedFor ? 'more errors were not looked for' : `${leftOut} more errors are not listed`,
    },
  ];
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Validators and serializers not compiled yet (they compile on first use). `compilePendingSchemas` compiles them
 * all: the server warms up with it after listening, and a test uses it to prove every route's schemas compile.
 */
const pendingSchemas = new Set<() => unknown>();

export function deferSchemaCompile(compile: () => unknown): void {
  pendingSchemas.add(compile);
}

export function schemaCompiled(compile: () => unknown): void {
  pendingSchemas.delete(compile);
}

/** Compiles every pending validator and serializer, yielding between each; answers how many it compiled. */
export async function compilePendingSchemas(): Promise<number> {
  let count = 0;
  for (const compile of [...pendingSchemas]) {
    compile();
    count++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return count;
}

/** Validators already compiled, by ajv instance and schema text. */
const validatorCache = new Map<string, ReturnType<Ajv['compile']>>();

/**
 * Fastify's validator compiler: one schema per route part, compiled once.
 * Besides the schema, every string of the part is refused when it holds
 * U+0000, so bad input is a validation error of the API, never a database failure.
 */
/** Which numbers a parameter's schema takes, when it takes no text: then its text must be decimal digits. */
function numericKind(schema: unknown): 'integer' | 'number' | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const s = schema as { type?: unknown; items?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  if (s.type === 'integer' || s.type === 'number') return s.type;
  if (s.type === 'array') return numericKind(s.items);
  const branches = s.anyOf ?? s.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const kinds = branches.map((b) => numericKind(b));
  // A branch that is not a number (text, an enum) makes any text acceptable to the schema itself.
  if (kinds.some((k) => k === undefined)) return undefined;
  return kinds.includes('number') ? 'number' : 'integer';
}

/** The top-level parameters of a query, path or header schema that take only numbers, with their kind. */
function numericParameters(schema: unknown): [string, 'integer' | 'number'][] {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, property]) => {
    const kind = numericKind(property);
    return kind ? [[name, kind] as [string, 'integer' | 'number']] : [];
  });
}

const DECIMAL = { integer: /^-?[0-9]+$/, number: /^-?[0-9]+(\.[0-9]+)?$/ };

/**
 * Text that ajv's coercion would take as a number but the API does not: `0x10`, `1e1`, `+5`, ` 5`, an empty
 * value. A number in a query string, path or header is written in decimal digits (a decimal point for a
 * non-integer), nothing else.
 */
function notDecimal(data: unknown, parameters: [string, 'integer' | 'number'][]): ErrorObject[] {
  if (parameters.length === 0 || data === null || typeof data !== 'object') return [];
  const errors: ErrorObject[] = [];
  for (const [name, kind] of parameters) {
    if (!Object.hasOwn(data, name)) continue;
    const value = (data as Record<string, unknown>)[name];
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some((v) => typeof v === 'string' && !DECIMAL[kind].test(v))) {
      errors.push({
        keyword: 'type',
        instancePath: `/${escapePointer(name)}`,
        schemaPath: `#/properties/${escapePointer(name)}/type`,
        params: { type: kind },
        message: `must be ${kind === 'integer' ? 'an integer' : 'a number'} in decimal digits`,
      });
    }
  }
  return errors;
}

/**
 * What a body member that its object does not declare gets: `drop` (ignored at every level: the HR API's routes)
 * or `refuse` (a closed object answers `422 unknown_field`, an open one passes the member on: the academy API,
 * whose services check some members themselves, and its directory import).
 */
export type UnknownBodyFields = 'refuse' | 'drop';

/** Fastify's validator compiler, with unknown body members refused: see {@link validatorCompilerFor}. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => compileValidator(route, 'refuse');

/** Fastify's validator compiler, with unknown body members refused or dropped. */
export function validatorCompilerFor(unknownBodyFields: UnknownBodyFields): FastifySchemaCompiler<unknown> {
  return (route) => compileValidator(route, unknownBodyFields);
}

/**
 * A copy of a JSON schema where every object schema with `properties` and no `additionalProperties` has
 * `additionalProperties: false`: what lets ajv's `removeAdditional: true` drop unknown members at every level.
 * Schemas that say what other members may hold (a map: `additionalProperties: {}`) are left as they are.
 */
export function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      // A map from names to schemas: each value is a schema, the map itself is not.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, closeObjects(sub)]));
    } else {
      // Values of data keywords (`default`, `enum`, …) are copied as they are.
      out[key] = DATA_KEYWORDS.has(key) ? value : closeObjects(value);
    }
  }
  if (out.properties !== undefined && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const DATA_KEYWORDS = new Set(['default', 'enum', 'const', 'examples', 'example', 'required']);

function itemsCheckedLater(schema: unknown): boolean {
  return (
    schema !== null && typeof schema === 'object' && (schema as Record<string, unknown>)[ITEMS_CHECKED_LATER] === true
  );
}

/**
 * A check of one value against a body schema, outside any route (a bulk call's items, checked when they run): the
 * same validator a route's body gets, so its errors are the ones the single-item endpoint answers. It answers the
 * value as checked (unknown members dropped, defaults applied, when `unknownBodyFields` is `drop`), or the errors.
 */
export function compileBodyCheck(
  schema: object,
  unknownBodyFields: UnknownBodyFields,
): (value: unknown) => { ok: true } | { ok: false; errors: ErrorObject[] } {
  const validate = compileValidator(
    { schema, httpPart: 'body', method: 'POST', url: '' } as Parameters<FastifySchemaCompiler<unknown>>[0],
    unknownBodyFields,
  ) as unknown as Validate;
  return (value) => (validate(value) ? { ok: true } : { ok: false, errors: validate.errors ?? [] });
}

function compileValidator(
  { schema, httpPart }: Parameters<FastifySchemaCompiler<unknown>>[0],
  unknownBodyFields: UnknownBodyFields,
): ReturnType<FastifySchemaCompiler<unknown>> {
  const body = httpPart === 'body';
  const lenient = body && unknownBodyFields === 'drop';
  const ajv = lenient ? bodyAjvLenient : body ? bodyAjv : textAjv;
  // Compiled on first use: a server with ~200 routes starts in a fraction of a second, and a route nobody
  // calls costs nothing. `compilePendingSchemas` compiles the rest (the CLI's serve warms up with it; a test
  // proves every route's schemas compile). Identical schemas of one part share one compiled validator.
  const checked = body && itemsCheckedLater(schema) ? { ...(schema as object), items: {} } : schema;
  const key = `${lenient ? 'lenient' : body ? 'body' : 'text'}\n${JSON.stringify(checked)}`;
  const target = () => (lenient ? closeObjects(checked) : checked) as object;
  let compiled: ReturnType<Ajv['compile']> | undefined = validatorCache.get(key);
  const compile = () => {
    if (!compiled) {
      compiled = validatorCache.get(key) ?? ajv.compile(target());
      validatorCache.set(key, compiled);
    }
    schemaCompiled(compile);
    return compiled;
  };
  deferSchemaCompile(compile);
  // The validator that lists every error is compiled only when an input first fails.
  let everyError: ReturnType<Ajv['compile']> | undefined;
  const compileEveryError = () => {
    const allKey = `all:${key}`;
    everyError ??=
      validatorCache.get(allKey) ?? (lenient ? bodyAjvLenientAll : body ? bodyAjvAll : textAjvAll).compile(target());
    validatorCache.set(allKey, everyError);
    return everyError;
  };
  const numeric = body ? [] : numericParameters(schema);
  const validate: Validate = (data) => {
    // Before ajv, which coerces text to the declared types in place.
    const undecimal = notDecimal(data, numeric);
    const check = compiled ?? compile();
    const valid = (check(data) as boolean) && undecimal.length === 0;
    const scan = scanInput(data);
    if (valid && scan.errors.length === 0) {
      validate.errors = null;
      return true;
    }
    let errors = [...undecimal, ...(check.errors ?? [])];
    // Too large to list every error at a bounded cost: its first error, and a note that others were not sought.
    const large = !valid && scan.values > FULL_CHECK_MAX_VALUES;
    if (!valid && !large) {
      const all = compileEveryError();
      all(data);
      errors = [...undecimal, ...(all.errors ?? [])];
    }
    validate.errors = capErrors(scan.errors.length > 0 ? [...errors, ...scan.errors] : errors, large);
    return false;
  };
  return validate as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
}

/**
 * Fastify's message of a validation error: from the first error only (its default joins every error's text, and
 * the message is built before any error handler sees it).
 */
export function schemaErrorFormatter(errors: ErrorObject[], dataVar: string): Error {
  const first = errors[0];
  return new Error(
    first ? `${dataVar}${first.instancePath} ${first.message ?? 'is invalid'}` : `${dataVar} is invalid`,
  );
}

const CODES: Record<string, string> = {
  required: 'required',
  type: 'invalid_type',
  maxLength: 'too_long',
  minLength: 'too_short',
  maxItems: 'too_many',
  minItems: 'too_few',
  maximum: 'too_large',
  exclusiveMaximum: 'too_large',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  enum: 'invalid_choice',
  const: 'invalid_choice',
  pattern: 'invalid_format',
  format: 'invalid_format',
  additionalProperties: 'unknown_field',
  uniqueItems: 'duplicate_items',
};

/** `/form_data/0/values` → `form_data.0.values` (JSON Pointer escapes undone). */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

function describe(e: ErrorObject): { code: string; message: string } {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { code: 'required', message: 'This field is required.' };
    case 'additionalProperties':
      return { code: 'unknown_field', message: 'This field is not accepted here.' };
    case 'format':
      if (params.format === 'date') return { code: 'invalid_date', message: 'Expected a date, YYYY-MM-DD.' };
      if (params.format === 'date-time') {
        return { code: 'invalid_datetime', message: 'Expected a datetime, YYYY-MM-DDThh:mi:ss±hh:mi.' };
      }
      return { code: 'invalid_format', message: `Expected the ${String(params.format)} format.` };
    case NUL_KEYWORD:
      return { code: 'invalid_format', message: 'Must not contain the NUL character (U+0000).' };
    case FINITE_KEYWORD:
      return { code: 'invalid_type', message: 'Must be a finite number.' };
    case MORE_ERRORS_KEYWORD:
      return typeof params.count === 'number'
        ? { code: 'more_errors', message: `${params.count} more errors are not listed.` }
        : {
            code: 'more_errors',
            message: `The input holds more than ${FULL_CHECK_MAX_VALUES} values: only its first error is listed.`,
          };
    case 'maxLength':
      return { code: 'too_long', message: `At most ${String(params.limit)} characters.` };
    case 'minLength':
      return { code: 'too_short', message: `At least ${String(params.limit)} characters.` };
    case 'enum':
      return {
        code: 'invalid_choice',
        message: `Expected one of: ${((params.allowedValues as unknown[]) ?? []).map(String).join(', ')}.`,
      };
    default:
      return {
        code: CODES[e.keyword] ?? 'invalid',
        message: `${(e.message ?? 'is invalid').replace(/^must/, 'Must')}.`,
      };
  }
}

/**
 * Turns ajv's errors into one field error per field: the path uses dots and
 * zero-based indices, as the HR spec describes. Errors of `anyOf` branches
 * collapse into the one error of their field.
 */
export function fieldErrorsFromAjv(errors: ErrorObject[]): FieldError[] {
  const out = new Map<string, FieldError>();
  let more: FieldError | undefined;
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    if (e.keyword === MORE_ERRORS_KEYWORD) {
      more = { field: '', ...describe(e) };
      continue;
    }
    const params = e.params as Record<string, unknown>;
    let field = pointerToPath(e.instancePath);
    if (e.keyword === 'required') field = join(field, String(params.missingProperty));
    if (e.keyword === 'additionalProperties') field = join(field, String(params.additionalProperty));
    if (!out.has(field)) out.set(field, { field, ...describe(e) });
  }
  const fields = [...out.values()];
  return more ? [...fields.slice(0, MAX_LISTED_ERRORS), more] : fields.slice(0, MAX_LISTED_ERRORS);
}
