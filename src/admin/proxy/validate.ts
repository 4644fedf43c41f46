/**
 * A JSON value checked against a schema of Atrium's OpenAPI document, for the validation proxy (docs/proxy.md,
 * "What is checked"): the shape, not the bounds. Reported: a required member absent (`missing_field`), a member the
 * schema does not name (`extra_field`, also where the schema would let it pass: that is the point), a value of
 * another JSON type (`wrong_type`), and a value outside an `enum` or `const` (`wrong_value`). Lengths, ranges,
 * patterns and formats are not checked.
 */
import type { Schema } from './operations.js';

export type DepartureKind =
  | 'missing_field'
  | 'extra_field'
  | 'wrong_type'
  | 'wrong_value'
  | 'undeclared_status'
  | 'header'
  | 'unserved_operation';

/** One way a call departed from Atrium's schemas of its operation. */
export interface Found {
  kind: DepartureKind;
  /** A JSON pointer whose first step is where (`/body/…`, `/query/…`, `/header/…`, `/status`); `*`: any item. */
  field: string;
  expected: string;
  actual: string;
}

/** How much of a value is kept in a departure. */
const SHOWN = 120;

export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function escapeStep(step: string): string {
  return step.replace(/~/g, '~0').replace(/\//g, '~1');
}

function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (schema.const !== undefined) return [jsonType(schema.const) === 'integer' ? 'number' : jsonType(schema.const)];
  return undefined;
}

function fitsType(type: string, value: unknown): boolean {
  const actual = jsonType(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

/** What a schema expects, in words: `string`, `string | null`, `object`. */
export function expectedOf(schema: Schema, resolve: (s: Schema) => Schema): string {
  const s = resolve(schema);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) return [...new Set(branches.map((b) => expectedOf(b, resolve)))].join(' | ');
  if (s.const !== undefined) return show(s.const);
  return typesOf(s)?.join(' | ') ?? 'any';
}

export class SchemaChecker {
  /**
   * `extras`: `all` reports every member a described object does not name (answers: what the real service sends
   * that Atrium does not); `closed` only those its schema forbids (requests: what Atrium would refuse).
   */
  constructor(
    private readonly resolve: (s: Schema) => Schema,
    private readonly extras: 'all' | 'closed' = 'all',
  ) {}

  /** Every departure of `value` from `schema`, its fields under `at`. */
  check(schema: Schema, value: unknown, at: string): Found[] {
    const out: Found[] = [];
    this.walk(schema, value, at, out);
    return out;
  }

  private walk(raw: Schema, value: unknown, at: string, out: Found[]): void {
    const schema = this.resolve(raw);
    for (const part of (schema.allOf ?? []) as Schema[]) this.walk(part, value, at, out);
    const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (branches) {
      this.branch(schema, branches, value, at, out);
      return;
    }
    const types = typesOf(schema);
    if (types && !types.some((t) => fitsType(t, value))) {
      out.push({ kind: 'wrong_type', field: at, expected: types.join(' | '), actual: jsonType(value) });
      return;
    }
    if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) {
      out.push({ kind: 'wrong_value', field: at, expected: show(schema.const), actual: show(value) });
      return;
    }
    const allowed = schema.enum as unknown[] | undefined;
    if (allowed && !allowed.some((v) => JSON.stringify(v) === JSON.stringify(value))) {
      out.push({ kind: 'wrong_value', field: at, expected: `one of ${show(allowed)}`, actual: show(value) });
      return;
    }
    if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
      for (const item of value) this.walk(schema.items as Schema, item, `${at}/*`, out);
    } else if (jsonType(value) === 'object') {
      this.members(schema, value as Record<string, unknown>, at, out);
    }
  }

  /** anyOf/oneOf: none fits the value's JSON type, a wrong type; else the fitting branch that departs least. */
  private branch(schema: Schema, branches: Schema[], value: unknown, at: string, out: Found[]): void {
    const candidates = branches.filter((b) => {
      const types = typesOf(this.resolve(b));
      return !types || types.some((t) => fitsType(t, value));
    });
    if (candidates.length === 0) {
      out.push({ kind: 'wrong_type', field: at, expected: expectedOf(schema, this.resolve), actual: jsonType(value) });
      return;
    }
    let best: Found[] | undefined;
    for (const candidate of candidates) {
      const found: Found[] = [];
      this.walk(candidate, value, at, found);
      if (!best || found.length < best.length) best = found;
      if (found.length === 0) return;
    }
    out.push(...(best ?? []));
  }

  private members(schema: Schema, value: Record<string, unknown>, at: string, out: Found[]): void {
    const properties = schema.properties as Record<string, Schema> | undefined;
    for (const name of (schema.required ?? []) as string[]) {
      // A request's member with a default is filled in by Atrium's validation (Ajv's useDefaults): not missing.
      const filled =
        this.extras === 'closed' && properties?.[name] && this.resolve(properties[name]).default !== undefined;
      if (!Object.hasOwn(value, name) && !filled) {
        const expected = properties?.[name] ? expectedOf(properties[name], this.resolve) : 'any';
        out.push({ kind: 'missing_field', field: `${at}/${escapeStep(name)}`, expected, actual: 'absent' });
      }
    }
    const extra = schema.additionalProperties;
    for (const [name, member] of Object.entries(value)) {
      const field = `${at}/${escapeStep(name)}`;
      const declared = properties?.[name];
      if (declared) this.walk(declared, member, field, out);
      else if (extra !== null && typeof extra === 'object') this.walk(extra as Schema, member, field, out);
      // A free-form object (no `properties`) takes any member; a described one reports each it does not name.
      else if (properties && (this.extras === 'all' || extra === false))
        out.push({ kind: 'extra_field', field, expected: 'absent', actual: jsonType(member) });
    }
  }
}
