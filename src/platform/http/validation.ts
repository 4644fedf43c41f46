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

/** Fastify's validator compiler: one schema per route part, compiled once. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
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
