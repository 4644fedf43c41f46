import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { isUniqueViolation } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import { commaList } from '../../../platform/lists.js';
import { type Clock, parseDateOrDateTime } from '../../../platform/time.js';
import type { AuditTrail } from '../../audit/trail.js';
import type { Audited } from '../../module.js';
import type { BulkAction, BulkWork, PendingBulkItem } from '../bulk/service.js';
import { applyBulkItem, itemCheck } from '../bulk/service.js';
import type { CustomFieldDef, CustomFieldsService } from '../custom-fields/service.js';
import type { EmployeesPerimeter } from '../perimeters/rules.js';
import { employeeEvents } from './events.js';
import { presentEmployee } from './present.js';
import type {
  EmployeeAttributes,
  EmployeeQuery,
  EmployeeRecord,
  EmployeesRepository,
  EmployeeView,
} from './repository.js';
import {
  EmployeeBulkPatchItem,
  EmployeeBulkPutItem,
  EmployeeCreate,
  type EmployeeFilters,
  EmployeePatch,
  type SortField,
} from './schemas.js';
import { today, viewOf, viewsOf } from './views.js';
import { type PreparedEmployee, prepareEmployee } from './write-rules.js';

export type { EmployeeView } from './repository.js';

type Input = EmployeePatch;

/** An employee id: a UUID (reference §3a.1). One a PUT creates is stored as sent. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user profiles whose perimeters the search's `profile_ids` names (the users service answers it). */
export interface ProfilePerimeters {
  profilePerimeters(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, EmployeesPerimeter>>;
}

/** The repositories employee writes touch (registrations and custom values included). */
export interface EmployeesWork extends BulkWork {
  employees: EmployeesRepository;
}

/**
 * A write that joins an employee write's transaction once the employee is written (a bulk item's settlement), with
 * the employee as written and whether it was created.
 */
export type AlsoInTransaction = (tx: Audited<EmployeesWork>, view: EmployeeView, created: boolean) => Promise<void>;

const checkCreate = itemCheck(EmployeeCreate);
const checkPatch = itemCheck(EmployeePatch);
/** A PUT or PATCH item's keys, checked before its `data` (whose errors are then the single endpoint's). */
const checkPutKeys = itemCheck(Type.Object({ ...EmployeeBulkPutItem.properties, data: Type.Unknown() }));
const checkPatchKeys = itemCheck(Type.Object({ ...EmployeeBulkPatchItem.properties, data: Type.Unknown() }));

/**
 * Employees (reference §3a): registration references (organization
 * membership, employee numbers, termination), custom field values, the
 * email/address rules, uniqueness of external ids and employee numbers, and
 * the search filters.
 */
export class EmployeesService {
  private readonly repo: EmployeesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<EmployeesWork>>,
    private readonly customFields: CustomFieldsService,
    private readonly profiles: ProfilePerimeters,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.employees;
  }

  // ------------------------------------------------------------ reading

  async views(clientId: HrTenantId, rows: EmployeeRecord[]): Promise<EmployeeView[]> {
    return viewsOf(this.repo, clientId, rows, await this.customFields.definitions(clientId), this.clock);
  }

  async get(clientId: HrTenantId, id: string, synchronization?: { application: string }): Promise<EmployeeView> {
    if (!synchronization) {
      // A plain GET reads the employee, its registrations and labelled custom values in one statement.
      const found = await this.repo.findWithDetails(clientId, id);
      if (!found) throw new NotFoundError('employee', id);
      return viewOf(found.row, found.registrations, found.customFields, today(this.clock));
    }
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('employee', id);
    const at = this.clock.now();
    await this.repo.update(clientId, id, {
      synchronizedAt: at,
      synchronizationApplication: synchronization.application,
    });
    row.synchronizedAt = at;
    row.synchronizationApplication = synchronization.application;
    return (await this.views(clientId, [row]))[0] as EmployeeView;
  }

  /** Parses and checks the search filters; `where` names the input (query or body) for errors. */
  private async query(clientId: HrTenantId, f: EmployeeFilters, inBody: boolean): Promise<EmployeeQuery> {
    const errors: FieldError[] = [];
    const bad = (field: string, message: string, code = 'invalid') => {
      if (!inBody) throw new InvalidRequestError(`Invalid query parameter "${field}": ${message}`);
      errors.push({ field, code, message });
    };
    const instant = (field: 'created_at_since' | 'created_at_until' | 'synchronization_date') => {
      const text = f[field];
      if (text === undefined) return undefined;
      const at = parseDateOrDateTime(text);
      if (at === undefined) {
        bad(field, 'Expected a date (YYYY-MM-DD) or a datetime (YYYY-MM-DDThh:mi:ss±hh:mi).', 'invalid_date');
      }
      return at;
    };
    const q: EmployeeQuery = {};
    if (f.q !== undefined) q.q = f.q;
    if (f.firstname !== undefined) q.firstname = f.firstname;
    if (f.lastname !== undefined) q.lastname = f.lastname;
    if (f.email !== undefined) q.email = f.email;
    if (f.external_id !== undefined) q.externalId = f.external_id;
    if (f.terminated !== undefined) q.terminated = f.terminated;
    if (f.has_email !== undefined) q.hasEmail = f.has_email;
    const numbers = commaList(f.employee_numbers);
    if (numbers) q.employeeNumbers = numbers;
    const orgs = commaList(f.organization_ids);
    if (orgs) q.organizationIds = orgs;
    const since = instant('created_at_since');
    if (since !== undefined) q.createdSince = since;
    const until = instant('created_at_until');
    if (until !== undefined) q.createdUntil = until;
    const sync = instant('synchronization_date');
    if (sync !== undefined) q.notSynchronizedSince = sync;
    if (f.synchronization_application_name !== undefined) q.notSynchronizedWith = f.synchronization_application_name;
    if (f.organization_id_below !== undefined) {
      if (!(await this.repo.organizationExists(clientId, f.organization_id_below)))
        bad('organization_id_below', 'No organization has this code.');
      q.organizationBelow = f.organization_id_below;
    }
    if (f.organization_group_id !== undefined) {
      if (!(await this.repo.groupExists(clientId, f.organization_group_id)))
        bad('organization_group_id', 'No organization group has this code.');
      q.organizationGroupId = f.organization_group_id;
    }
    const profileIds = commaList(f.profile_ids);
    if (profileIds) {
      const perimeters = await this.profiles.profilePerimeters(clientId, profileIds);
      const unknown = profileIds.filter((id) => !perimeters.has(id));
      if (unknown.length) bad('profile_ids', `No user profile has the id "${unknown[0]}".`, 'not_found');
      q.perimeters = [...perimeters.values()];
    }
    const ids = commaList(f.custom_field_ids);
    if (ids) {
      const ops = commaList(f.custom_field_operators) ?? [];
      const vals = f.custom_field_values?.split(',').map((s) => s.trim()) ?? [];
      if (ops.length !== ids.length) bad('custom_field_operators', 'Give one operator per custom field id.');
      if (vals.length !== ids.length) bad('custom_field_values', 'Give one value per custom field id.');
      const defs = await this.customFields.definitions(clientId);
      q.customFields = ids.map((id, i) => {
        const def = defs.get(id);
        const operator = ops[i] as '=' | '!=' | '<=' | '>=';
        if (!def) bad('custom_field_ids', `No custom field has the id "${id}".`);
        if (!['=', '!=', '<=', '>='].includes(operator))
          bad('custom_field_operators', `Unknown operator "${operator}".`);
        if ((operator === '<=' || operator === '>=') && !(def?.type === 'int' && def.row.hierarchical)) {
          bad('custom_field_operators', '<= and >= apply only to hierarchical int custom fields.');
        }
        return { id, operator, value: vals[i] ?? '' };
      });
    }
    if (errors.length) throw new FieldValidationError(errors);
    return q;
  }

  async search(
    clientId: HrTenantId,
    filters: EmployeeFilters,
    inBody: boolean,
    request: PageRequest<SortField>,
  ): Promise<Page<EmployeeView>> {
    const query = await this.query(clientId, filters, inBody);
    const page = await this.repo.page(clientId, query, request);
    return { ...page, items: await this.views(clientId, page.items) };
  }

  static sort(text: string | undefined): { field: SortField; direction: 'asc' | 'desc' } {
    if (!text) return { field: 'created_at', direction: 'asc' };
    return { field: text.slice(1) as SortField, direction: text.startsWith('-') ? 'desc' : 'asc' };
  }

  // ------------------------------------------------------------ writing

  private async write(
    repo: EmployeesRepository,
    clientId: HrTenantId,
    id: string,
    prepared: PreparedEmployee,
  ): Promise<void> {
    if (prepared.registrations) await repo.replaceRegistrations(clientId, id, prepared.registrations);
    if (prepared.customValues)
      await repo.setCustomValues(clientId, id, prepared.customValues.values, prepared.customValues.replaceAll);
  }

  /**
   * The employee as written, read back in the write's transaction, and its audit event recorded there with the
   * employee as GET /employees/{id} presents it.
   */
  private async recorded(
    repo: EmployeesRepository,
    audit: AuditTrail,
    clientId: HrTenantId,
    id: string,
    defs: Map<string, CustomFieldDef>,
    action: 'created' | 'updated',
  ): Promise<EmployeeView> {
    const row = (await repo.find(clientId, id)) as EmployeeRecord;
    const view = (await viewsOf(repo, clientId, [row], defs, this.clock))[0] as EmployeeView;
    const name = [row.firstname, row.middlename, row.lastname].filter((part) => part).join(' ');
    await audit.record(clientId, employeeEvents, action, { id, name: name || null, data: presentEmployee(view) });
    return view;
  }

  /** Runs a write; a unique violation raced by a concurrent write becomes the same 422 as the checked case. */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new FieldValidationError([
          {
            field: 'external_id',
            code: 'already_exists',
            message: 'Another employee has this external_id or employee number (written concurrently).',
          },
        ]);
      }
      throw err;
    }
  }

  /** A new employee: its id is generated, or the one a PUT named (see {@link put}). */
  async create(clientId: HrTenantId, input: Input, chosenId?: string, also?: AlsoInTransaction): Promise<EmployeeView> {
    // Read before the transaction: on SQLite a query outside an open transaction would wait for it forever.
    const defs = await this.customFields.definitions(clientId);
    return this.guarded(() =>
      this.work.run(async (tx) => {
        const { employees: repo, audit } = tx;
        const prepared = await prepareEmployee(this.clock, repo, clientId, input, 'create', defs);
        const newId = chosenId ?? randomUUID();
        await repo.insert(clientId, {
          ...(prepared.changes as EmployeeAttributes),
          id: newId,
          externalId: input.external_id ?? null,
          createdAt: prepared.changes.updatedAt as number,
        });
        await this.write(repo, clientId, newId, prepared);
        const view = await this.recorded(repo, audit, clientId, newId, defs, 'created');
        if (also) await also(tx, view, true);
        return view;
      }),
    );
  }

  /**
   * PUT /employees/{id}: replaces the employee, or creates it at that id when the client has none (the reference's
   * 201). Employee ids are UUIDs, so another id names no employee and cannot make one: not found. Two first PUTs of
   * one id at once: the loser replaces what the winner created.
   */
  async put(
    clientId: HrTenantId,
    id: string,
    input: Input,
    also?: AlsoInTransaction,
  ): Promise<{ view: EmployeeView; created: boolean }> {
    if (await this.repo.find(clientId, id)) {
      return { view: await this.replace(clientId, id, input, also), created: false };
    }
    if (!UUID.test(id)) throw new NotFoundError('employee', id);
    try {
      return { view: await this.create(clientId, input, id, also), created: true };
    } catch (err) {
      if (await this.repo.find(clientId, id)) {
        return { view: await this.replace(clientId, id, input, also), created: false };
      }
      throw err;
    }
  }

  replace(clientId: HrTenantId, id: string, input: Input, also?: AlsoInTransaction): Promise<EmployeeView> {
    return this.change('replace', clientId, id, input, also);
  }

  patch(clientId: HrTenantId, id: string, input: Input, also?: AlsoInTransaction): Promise<EmployeeView> {
    return this.change('patch', clientId, id, input, also);
  }

  /** A `PUT` of an existing employee (`replace`) or a `PATCH`: the same checks and writes, as their mode says. */
  private async change(
    mode: 'replace' | 'patch',
    clientId: HrTenantId,
    id: string,
    input: Input,
    also?: AlsoInTransaction,
  ): Promise<EmployeeView> {
    // Read before the transaction: on SQLite a query outside an open transaction would wait for it forever.
    const defs = await this.customFields.definitions(clientId);
    return this.guarded(() =>
      this.work.run(async (tx) => {
        const { employees: repo, audit } = tx;
        const existing = await repo.find(clientId, id);
        if (!existing) throw new NotFoundError('employee', id);
        const prepared = await prepareEmployee(this.clock, repo, clientId, input, mode, defs, existing);
        await repo.update(clientId, id, prepared.changes);
        await this.write(repo, clientId, id, prepared);
        const view = await this.recorded(repo, audit, clientId, id, defs, 'updated');
        if (also) await also(tx, view, false);
        return view;
      }),
    );
  }

  /** The idempotent upsert HRIS syncs rely on: 201 when created, 200 when updated. */
  async upsertByExternalId(
    clientId: HrTenantId,
    externalId: string,
    input: Input,
    also?: AlsoInTransaction,
  ): Promise<{ view: EmployeeView; created: boolean }> {
    const body = { ...input, external_id: externalId };
    const existing = await this.repo.findByExternalId(clientId, externalId);
    if (existing) return { view: await this.replace(clientId, existing.id, body, also), created: false };
    try {
      return { view: await this.create(clientId, body, undefined, also), created: true };
    } catch (err) {
      // Two first syncs of the same employee at once: the loser updates what the winner created.
      const winner = await this.repo.findByExternalId(clientId, externalId);
      if (winner) return { view: await this.replace(clientId, winner.id, body, also), created: false };
      throw err;
    }
  }

  // ------------------------------------------------------------ bulk

  /**
   * One item of `POST|PUT|PATCH /employees/bulk`, applied as the single endpoint applies its body (POST
   * /employees, PUT /employees/{id}, PATCH /employees/{id}; a PUT item naming `external_id` instead of
   * `employee_id`, PUT /employees/by_external_id/{external_id}), and settled in the same transaction.
   */
  async applyBulk(clientId: HrTenantId, action: BulkAction, item: PendingBulkItem): Promise<void> {
    await applyBulkItem({
      clock: this.clock,
      work: this.work,
      clientId,
      item,
      noun: 'Employee',
      write: async (settle) => {
        const also: AlsoInTransaction = (tx, view, created) =>
          settle(tx, created ? 'created' : 'updated', presentEmployee(view), view.row.id);
        const input = item.input;
        if (action === 'create') {
          checkCreate(input);
          return this.create(clientId, input as Input, undefined, also);
        }
        if (action === 'patch') {
          checkPatchKeys(input);
          const { employee_id, data } = input as { employee_id: string; data: unknown };
          checkPatch(data);
          return this.patch(clientId, employee_id, data as Input, also);
        }
        checkPutKeys(input);
        const { employee_id, external_id, data } = input as {
          employee_id?: string;
          external_id?: string;
          data: unknown;
        };
        if ((employee_id === undefined) === (external_id === undefined)) {
          throw new FieldValidationError([
            {
              field: 'employee_id',
              code: 'required',
              message: 'Give either employee_id or external_id (Atrium: the upsert by external id).',
            },
          ]);
        }
        checkCreate(data);
        return external_id !== undefined
          ? this.upsertByExternalId(clientId, external_id, data as Input, also)
          : this.put(clientId, employee_id as string, data as Input, also);
      },
    });
  }
}
