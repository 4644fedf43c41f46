import { formatDateTime } from '../../../platform/time.js';
import type { EmployeeView } from './repository.js';
import type { Employee } from './schemas.js';

export function presentEmployee(v: EmployeeView): Employee {
  const r = v.row;
  return {
    id: r.id,
    external_id: r.externalId,
    firstname: r.firstname,
    lastname: r.lastname,
    email: r.email,
    language: r.language,
    maidenname: r.maidenname,
    middlename: r.middlename,
    country: r.country,
    starting_date: r.startingDate,
    mobile_phone_number: r.mobilePhoneNumber,
    birth_date: r.birthDate,
    address1: r.address1,
    address2: r.address2,
    address3: r.address3,
    zip_code: r.zipCode,
    city: r.city,
    state: r.state,
    registration_references: v.registrations.map((g) => ({
      organization_id: g.organizationId,
      employee_number: g.employeeNumber,
      active: g.active,
      departure_date: g.departureDate,
      created_at: formatDateTime(g.createdAt),
      updated_at: formatDateTime(g.updatedAt),
    })),
    custom_fields: v.customFields,
    status: v.status,
    terminated: v.terminated,
    departure_date: v.departureDate,
    created_at: formatDateTime(r.createdAt),
    updated_at: formatDateTime(r.updatedAt),
  };
}
