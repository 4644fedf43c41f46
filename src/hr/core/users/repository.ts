import { type Selectable, sql } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { PerimetersRepository } from '../perimeters/repository.js';
import type { CustomFieldFilter, EmployeesPerimeter } from '../perimeters/rules.js';
import type { HrUserProfilesTable, HrUsersTable } from './tables.js';

export type {
  CustomFieldFacts,
  CustomFieldFilter,
  EmployeesPerimeter,
  FilterOperator,
  PerimeterOperator,
} from '../perimeters/rules.js';

/** A profile: one role of a user on one employee perimeter (the perimeter in its shared shape, perimeters/rules.ts). */
export interface ProfileRecord {
  id: string;
  roleId: string;
  employeesPerimeter: EmployeesPerimeter;
}

/** What a user's writes set. */
export interface UserAttributes {
  externalId: string | null;
  firstname: string;
  lastname: string;
  middlename: string | null;
  email: string;
  language: string | null;
  timezone: string | null;
  mobilePhoneNumber: string | null;
  /** SHA-256 of the write-only saml_token. */
  samlTokenHash: string | null;
}

/** A user with their profiles, in their stored order. */
export interface UserRecord extends UserAttributes {
  pk: number;
  id: string;
  firstLoginAt: number | null;
  createdAt: number;
  updatedAt: number;
  profiles: ProfileRecord[];
}

function toRecord(row: Selectable<HrUsersTable>, profiles: ProfileRecord[]): UserRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    externalId: row.external_id,
    firstname: row.firstname,
    lastname: row.lastname,
    middlename: row.middlename,
    email: row.email,
    language: row.language,
    timezone: row.timezone,
    mobilePhoneNumber: row.mobile_phone_number,
    samlTokenHash: row.saml_token_hash,
    firstLoginAt: row.first_login_at === null ? null : Number(row.first_login_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    profiles,
  };
}

/** The columns of the attributes given (a PATCH sends some). */
function toColumns(a: Partial<UserAttributes>): Partial<Omit<HrUsersTable, 'pk'>> {
  const columns: Partial<Omit<HrUsersTable, 'pk'>> = {};
  if (a.externalId !== undefined) columns.external_id = a.externalId;
  if (a.firstname !== undefined) columns.firstname = a.firstname;
  if (a.lastname !== undefined) columns.lastname = a.lastname;
  if (a.middlename !== undefined) columns.middlename = a.middlename;
  if (a.email !== undefined) columns.email = a.email;
  if (a.language !== undefined) columns.language = a.language;
  if (a.timezone !== undefined) columns.timezone = a.timezone;
  if (a.mobilePhoneNumber !== undefined) columns.mobile_phone_number = a.mobilePhoneNumber;
  if (a.samlTokenHash !== undefined) columns.saml_token_hash = a.samlTokenHash;
  return columns;
}

export interface UserFilter {
  q?: string;
  firstname?: string;
  lastname?: string;
  email?: string;
  externalId?: string;
  roleId?: string;
  organizationId?: string;
  active?: boolean;
}

/** A stored profile's perimeter. */
function perimeterOf(
  r: Pick<HrUserProfilesTable, 'operator' | 'organization_id' | 'organization_group_id' | 'custom_field_filters'>,
): EmployeesPerimeter {
  return {
    operator: r.operator,
    organization_id: r.organization_id,
    organization_group_id: r.organization_group_id,
    custom_field_filters: JSON.parse(r.custom_field_filters) as CustomFieldFilter[],
  };
}

/** Lists are in creation order: the internal key is the keyset. */
/** In creation order. */
const ORDER: ListOrder = { tiebreak: 'u.pk' };

export class UsersRepository extends HrRepository {
  /** What profiles' employee perimeters are checked and matched against, on the same handle. */
  readonly perimeters: PerimetersRepository;

  constructor(db: Db) {
    super(db);
    this.perimeters = new PerimetersRepository(db);
  }

  private filtered(clientId: HrTenantId, f: UserFilter) {
    let q = this.tenant(clientId).selectFrom('hr_users as u').selectAll('u');
    if (f.q !== undefined) q = q.where(containsText(['u.firstname', 'u.lastname', 'u.email'], f.q));
    if (f.firstname !== undefined) q = q.where('u.firstname', '=', f.firstname);
    if (f.lastname !== undefined) q = q.where('u.lastname', '=', f.lastname);
    if (f.email !== undefined) q = q.where(sql`lower(${sql.ref('u.email')})`, '=', f.email.toLowerCase());
    if (f.externalId !== undefined) q = q.where('u.external_id', '=', f.externalId);
    if (f.active !== undefined) q = q.where('u.first_login_at', f.active ? 'is not' : 'is', null);
    if (f.roleId !== undefined) {
      const roleId = f.roleId;
      q = q.where(
        'u.id',
        'in',
        this.tenant(clientId).selectFrom('hr_user_profiles as p').select('p.user_id').where('p.role_id', '=', roleId),
      );
    }
    if (f.organizationId !== undefined) {
      const organizationId = f.organizationId;
      q = q.where(
        'u.id',
        'in',
        this.tenant(clientId)
          .selectFrom('hr_user_profiles as p')
          .select('p.user_id')
          .where('p.organization_id', '=', organizationId),
      );
    }
    return q;
  }

  async page(clientId: HrTenantId, filter: UserFilter, request: PageRequest): Promise<Page<UserRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: await this.withProfiles(clientId, page.items) };
  }

  async count(clientId: HrTenantId, filter: UserFilter): Promise<number> {
    const row = await this.filtered(clientId, filter)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: HrTenantId, id: string): Promise<UserRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('u.id', '=', id).executeTakeFirst();
    return row ? (await this.withProfiles(clientId, [row]))[0] : undefined;
  }

  /** The profiles of several users in one query, in their stored order. */
  private async withProfiles(clientId: HrTenantId, rows: Selectable<HrUsersTable>[]): Promise<UserRecord[]> {
    if (rows.length === 0) return [];
    const profiles = await this.profilesOf(
      clientId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toRecord(r, profiles.get(r.id) ?? []));
  }

  /** The perimeters of the client's profiles among `ids`, by profile id (unknown ids are absent). */
  async profilePerimeters(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, EmployeesPerimeter>> {
    if (!ids.length) return new Map();
    const rows = await this.tenant(clientId)
      .selectFrom('hr_user_profiles')
      .select(['id', 'operator', 'organization_id', 'organization_group_id', 'custom_field_filters'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, perimeterOf(r)]));
  }

  async profilesOf(clientId: HrTenantId, userIds: string[]): Promise<Map<string, ProfileRecord[]>> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_user_profiles')
      .selectAll()
      .where('user_id', 'in', userIds)
      .orderBy('user_id')
      .orderBy('position')
      .execute();
    const out = new Map<string, ProfileRecord[]>();
    for (const r of rows) {
      const list = out.get(r.user_id) ?? [];
      list.push({
        id: r.id,
        roleId: r.role_id,
        employeesPerimeter: perimeterOf(r),
      });
      out.set(r.user_id, list);
    }
    return out;
  }

  /** Whether another user of the client has this email (ignoring case). */
  async emailTaken(clientId: HrTenantId, email: string, exceptId?: string): Promise<boolean> {
    let q = this.tenant(clientId)
      .selectFrom('hr_users')
      .select('pk')
      .where(sql`lower(email)`, '=', email.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** The id of the client's user with this email (ignoring case). */
  async idByEmail(clientId: HrTenantId, email: string): Promise<string | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_users')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
    return row?.id;
  }

  /** Whether another user of the client has this external id. */
  async externalIdTaken(clientId: HrTenantId, externalId: string, exceptId?: string): Promise<boolean> {
    let q = this.tenant(clientId).selectFrom('hr_users').select('pk').where('external_id', '=', externalId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(clientId: HrTenantId, id: string, attrs: UserAttributes, at: number): Promise<void> {
    await this.db
      .insertInto('hr_users')
      .values({
        client_id: clientId,
        id,
        ...toColumns(attrs),
        firstname: attrs.firstname,
        lastname: attrs.lastname,
        email: attrs.email,
        first_login_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async update(clientId: HrTenantId, id: string, attrs: Partial<UserAttributes>, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_users')
      .set({ ...toColumns(attrs), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Replaces every profile of a user with these, in this order. */
  async replaceProfiles(clientId: HrTenantId, userId: string, profiles: ProfileRecord[]): Promise<void> {
    await this.tenant(clientId).deleteFrom('hr_user_profiles').where('user_id', '=', userId).execute();
    if (profiles.length === 0) return;
    await this.db
      .insertInto('hr_user_profiles')
      .values(
        profiles.map((p, position) => ({
          client_id: clientId,
          id: p.id,
          user_id: userId,
          position,
          role_id: p.roleId,
          operator: p.employeesPerimeter.operator,
          organization_id: p.employeesPerimeter.organization_id,
          organization_group_id: p.employeesPerimeter.organization_group_id,
          custom_field_filters: JSON.stringify(p.employeesPerimeter.custom_field_filters),
        })),
      )
      .execute();
  }

  existingRoleIds(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }
}

/** Which field a unique violation of `hr_users` is about, from the constraint or index it names. */
export function uniqueViolationField(error: unknown): 'email' | 'external_id' | undefined {
  const e = error as { constraint?: unknown; message?: unknown };
  const text = `${String(e.constraint ?? '')} ${String(e.message ?? '')}`;
  if (text.includes('hr_users_client_email_uq')) return 'email';
  if (text.includes('hr_users_client_external_id_uq') || text.includes('hr_users.external_id')) return 'external_id';
  return undefined;
}
