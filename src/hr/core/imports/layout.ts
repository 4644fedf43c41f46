import { EmployeeCreate, RegistrationReferenceInput } from '../employees/schemas.js';
import { OrganizationPut } from '../organizations/schemas.js';
import { UserCreate } from '../users/schemas.js';
import type { ImportType } from './schemas.js';

/**
 * The CSV layouts of imports (docs/hr-api.md, "Imports"): one row per object, its columns the single endpoint's
 * fields. A row becomes the item the bulk machinery applies: an employee's `{external_id, data}` (PUT
 * /employees/by_external_id), an organization's `{id, data}` (PUT /organizations/{id}), a manager's user body
 * (created, or updated when a user has its email). An empty cell is a field left out.
 */

/**
 * The columns are the single endpoints' fields, read from their schemas (so a field added there is a column here):
 * every attribute but the nested ones (registrations and custom fields have columns of their own), the key, and the
 * write-only SSO token.
 */
const columnsOf = (fields: Record<string, unknown>, except: readonly string[]) =>
  Object.keys(fields).filter((name) => !except.includes(name));
const EMPLOYEE_FIELDS = columnsOf(EmployeeCreate.properties, [
  'external_id',
  'saml_token',
  'registration_references',
  'custom_fields',
]);
const REGISTRATION_FIELDS = Object.keys(RegistrationReferenceInput.properties);
/** Registration references a row may carry: `organization_id`, then `organization_id_2` … `organization_id_9`. */
const MAX_REGISTRATIONS = 9;
const ORGANIZATION_FIELDS = columnsOf(OrganizationPut.properties, []);
const MANAGER_FIELDS = columnsOf(UserCreate.properties, ['email', 'saml_token', 'profiles']);
const CUSTOM_FIELD = 'custom_field:';

/** The column that names each row's object, per type. */
export const KEY_COLUMN: Record<ImportType, string> = { employee: 'external_id', organization: 'id', manager: 'email' };
/** The report's `JOB_TYPE` and `ENTITY_TYPE`, per type (reference §5.3). */
export const JOB_TYPE: Record<ImportType, string> = { employee: 'sal', organization: 'sir', manager: 'usr' };
export const ENTITY_TYPE: Record<ImportType, string> = {
  employee: 'Employee',
  organization: 'Organization',
  manager: 'Manager',
};

function suffix(n: number): string {
  return n === 1 ? '' : `_${n}`;
}

function known(type: ImportType): Set<string> {
  const names = new Set<string>([KEY_COLUMN[type]]);
  const fields = type === 'employee' ? EMPLOYEE_FIELDS : type === 'organization' ? ORGANIZATION_FIELDS : MANAGER_FIELDS;
  for (const f of fields) names.add(f);
  if (type === 'employee') {
    for (let n = 1; n <= MAX_REGISTRATIONS; n++) for (const f of REGISTRATION_FIELDS) names.add(`${f}${suffix(n)}`);
  }
  return names;
}

function flag(text: string): boolean | string {
  const t = text.toLowerCase();
  if (t === 'true' || t === '1' || t === 'yes') return true;
  if (t === 'false' || t === '0' || t === 'no') return false;
  return text;
}

/** A row that cannot even become an item: its error, as the single endpoint's body would be. */
export interface RowFailure {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

export class ImportLayout {
  private columns: string[] = [];
  private readonly names: Set<string>;
  /** Header columns that are neither a field nor a custom field (employees): ignored, and said so. */
  readonly ignored: string[] = [];
  private customFields = false;

  constructor(readonly type: ImportType) {
    this.names = known(type);
  }

  /** Reads the header; answers why the file cannot be imported, or undefined. */
  header(cells: string[]): string | undefined {
    this.columns = cells.map((c) => c.trim());
    const seen = new Set<string>();
    for (const column of this.columns) {
      if (seen.has(column)) return `Column "${column}" is given twice.`;
      seen.add(column);
      if (this.type === 'employee' && column.startsWith(CUSTOM_FIELD) && column.length > CUSTOM_FIELD.length) {
        this.customFields = true;
      } else if (!this.names.has(column)) {
        this.ignored.push(column);
      }
    }
    if (!seen.has(KEY_COLUMN[this.type])) return `The header has no "${KEY_COLUMN[this.type]}" column.`;
    return undefined;
  }

  /** One row: the item to apply and the key of its object, or the row's failure. */
  row(cells: string[]): { input: unknown; key: string | null; failure?: RowFailure } {
    const cell = new Map<string, string>();
    this.columns.forEach((column, i) => {
      cell.set(column, (cells[i] ?? '').trim());
    });
    const keyColumn = KEY_COLUMN[this.type];
    const key = cell.get(keyColumn) || null;
    if (cells.length !== this.columns.length) {
      return {
        input: cells,
        key,
        failure: {
          code: 'invalid_row',
          message: `Expected ${this.columns.length} cells, as the header, found ${cells.length}.`,
        },
      };
    }
    if (key === null) {
      return {
        input: Object.fromEntries(cell),
        key,
        failure: {
          code: 'validation_error',
          message: 'Validation failed.',
          errors: [{ field: keyColumn, code: 'required', message: 'This field is required.' }],
        },
      };
    }
    const pick = (fields: readonly string[]) => {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        const value = cell.get(f);
        if (value) out[f] = value;
      }
      return out;
    };
    if (this.type === 'organization') return { input: { id: key, data: pick(ORGANIZATION_FIELDS) }, key };
    if (this.type === 'manager') return { input: { email: key, ...pick(MANAGER_FIELDS) }, key };
    const data: Record<string, unknown> = pick(EMPLOYEE_FIELDS);
    const registrations: Record<string, unknown>[] = [];
    for (let n = 1; n <= MAX_REGISTRATIONS; n++) {
      const s = suffix(n);
      const org = cell.get(`organization_id${s}`);
      const number = cell.get(`employee_number${s}`);
      if (!org && !number) continue;
      const reference: Record<string, unknown> = { organization_id: org ?? '', employee_number: number ?? '' };
      const active = cell.get(`active${s}`);
      if (active) reference.active = flag(active);
      const departure = cell.get(`departure_date${s}`);
      if (departure) reference.departure_date = departure;
      registrations.push(reference);
    }
    data.registration_references = registrations;
    if (this.customFields) {
      data.custom_fields = this.columns
        .filter((c) => c.startsWith(CUSTOM_FIELD) && cell.get(c))
        .map((c) => ({ code: c.slice(CUSTOM_FIELD.length), value: cell.get(c) as string }));
    }
    return { input: { external_id: key, data }, key };
  }
}
