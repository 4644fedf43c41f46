/**
 * The rules of an employee write (reference §3a): the profile fields, the email/address rules, the uniqueness of
 * external ids and employee numbers, registration references and custom field values.
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { FieldError } from '../../../platform/errors.js';
import { FieldValidationError } from '../../../platform/errors.js';
import { hashSecret } from '../../../platform/security/secrets.js';
import type { Clock } from '../../../platform/time.js';
import type { CustomFieldDef } from '../custom-fields/service.js';
import { checkValue } from '../custom-fields/service.js';
import type { EmployeeAttributes, EmployeeRecord, EmployeesRepository, RegistrationRecord } from './repository.js';
import type { EmployeePatch } from './schemas.js';
import { today } from './views.js';

/** The profile fields: each one's name on the wire (a body's), and in the domain. */
const PROFILE_FIELDS = [
  ['external_id', 'externalId'],
  ['firstname', 'firstname'],
  ['lastname', 'lastname'],
  ['email', 'email'],
  ['language', 'language'],
  ['maidenname', 'maidenname'],
  ['middlename', 'middlename'],
  ['country', 'country'],
  ['starting_date', 'startingDate'],
  ['mobile_phone_number', 'mobilePhoneNumber'],
  ['birth_date', 'birthDate'],
  ['address1', 'address1'],
  ['address2', 'address2'],
  ['address3', 'address3'],
  ['zip_code', 'zipCode'],
  ['city', 'city'],
  ['state', 'state'],
] as const;

/** The address fields an employee without an email must have: each one's name on the wire, and in the domain. */
const ADDRESS_FIELDS = [
  ['address1', 'address1'],
  ['zip_code', 'zipCode'],
  ['city', 'city'],
  ['country', 'country'],
] as const;

type Input = EmployeePatch;
type CustomValues = { values: Map<string, string>; replaceAll: boolean };

/** What an employee write changes: its row, and its registrations and custom values when they are rewritten. */
export interface PreparedEmployee {
  changes: Partial<EmployeeAttributes>;
  registrations?: RegistrationRecord[];
  customValues?: CustomValues;
}

/**
 * Checks a full or partial employee against the rules of reference §3a and
 * returns the row changes, registrations and custom values to write.
 */
export async function prepareEmployee(
  clock: Clock,
  repo: EmployeesRepository,
  clientId: HrTenantId,
  input: Input,
  mode: 'create' | 'replace' | 'patch',
  defs: Map<string, CustomFieldDef>,
  existing?: EmployeeRecord,
): Promise<PreparedEmployee> {
  const errors: FieldError[] = [];
  const at = clock.now();
  const changes = profileChanges(input, mode, existing, errors);
  if (changes.merged.externalId) {
    const other = await repo.findByExternalId(clientId, changes.merged.externalId);
    if (other && other.id !== existing?.id) {
      errors.push({
        field: 'external_id',
        code: 'already_exists',
        message: 'Another employee has this external_id.',
      });
    }
  }

  let registrations: RegistrationRecord[] | undefined;
  if (input.registration_references !== undefined) {
    registrations = await registrationsOf(clock, repo, clientId, input.registration_references, at, existing, errors);
  } else if (mode !== 'patch') {
    errors.push({ field: 'registration_references', code: 'required', message: 'This field is required.' });
  }

  let customValues: CustomValues | undefined;
  if (input.custom_fields !== undefined || mode === 'create') {
    customValues = customValuesOf(input, mode, defs, errors);
  }
  if (errors.length) throw new FieldValidationError(errors);
  changes.row.updatedAt = at;
  return {
    changes: changes.row,
    ...(registrations ? { registrations } : {}),
    ...(customValues ? { customValues } : {}),
  };
}

/** The profile fields' changes and the merged employee, with the email/address rules that span fields checked. */
function profileChanges(
  input: Input,
  mode: 'create' | 'replace' | 'patch',
  existing: EmployeeRecord | undefined,
  errors: FieldError[],
): { row: Partial<EmployeeAttributes>; merged: Partial<EmployeeRecord> } {
  const changes: Partial<EmployeeAttributes> = {};
  for (const [wire, key] of PROFILE_FIELDS) {
    const value = input[wire];
    if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
    else if (mode !== 'patch' && key !== 'externalId') (changes as Record<string, unknown>)[key] = null;
  }
  if (input.saml_token !== undefined) {
    changes.samlTokenHash = input.saml_token ? hashSecret(input.saml_token) : null;
  } else if (mode === 'create') {
    changes.samlTokenHash = null;
  }
  // The merged employee, for the rules that span fields.
  const merged: Partial<EmployeeRecord> = { ...(existing ?? {}), ...changes };
  if (merged.email) {
    if (!/^[\x20-\x7e]+$/.test(merged.email)) {
      errors.push({ field: 'email', code: 'invalid_format', message: 'The email must be ASCII only.' });
    } else if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(merged.email)) {
      errors.push({ field: 'email', code: 'invalid_format', message: 'Expected an email address.' });
    }
  } else {
    const missing = ADDRESS_FIELDS.filter(([, key]) => !merged[key]);
    for (const [field] of missing) {
      errors.push({ field, code: 'required', message: 'Required when the employee has no email.' });
    }
    if (missing.length || !merged.samlTokenHash) {
      errors.push({
        field: 'email',
        code: 'required',
        message: 'An email is required unless the address is complete and a saml_token is given.',
      });
    }
  }
  return { row: changes, merged };
}

/** The registration references to write, each checked (organization, one per organization, number not taken). */
async function registrationsOf(
  clock: Clock,
  repo: EmployeesRepository,
  clientId: HrTenantId,
  refs: NonNullable<Input['registration_references']>,
  at: number,
  existing: EmployeeRecord | undefined,
  errors: FieldError[],
): Promise<RegistrationRecord[]> {
  const orgs = await repo.existingOrganizations(
    clientId,
    refs.map((r) => r.organization_id),
  );
  const taken = await repo.takenNumbers(
    clientId,
    refs.map((r) => ({ organizationId: r.organization_id, employeeNumber: r.employee_number })),
    existing?.id,
  );
  const seen = new Set<string>();
  const before = new Map(
    (existing ? ((await repo.registrations(clientId, [existing.id])).get(existing.id) ?? []) : []).map((r) => [
      r.organizationId,
      r,
    ]),
  );
  return refs.map((r, i) => {
    const path = `registration_references.${i}`;
    if (!orgs.has(r.organization_id)) {
      errors.push({
        field: `${path}.organization_id`,
        code: 'not_found',
        message: 'No organization has this code.',
      });
    }
    if (seen.has(r.organization_id)) {
      errors.push({
        field: `${path}.organization_id`,
        code: 'duplicate',
        message: 'One registration reference per organization.',
      });
    }
    seen.add(r.organization_id);
    if (taken.has(`${r.organization_id}\n${r.employee_number}`)) {
      errors.push({
        field: `${path}.employee_number`,
        code: 'already_exists',
        message: 'Another employee has this number in this organization.',
      });
    }
    const active = r.active ?? true;
    const prior = before.get(r.organization_id);
    return {
      organizationId: r.organization_id,
      employeeNumber: r.employee_number,
      active,
      departureDate: active ? (r.departure_date ?? null) : (r.departure_date ?? prior?.departureDate ?? today(clock)),
      position: i,
      createdAt: prior?.createdAt ?? at,
      updatedAt: at,
    };
  });
}

/** The custom values to write, each checked against its field; create and PUT fill the defaults. */
function customValuesOf(
  input: Input,
  mode: 'create' | 'replace' | 'patch',
  defs: Map<string, CustomFieldDef>,
  errors: FieldError[],
): CustomValues {
  const values = new Map<string, string>();
  (input.custom_fields ?? []).forEach((cf, i) => {
    const def: CustomFieldDef | undefined = defs.get(cf.code);
    if (!def) {
      errors.push({ field: `custom_fields.${i}.code`, code: 'not_found', message: 'No custom field has this id.' });
      return;
    }
    if (values.has(cf.code))
      errors.push({ field: `custom_fields.${i}.code`, code: 'duplicate', message: 'Given twice.' });
    const problem = checkValue(def, cf.value);
    if (problem) errors.push({ field: `custom_fields.${i}.value`, code: 'invalid_choice', message: problem });
    values.set(cf.code, cf.value);
  });
  // Create, and PUT with the key: missing fields take their default value.
  if (mode !== 'patch') {
    for (const [code, def] of defs) {
      if (!values.has(code) && def.row.defaultValue !== null) values.set(code, def.row.defaultValue);
    }
  }
  return { values, replaceAll: mode !== 'patch' };
}
