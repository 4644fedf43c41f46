import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

export interface HrEmployeesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  external_id: string | null;
  firstname: string;
  lastname: string;
  email: string | null;
  language: string | null;
  maidenname: string | null;
  middlename: string | null;
  country: string | null;
  starting_date: string | null;
  mobile_phone_number: string | null;
  birth_date: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  zip_code: string | null;
  city: string | null;
  state: string | null;
  /** SHA-256 of the write-only saml_token. */
  saml_token_hash: string | null;
  synchronized_at: number | null;
  synchronization_application: string | null;
  created_at: number;
  updated_at: number;
}
export interface HrEmployeeRegistrationsTable {
  client_id: string;
  employee_id: string;
  organization_id: string;
  employee_number: string;
  active: number;
  departure_date: string | null;
  position: number;
  created_at: number;
  updated_at: number;
}
export interface HrEmployeeCustomValuesTable {
  client_id: string;
  employee_id: string;
  custom_field_id: string;
  value: string;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    hr_employees: HrEmployeesTable;
    hr_employee_registrations: HrEmployeeRegistrationsTable;
    hr_employee_custom_values: HrEmployeeCustomValuesTable;
  }
}
