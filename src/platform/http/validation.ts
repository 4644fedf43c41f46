import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../errors.js';
import { parseDate, parseDateTime } from '../time.js';

// ajv-formats ships CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats?: string[]) => Ajv;

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
  return ajv;
}

/** Bodies are checked as sent: no type coercion, so `"1"` for an integer is an error. */
const bodyAjv = makeAjv({ coerceTypes: false, removeAdditional: false });
/** Query strings, path and headers arrive as text: scalars are coerced to the declared type. */
const textAjv = makeAjv({ coerceTypes: true, removeAdditional: false });

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

/**
 * One walk of parsed input (records, arrays, strings; streams and bytes
 * are left alone): every string, and every object key, holding
 * U+0000, which no database text column takes (PostgreSQL refuses it).
 */
export function findNulStrings(value: unknown, pointer = '', out: ErrorObject[] = []): ErrorObject[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push(nulError(pointer));
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) findNulStrings(value[i], `${pointer}/${i}`, out);
  } else if (value !== null && typeof value === 'object' && isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const at = `${pointer}/${escapePointer(key)}`;
      if (key.includes('\u0000')) out.push(nulError(at));
      else findNulStrings(item, at, out);
    }
  }
  return out;
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
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  // Compiled on first use: a server with ~200 routes starts in a fraction of a second, and a route nobody
  // calls costs nothing. `compilePendingSchemas` compiles the rest (the CLI's serve warms up with it; a test
  // proves every route's schemas compile). Identical schemas of one part share one compiled validator.
  const key = `${ajv === bodyAjv ? 'body' : 'text'}\n${JSON.stringify(schema)}`;
  let compiled: ReturnType<Ajv['compile']> | undefined = validatorCache.get(key);
  const compile = () => {
    if (!compiled) {
      compiled = validatorCache.get(key) ?? ajv.compile(schema as object);
      validatorCache.set(key, compiled);
    }
    schemaCompiled(compile);
    return compiled;
  };
  deferSchemaCompile(compile);
  const validate: Validate = (data) => {
    const check = compiled ?? compile();
    const valid = check(data) as boolean;
    const nul = findNulStrings(data);
    if (nul.length === 0) {
      validate.errors = check.errors ?? null;
      return valid;
    }
    validate.errors = [...(check.errors ?? []), ...nul];
    return false;
  };
  return validate as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
};

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
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const params = e.params as Record<string, unknown>;
    let field = pointerToPath(e.instancePath);
    if (e.keyword === 'required') field = join(field, String(params.missingProperty));
    if (e.keyword === 'additionalProperties') field = join(field, String(params.additionalProperty));
    if (!out.has(field)) out.set(field, { field, ...describe(e) });
  }
  return [...out.values()];
}
