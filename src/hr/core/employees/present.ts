import { formatDateTime } from '../../../platform/time.js';
import type { EmployeeView } from './repository.js';
import type { Employee } from './schemas.js';

export function presentEmployee(v: EmployeeView): Employee {
  const r = v.row;
  return {
    id: r.id,
    external_id: r.external_id,
    firstname: r.firstname,
    lastname: r.lastname,
    email: r.email,
    language: r.language,
    maidenname: r.maidenname,
    middlename: r.middlename,
    country: r.country,
    starting_date: r.starting_date,
    mobile_phone_number: r.mobile_phone_number,
    birth_date: r.birth_date,
    address1: r.address1,
    address2: r.address2,
    address3: r.address3,
    zip_code: r.zip_code,
    city: r.city,
    state: r.state,
    registration_references: v.registrations.map((g) => ({
      organization_id: g.organization_id,
      employee_number: g.employee_number,
      active: g.active === 1,
      departure_date: g.departure_date,
      created_at: formatDateTime(g.created_at),
      updated_at: formatDateTime(g.updated_at),
    })),
    custom_fields: v.customFields,
    status: v.status,
    terminated: v.terminated,
    departure_date: v.departureDate,
    created_at: formatDateTime(r.created_at),
    updated_at: formatDateTime(r.updated_at),
  };
}
