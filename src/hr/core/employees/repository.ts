import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import { type Db, dialectOf } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import { jsonRowsText } from '../../../platform/db/json-sql.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { prepared } from '../../../platform/db/prepared.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { Tenant } from '../../../platform/db/tenant.js';
import { organizationSubtree } from '../organizations/repository.js';
import type { CustomFieldFilter, EmployeesPerimeter } from '../perimeters/rules.js';
import type { SortField } from './schemas.js';
import type { HrEmployeeRegistrationsTable, HrEmployeesTable } from './tables.js';

/** What an employee's writes set (its id and creation instant are the row's own). */
export interface EmployeeAttributes {
  externalId: string | null;
  firstname: string;
  lastname: string;
  email: string | null;
  language: string | null;
  maidenname: string | null;
  middlename: string | null;
  country: string | null;
  startingDate: string | null;
  mobilePhoneNumber: string | null;
  birthDate: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  zipCode: string | null;
  city: string | null;
  state: string | null;
  /** SHA-256 of the write-only saml_token. */
  samlTokenHash: string | null;
  synchronizedAt: number | null;
  synchronizationApplication: string | null;
  updatedAt: number;
}

/** An employee as the domain sees it. */
export interface EmployeeRecord extends EmployeeAttributes {
  pk: number;
  id: string;
  createdAt: number;
}

/** One registration reference of an employee (a number in an organization). */
export interface RegistrationRecord {
  organizationId: string;
  employeeNumber: string;
  active: boolean;
  departureDate: string | null;
  position: number;
  createdAt: number;
  updatedAt: number;
}

function toRecord(row: Selectable<HrEmployeesTable>): EmployeeRecord {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    pk: Number(row.pk),
    id: row.id,
    externalId: row.external_id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    language: row.language,
    maidenname: row.maidenname,
    middlename: row.middlename,
    country: row.country,
    startingDate: row.starting_date,
    mobilePhoneNumber: row.mobile_phone_number,
    birthDate: row.birth_date,
    address1: row.address1,
    address2: row.address2,
    address3: row.address3,
    zipCode: row.zip_code,
    city: row.city,
    state: row.state,
    samlTokenHash: row.saml_token_hash,
    synchronizedAt: n(row.synchronized_at),
    synchronizationApplication: row.synchronization_application,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The columns of the attributes given (a PATCH changes some). */
function toColumns(a: Partial<EmployeeAttributes>): Partial<Omit<HrEmployeesTable, 'pk'>> {
  const c: Partial<Omit<HrEmployeesTable, 'pk'>> = {};
  if (a.externalId !== undefined) c.external_id = a.externalId;
  if (a.firstname !== undefined) c.firstname = a.firstname;
  if (a.lastname !== undefined) c.lastname = a.lastname;
  if (a.email !== undefined) c.email = a.email;
  if (a.language !== undefined) c.language = a.language;
  if (a.maidenname !== undefined) c.maidenname = a.maidenname;
  if (a.middlename !== undefined) c.middlename = a.middlename;
  if (a.country !== undefined) c.country = a.country;
  if (a.startingDate !== undefined) c.starting_date = a.startingDate;
  if (a.mobilePhoneNumber !== undefined) c.mobile_phone_number = a.mobilePhoneNumber;
  if (a.birthDate !== undefined) c.birth_date = a.birthDate;
  if (a.address1 !== undefined) c.address1 = a.address1;
  if (a.address2 !== undefined) c.address2 = a.address2;
  if (a.address3 !== undefined) c.address3 = a.address3;
  if (a.zipCode !== undefined) c.zip_code = a.zipCode;
  if (a.city !== undefined) c.city = a.city;
  if (a.state !== undefined) c.state = a.state;
  if (a.samlTokenHash !== undefined) c.saml_token_hash = a.samlTokenHash;
  if (a.synchronizedAt !== undefined) c.synchronized_at = a.synchronizedAt;
  if (a.synchronizationApplication !== undefined) c.synchronization_application = a.synchronizationApplication;
  if (a.updatedAt !== undefined) c.updated_at = a.updatedAt;
  return c;
}

function toRegistrationRecord(row: Selectable<HrEmployeeRegistrationsTable>): RegistrationRecord {
  return {
    organizationId: row.organization_id,
    employeeNumber: row.employee_number,
    active: Number(row.active) === 1,
    departureDate: row.departure_date,
    position: Number(row.position),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** An employee with everything its response needs (the service composes it from the records above). */
export interface EmployeeView {
  row: EmployeeRecord;
  registrations: RegistrationRecord[];
  customFields: { code: string; value: string; label: string }[];
  status: 'pre_hired' | 'active' | 'terminated';
  terminated: boolean;
  departureDate: string | null;
}

/** Filters as the repository applies them (already parsed and checked by the service). */
export interface EmployeeQuery {
  q?: string;
  firstname?: string;
  lastname?: string;
  email?: string;
  externalId?: string;
  employeeNumbers?: string[];
  terminated?: boolean;
  createdSince?: number;
  createdUntil?: number;
  notSynchronizedSince?: number;
  notSynchronizedWith?: string;
  organizationIds?: string[];
  organizationBelow?: string;
  organizationGroupId?: string;
  customFields?: { id: string; operator: '=' | '!=' | '<=' | '>='; value: string }[];
  hasEmail?: boolean;
  /** `profile_ids`: employees inside any of these perimeters (an empty list matches no one). */
  perimeters?: EmployeesPerimeter[];
}

/** The tables a filter of the employee list sees: the employees as `e`. */
type EmployeeScope = Tables & { e: HrEmployeesTable };

function textKey(column: string): ReturnType<typeof sql> {
  return sql`lower(coalesce(${sql.ref(column)}, ''))`;
}

/** What each sort orders by (text case-folded, a missing value first), then the internal key. */
const ORDER: ListOrder<SortField> = {
  fields: {
    created_at: 'e.created_at',
    birth_date: { column: 'birth_date', expression: sql`coalesce(${sql.ref('e.birth_date')}, '')` },
    firstname_lastname: [
      { column: 'firstname', expression: textKey('e.firstname') },
      { column: 'lastname', expression: textKey('e.lastname') },
    ],
    lastname_firstname: [
      { column: 'lastname', expression: textKey('e.lastname') },
      { column: 'firstname', expression: textKey('e.firstname') },
    ],
    email: { column: 'email', expression: textKey('e.email') },
    external_id: { column: 'external_id', expression: textKey('e.external_id') },
    firstname: { column: 'firstname', expression: textKey('e.firstname') },
    lastname: { column: 'lastname', expression: textKey('e.lastname') },
  },
  tiebreak: 'e.pk',
};

// The reads of every employee view, prepared once (src/platform/db/prepared.ts).
const findById = prepared((db: Db, p: { clientId: HrTenantId; id: string }) =>
  new Tenant<Tables>(db, p.clientId).selectFrom('hr_employees').selectAll().where('id', '=', p.id),
);
const registrationsOf = prepared((db: Db, p: { clientId: HrTenantId; ids: string[] }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('hr_employee_registrations')
    .selectAll()
    .where('employee_id', 'in', p.ids)
    .orderBy('employee_id')
    .orderBy('position'),
);
const customValuesOf = prepared((db: Db, p: { clientId: HrTenantId; ids: string[] }) =>
  new Tenant<Tables>(db, p.clientId)
    .selectFrom('hr_employee_custom_values')
    .selectAll()
    .where('employee_id', 'in', p.ids)
    .orderBy('custom_field_id'),
);

/**
 * An employee with its registrations and labelled custom values, in one statement (the GET's path: on PostgreSQL
 * each statement is a round trip, 35–50 µs of the server's CPU). The two are JSON arrays of arrays, in the orders
 * `registrationsOf` and `customValuesOf` read them. A value's label is the service's rule (`labelled`) written in
 * SQL: its field's authorized value's label, else the field's label, else the field's id.
 * `test/hr/employee-get.test.ts` compares the two.
 */
const findWithDetails = prepared((db: Db, p: { clientId: HrTenantId; id: string }) => {
  const dialect = dialectOf(db);
  const refs = (...columns: string[]) => columns.map((c) => sql.ref(c));
  // tenant-by-hand: the registrations are tied to the row `e`, read through `Tenant`, by `client_id = e.client_id`.
  const registrations = jsonRowsText(
    dialect,
    refs(
      'g.organization_id',
      'g.employee_number',
      'g.active',
      'g.departure_date',
      'g.position',
      'g.created_at',
      'g.updated_at',
    ),
    sql`from hr_employee_registrations g where g.client_id = e.client_id and g.employee_id = e.id`,
    sql`g.position`,
  );
  // tenant-by-hand: the field of each value is tied to the value's row `v` (below, tied to `e`) by its client.
  const authorized =
    dialect === 'sqlite'
      ? sql`(select json_extract(a.value, '$.label') from hr_custom_fields f, json_each(f.authorized_values) a
          where f.client_id = v.client_id and f.id = v.custom_field_id and json_extract(a.value, '$.value') = v.value
          limit 1)`
      : sql`(select a->>'label' from hr_custom_fields f, json_array_elements(f.authorized_values::json) a
          where f.client_id = v.client_id and f.id = v.custom_field_id and a->>'value' = v.value limit 1)`;
  // tenant-by-hand: as above.
  const label = sql`coalesce(${authorized}, (select f.label from hr_custom_fields f
    where f.client_id = v.client_id and f.id = v.custom_field_id), v.custom_field_id)`;
  // tenant-by-hand: the custom values are tied to the row `e`, read through `Tenant`, by its client.
  const values = jsonRowsText(
    dialect,
    [...refs('v.custom_field_id', 'v.value'), label],
    sql`from hr_employee_custom_values v where v.client_id = e.client_id and v.employee_id = e.id`,
    sql`v.custom_field_id`,
  );
  return new Tenant<Tables>(db, p.clientId)
    .selectFrom('hr_employees as e')
    .selectAll('e')
    .select([registrations.as('registrations_json'), values.as('custom_values_json')])
    .where('e.id', '=', p.id);
});

/** An employee read whole, with its registrations and its custom values labelled (by custom field id). */
export interface EmployeeWithDetails {
  row: EmployeeRecord;
  registrations: RegistrationRecord[];
  customFields: EmployeeView['customFields'];
}

export class EmployeesRepository extends HrRepository {
  async find(clientId: HrTenantId, id: string): Promise<EmployeeRecord | undefined> {
    const row = await findById.first(this.db, { clientId, id });
    return row ? toRecord(row) : undefined;
  }

  /** The employee with its registrations and custom values, in one statement ({@link findWithDetails}). */
  async findWithDetails(clientId: HrTenantId, id: string): Promise<EmployeeWithDetails | undefined> {
    const found = await findWithDetails.first(this.db, { clientId, id });
    if (!found) return undefined;
    const { registrations_json, custom_values_json, ...row } = found;
    type Stored = [string, string, number, string | null, number, number, number];
    const registrations = (JSON.parse(registrations_json) as Stored[]).map(
      ([organizationId, employeeNumber, active, departureDate, position, createdAt, updatedAt]) => ({
        organizationId,
        employeeNumber,
        active: Number(active) === 1,
        departureDate,
        position: Number(position),
        createdAt: Number(createdAt),
        updatedAt: Number(updatedAt),
      }),
    );
    const customFields = (JSON.parse(custom_values_json) as [string, string, string][]).map(([code, value, label]) => ({
      code,
      value,
      label,
    }));
    return { row: toRecord(row), registrations, customFields };
  }

  async findByExternalId(clientId: HrTenantId, externalId: string): Promise<EmployeeRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_employees')
      .selectAll()
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async insert(clientId: HrTenantId, employee: Omit<EmployeeRecord, 'pk'>): Promise<void> {
    await this.db
      .insertInto('hr_employees')
      .values({
        ...toColumns(employee),
        client_id: clientId,
        id: employee.id,
        firstname: employee.firstname,
        lastname: employee.lastname,
        created_at: employee.createdAt,
        updated_at: employee.updatedAt,
      })
      .execute();
  }

  async update(clientId: HrTenantId, id: string, changes: Partial<EmployeeAttributes>): Promise<void> {
    await this.tenant(clientId).updateTable('hr_employees').set(toColumns(changes)).where('id', '=', id).execute();
  }

  existingOrganizations(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_organizations', clientId, ids);
  }

  async organizationExists(clientId: HrTenantId, id: string): Promise<boolean> {
    return (await this.existingOrganizations(clientId, [id])).has(id);
  }

  async groupExists(clientId: HrTenantId, id: string): Promise<boolean> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_organization_groups')
      .select('pk')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Employee numbers already used in an organization by another employee. */
  async takenNumbers(
    clientId: HrTenantId,
    pairs: { organizationId: string; employeeNumber: string }[],
    exceptEmployee?: string,
  ): Promise<Set<string>> {
    if (!pairs.length) return new Set();
    let q = this.tenant(clientId)
      .selectFrom('hr_employee_registrations')
      .select(['organization_id', 'employee_number'])
      .where((eb) =>
        eb.or(
          pairs.map((p) =>
            eb.and([eb('organization_id', '=', p.organizationId), eb('employee_number', '=', p.employeeNumber)]),
          ),
        ),
      );
    if (exceptEmployee) q = q.where('employee_id', '!=', exceptEmployee);
    const rows = await q.execute();
    return new Set(rows.map((r) => `${r.organization_id}\n${r.employee_number}`));
  }

  async registrations(clientId: HrTenantId, employeeIds: string[]): Promise<Map<string, RegistrationRecord[]>> {
    const out = new Map<string, RegistrationRecord[]>();
    if (!employeeIds.length) return out;
    const rows = await registrationsOf.all(this.db, { clientId, ids: employeeIds });
    for (const r of rows) out.set(r.employee_id, [...(out.get(r.employee_id) ?? []), toRegistrationRecord(r)]);
    return out;
  }

  async replaceRegistrations(
    clientId: HrTenantId,
    employeeId: string,
    registrations: RegistrationRecord[],
  ): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_employee_registrations').where('employee_id', '=', employeeId).execute();
    if (registrations.length) {
      await this.db
        .insertInto('hr_employee_registrations')
        .values(
          registrations.map((r) => ({
            client_id: clientId,
            employee_id: employeeId,
            organization_id: r.organizationId,
            employee_number: r.employeeNumber,
            active: r.active ? 1 : 0,
            departure_date: r.departureDate,
            position: r.position,
            created_at: r.createdAt,
            updated_at: r.updatedAt,
          })),
        )
        .execute();
    }
  }

  async customValues(clientId: HrTenantId, employeeIds: string[]): Promise<Map<string, Map<string, string>>> {
    const out = new Map<string, Map<string, string>>();
    if (!employeeIds.length) return out;
    const rows = await customValuesOf.all(this.db, { clientId, ids: employeeIds });
    for (const r of rows) {
      const m = out.get(r.employee_id) ?? new Map<string, string>();
      m.set(r.custom_field_id, r.value);
      out.set(r.employee_id, m);
    }
    return out;
  }

  /** Sets the given values; with `replaceAll`, values not given are removed first. */
  async setCustomValues(
    clientId: HrTenantId,
    employeeId: string,
    values: Map<string, string>,
    replaceAll: boolean,
  ): Promise<void> {
    let del = this.tenant(clientId).deleteFrom('hr_employee_custom_values').where('employee_id', '=', employeeId);
    if (!replaceAll) {
      if (!values.size) return;
      del = del.where('custom_field_id', 'in', [...values.keys()]);
    }
    await del.execute();
    if (values.size) {
      await this.db
        .insertInto('hr_employee_custom_values')
        .values(
          [...values].map(([custom_field_id, value]) => ({
            client_id: clientId,
            employee_id: employeeId,
            custom_field_id,
            value,
          })),
        )
        .execute();
    }
  }

  private filtered(clientId: HrTenantId, f: EmployeeQuery) {
    let q = this.tenant(clientId).selectFrom('hr_employees as e');
    const regs = () =>
      this.tenant(clientId)
        .selectFrom('hr_employee_registrations as r')
        .select('r.employee_id')
        .where(sql<boolean>`r.employee_id = e.id`);
    if (f.firstname !== undefined) q = q.where('e.firstname', '=', f.firstname);
    if (f.lastname !== undefined) q = q.where('e.lastname', '=', f.lastname);
    if (f.email !== undefined) q = q.where('e.email', '=', f.email);
    if (f.externalId !== undefined) q = q.where('e.external_id', '=', f.externalId);
    if (f.hasEmail !== undefined) q = q.where('e.email', f.hasEmail ? 'is not' : 'is', null);
    if (f.createdSince !== undefined) q = q.where('e.created_at', '>=', f.createdSince);
    if (f.createdUntil !== undefined) q = q.where('e.created_at', '<=', f.createdUntil);
    if (f.notSynchronizedSince !== undefined || f.notSynchronizedWith !== undefined) {
      const since = f.notSynchronizedSince;
      const app = f.notSynchronizedWith;
      q = q.where((eb) =>
        eb.or([
          eb('e.synchronized_at', 'is', null),
          ...(since !== undefined ? [eb('e.synchronized_at', '<', since)] : []),
          ...(app !== undefined
            ? [eb('e.synchronization_application', 'is', null), eb('e.synchronization_application', '!=', app)]
            : []),
        ]),
      );
    }
    if (f.terminated !== undefined) {
      const active = regs().where('r.active', '=', 1);
      q = q.where((eb) => (f.terminated ? eb.not(eb.exists(active)) : eb.exists(active)));
    }
    if (f.q !== undefined) {
      const text = f.q;
      q = q.where((eb) =>
        eb.or([
          containsText(['e.firstname', 'e.lastname', 'e.external_id', 'e.email'], text),
          eb.exists(regs().where(containsText(['r.employee_number'], text))),
        ]),
      );
    }
    if (f.employeeNumbers?.length) {
      const numbers = f.employeeNumbers;
      q = q.where((eb) => eb.exists(regs().where('r.employee_number', 'in', numbers)));
    }
    if (f.organizationIds?.length) {
      const orgs = f.organizationIds;
      q = q.where((eb) => eb.exists(regs().where('r.organization_id', 'in', orgs)));
    }
    if (f.organizationGroupId !== undefined) {
      const group = f.organizationGroupId;
      q = q.where((eb) =>
        eb.exists(
          regs().where(
            'r.organization_id',
            'in',
            this.tenant(clientId)
              .selectFrom('hr_organization_group_members as m')
              .select('m.organization_id')
              .where('m.group_id', '=', group),
          ),
        ),
      );
    }
    if (f.organizationBelow !== undefined) {
      const root = f.organizationBelow;
      q = q.where((eb) =>
        eb.exists(regs().where(sql<boolean>`r.organization_id in ${organizationSubtree(clientId, root)}`)),
      );
    }
    for (const cf of f.customFields ?? []) q = q.where(this.customValueIs(clientId, cf.id, cf.operator, cf.value));
    if (f.perimeters !== undefined) {
      const perimeters = f.perimeters;
      q = q.where((eb) => eb.or(perimeters.map((p) => this.inPerimeter(clientId, p)(eb))));
    }
    return q;
  }

  /**
   * The employee's value of a custom field compared with `value`: `=` (text), `!=` (no value, or another one),
   * `<`, `<=`, `>`, `>=` (as integers: only hierarchical int fields take them).
   */
  private customValueIs(clientId: HrTenantId, fieldId: string, operator: string, value: string) {
    const values = (op: string) =>
      this.tenant(clientId)
        .selectFrom('hr_employee_custom_values as v')
        .select('v.employee_id')
        .where(sql<boolean>`v.employee_id = e.id`)
        .where('v.custom_field_id', '=', fieldId)
        .where(
          op === '='
            ? sql<boolean>`v.value = ${value}`
            : sql<boolean>`cast(v.value as integer) ${sql.raw(op)} ${Number(value)}`,
        );
    return (eb: ExpressionBuilder<EmployeeScope, 'e'>) =>
      operator === '!=' ? eb.not(eb.exists(values('='))) : eb.exists(values(operator));
  }

  /**
   * Whether an employee is inside a perimeter, read as the search's organization filters read organizations (any
   * registration of theirs): `=` the organization, `<=` it or below it, a group holding one of theirs, or no
   * organization nor group (everyone); and the custom field rules, OR-ed on one field and AND-ed across fields.
   */
  private inPerimeter(clientId: HrTenantId, p: EmployeesPerimeter) {
    const regs = () =>
      this.tenant(clientId)
        .selectFrom('hr_employee_registrations as r')
        .select('r.employee_id')
        .where(sql<boolean>`r.employee_id = e.id`);
    const byField = new Map<string, CustomFieldFilter[]>();
    for (const rule of p.custom_field_filters) {
      byField.set(rule.custom_field_id, [...(byField.get(rule.custom_field_id) ?? []), rule]);
    }
    return (eb: ExpressionBuilder<EmployeeScope, 'e'>) => {
      const all = [...byField].map(([fieldId, rules]) =>
        eb.or(rules.map((rule) => this.customValueIs(clientId, fieldId, rule.operator, rule.value)(eb))),
      );
      const org = p.organization_id;
      if (org !== null && p.operator === '=') all.push(eb.exists(regs().where('r.organization_id', '=', org)));
      if (org !== null && p.operator === '<=') {
        all.push(eb.exists(regs().where(sql<boolean>`r.organization_id in ${organizationSubtree(clientId, org)}`)));
      }
      if (org === null && p.organization_group_id !== null) {
        const members = this.tenant(clientId)
          .selectFrom('hr_organization_group_members as m')
          .select('m.organization_id')
          .where('m.group_id', '=', p.organization_group_id);
        all.push(eb.exists(regs().where('r.organization_id', 'in', members)));
      }
      return eb.and(all);
    };
  }

  async page(clientId: HrTenantId, f: EmployeeQuery, request: PageRequest<SortField>): Promise<Page<EmployeeRecord>> {
    const page = await listPage(this.filtered(clientId, f).selectAll('e'), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }
}
