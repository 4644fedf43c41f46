import { type Selectable, sql } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
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

export interface Profile {
  id: string;
  role_id: string;
  employees_perimeter: EmployeesPerimeter;
}

export type UserRow = Selectable<HrUsersTable>;
export type UserWithProfiles = UserRow & { profiles: Profile[] };

export type UserAttributes = Omit<UserRow, 'pk' | 'client_id' | 'id' | 'first_login_at' | 'created_at' | 'updated_at'>;

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

  private filtered(clientId: string, f: UserFilter) {
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

  async page(clientId: string, filter: UserFilter, request: PageRequest): Promise<Page<UserWithProfiles>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: await this.withProfiles(clientId, page.items) };
  }

  async count(clientId: string, filter: UserFilter): Promise<number> {
    const row = await this.filtered(clientId, filter)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(clientId: string, id: string): Promise<UserWithProfiles | undefined> {
    const row = await this.filtered(clientId, {}).where('u.id', '=', id).executeTakeFirst();
    return row ? (await this.withProfiles(clientId, [row]))[0] : undefined;
  }

  /** The profiles of several users in one query, in their stored order. */
  private async withProfiles(clientId: string, rows: UserRow[]): Promise<UserWithProfiles[]> {
    if (rows.length === 0) return [];
    const profiles = await this.profilesOf(
      clientId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, profiles: profiles.get(r.id) ?? [] }));
  }

  /** The perimeters of the client's profiles among `ids`, by profile id (unknown ids are absent). */
  async profilePerimeters(clientId: string, ids: readonly string[]): Promise<Map<string, EmployeesPerimeter>> {
    if (!ids.length) return new Map();
    const rows = await this.tenant(clientId)
      .selectFrom('hr_user_profiles')
      .select(['id', 'operator', 'organization_id', 'organization_group_id', 'custom_field_filters'])
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, perimeterOf(r)]));
  }

  async profilesOf(clientId: string, userIds: string[]): Promise<Map<string, Profile[]>> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_user_profiles')
      .selectAll()
      .where('user_id', 'in', userIds)
      .orderBy('user_id')
      .orderBy('position')
      .execute();
    const out = new Map<string, Profile[]>();
    for (const r of rows) {
      const list = out.get(r.user_id) ?? [];
      list.push({
        id: r.id,
        role_id: r.role_id,
        employees_perimeter: perimeterOf(r),
      });
      out.set(r.user_id, list);
    }
    return out;
  }

  /** Whether another user of the client has this email (ignoring case). */
  async emailTaken(clientId: string, email: string, exceptId?: string): Promise<boolean> {
    let q = this.tenant(clientId)
      .selectFrom('hr_users')
      .select('pk')
      .where(sql`lower(email)`, '=', email.toLowerCase());
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** The id of the client's user with this email (ignoring case). */
  async idByEmail(clientId: string, email: string): Promise<string | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_users')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
    return row?.id;
  }

  /** Whether another user of the client has this external id. */
  async externalIdTaken(clientId: string, externalId: string, exceptId?: string): Promise<boolean> {
    let q = this.tenant(clientId).selectFrom('hr_users').select('pk').where('external_id', '=', externalId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(clientId: string, id: string, attrs: UserAttributes, at: number): Promise<void> {
    await this.db
      .insertInto('hr_users')
      .values({ client_id: clientId, id, ...attrs, first_login_at: null, created_at: at, updated_at: at })
      .execute();
  }

  async update(clientId: string, id: string, attrs: Partial<UserAttributes>, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('hr_users')
      .set({ ...attrs, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Replaces every profile of a user with these, in this order. */
  async replaceProfiles(clientId: string, userId: string, profiles: Profile[]): Promise<void> {
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
          role_id: p.role_id,
          operator: p.employees_perimeter.operator,
          organization_id: p.employees_perimeter.organization_id,
          organization_group_id: p.employees_perimeter.organization_group_id,
          custom_field_filters: JSON.stringify(p.employees_perimeter.custom_field_filters),
        })),
      )
      .execute();
  }

  existingRoleIds(clientId: string, ids: readonly string[]): Promise<Set<string>> {
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
