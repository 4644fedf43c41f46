import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { isUniqueViolation } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { hashSecret, newId } from '../../../platform/security/secrets.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import type { BulkAction, BulkWork, PendingBulkItem } from '../bulk/service.js';
import { applyBulkItem, itemCheck } from '../bulk/service.js';
import type { OutboxRepository } from '../outbox/repository.js';
import {
  matchesFilters,
  type PerimeterInput,
  perimeterErrors,
  perimeterReferences,
  storedPerimeter,
} from '../perimeters/rules.js';
import { DOCUMENT_ACTION_PERMISSIONS, type DocumentAction, type DocumentPermission } from '../roles/permissions.js';
import { userEvents } from './events.js';
import { presentUser } from './present.js';
import {
  type EmployeesPerimeter,
  type ProfileRecord,
  type UserAttributes,
  type UserFilter,
  type UserRecord,
  type UsersRepository,
  uniqueViolationField,
} from './repository.js';
import { UserBulkPatchItem, UserCreate, UserPatch, UserPut } from './schemas.js';

export interface UserFilterInput {
  q?: string;
  firstname?: string;
  lastname?: string;
  email?: string;
  external_id?: string;
  role_id?: string;
  organization_id?: string;
  active?: boolean;
}

export type { PerimeterInput } from '../perimeters/rules.js';

export interface ProfileInput {
  /** An existing profile to keep (PUT, PATCH); absent for a new one. */
  id?: string;
  role_id: string;
  employees_perimeter: PerimeterInput;
}

type Text = string | null | undefined;

export interface UserInput {
  external_id?: Text;
  firstname?: string;
  lastname?: string;
  middlename?: Text;
  email?: string;
  language?: Text;
  timezone?: Text;
  mobile_phone_number?: Text;
  saml_token?: Text;
  profiles?: ProfileInput[];
}

/** Who asks to act on documents: an application (the API caller itself) or an HR user. */
export type DocumentActor = { kind: 'application'; readOnly: boolean } | { kind: 'user'; userId: string };

export interface DocumentAccessQuery {
  actor: DocumentActor;
  /** What the actor wants to do, or one exact `user_access_permissions` value. */
  action: DocumentAction | DocumentPermission;
  /** The document type's `user_access_permissions`: which roles may do what with documents of this type. */
  userAccessPermissions: readonly { role_id: string; permissions: readonly string[] }[];
  /** The document's organizations; the actor needs a perimeter covering any one of them. */
  organizationIds: readonly string[];
  /**
   * For an employee document, the employee's custom field values (code → value), checked against the
   * perimeters' custom field filters; null for a company document, which no employee filter can exclude.
   */
  employeeCustomFields: Readonly<Record<string, string>> | null;
}

/** Attributes PUT replaces (an omitted one becomes null); saml_token is handled apart, being write-only. */
/** The attributes that may be null: each one's name on the wire (a body's), and in the domain. */
const NULLABLE = [
  ['external_id', 'externalId'],
  ['middlename', 'middlename'],
  ['language', 'language'],
  ['timezone', 'timezone'],
  ['mobile_phone_number', 'mobilePhoneNumber'],
] as const;

function notFound(field: string, what: string): FieldError {
  return { field, code: 'not_found', message: `No ${what} has this code.` };
}

/** The canonical IANA name of a time zone, or undefined when the runtime does not know it. */
function canonicalTimeZone(name: string): string | undefined {
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    // Offsets such as "+01:00" are not IANA names.
    return /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone) ? zone : undefined;
  } catch {
    return undefined;
  }
}

/** A user's name in the audit trail: first, middle and last names, as the trail names a user who acts. */
function fullName(user: Pick<UserRecord, 'firstname' | 'middlename' | 'lastname'>): string {
  return [user.firstname, user.middlename, user.lastname].filter((part) => part).join(' ');
}

/** The repositories user writes touch (profiles and perimeter facts included). */
export interface UsersWork extends BulkWork {
  users: UsersRepository;
  outbox: OutboxRepository;
}

/** The outbox kind of `POST /users/{id}/invite`'s mail. */
export const INVITATION_MAIL = 'user.invitation';

/** A write that joins a user write's transaction once the user is written (a bulk item's settlement). */
export type AlsoInTransaction = (tx: Audited<UsersWork>, user: UserRecord, created: boolean) => Promise<void>;

const checkCreate = itemCheck(UserCreate);
const checkPut = itemCheck(UserPut);
const checkPatch = itemCheck(UserPatch);
/** A PUT or PATCH item's keys, checked before its `data` (whose errors are then the single endpoint's). */
const checkKeys = itemCheck(Type.Object({ ...UserBulkPatchItem.properties, data: Type.Unknown() }));

/**
 * HR users (reference §3g.1): HR staff and managers, each with profiles that
 * give a role on a perimeter of employees. Every call is scoped to one client.
 */
export class UsersService {
  private readonly repo: UsersRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<UsersWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.users;
  }

  private async filter(clientId: HrTenantId, input: UserFilterInput): Promise<UserFilter> {
    const errors: FieldError[] = [];
    if (input.role_id !== undefined && !(await this.repo.existingRoleIds(clientId, [input.role_id])).size) {
      errors.push(notFound('role_id', 'role'));
    }
    if (
      input.organization_id !== undefined &&
      !(await this.repo.perimeters.existingOrganizations(clientId, [input.organization_id])).size
    ) {
      errors.push(notFound('organization_id', 'organization'));
    }
    if (errors.length) throw new FieldValidationError(errors);
    const filter: UserFilter = {};
    if (input.q !== undefined) filter.q = input.q;
    if (input.firstname !== undefined) filter.firstname = input.firstname;
    if (input.lastname !== undefined) filter.lastname = input.lastname;
    if (input.email !== undefined) filter.email = input.email;
    if (input.external_id !== undefined) filter.externalId = input.external_id;
    if (input.role_id !== undefined) filter.roleId = input.role_id;
    if (input.organization_id !== undefined) filter.organizationId = input.organization_id;
    if (input.active !== undefined) filter.active = input.active;
    return filter;
  }

  async list(clientId: HrTenantId, input: UserFilterInput, request: PageRequest): Promise<Page<UserRecord>> {
    return this.repo.page(clientId, await this.filter(clientId, input), request);
  }

  async count(clientId: HrTenantId, input: UserFilterInput): Promise<number> {
    return this.repo.count(clientId, await this.filter(clientId, input));
  }

  /** The perimeters of the client's profiles among `ids`, by profile id (the employee search's `profile_ids`). */
  profilePerimeters(clientId: HrTenantId, ids: readonly string[]): Promise<Map<string, EmployeesPerimeter>> {
    return this.repo.profilePerimeters(clientId, ids);
  }

  async get(clientId: HrTenantId, id: string): Promise<UserRecord> {
    const user = await this.repo.find(clientId, id);
    if (!user) throw new NotFoundError('user', id);
    return user;
  }

  /**
   * `POST /users/{id}/invite` (reference §3g.1): the activation mail, recorded in the outbox (docs/hr-api.md,
   * "Outbox") in the transaction that finds the user; `NotFoundError` for an unknown user, another client's
   * included. Each call records one more mail (a resend). Atrium has no sign-in for HR users: the mail has no link.
   */
  async invite(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async (tx) => {
      const user = await tx.users.find(clientId, id);
      if (!user) throw new NotFoundError('user', id);
      const name = fullName(user);
      await tx.outbox.insert(
        clientId,
        [
          {
            id: randomUUID(),
            kind: INVITATION_MAIL,
            toAddress: user.email,
            toName: name,
            subject: 'Activate your account',
            body: `Hello ${name},\n\nYou are invited to the HR platform. Activate your account to sign in with the address ${user.email}.`,
            relatedId: user.id,
          },
        ],
        this.clock.now(),
      );
    });
  }

  /** POST: a new user with a server-generated UUID. */
  async create(
    clientId: HrTenantId,
    input: UserInput & { firstname: string; lastname: string; email: string },
    also?: AlsoInTransaction,
  ): Promise<UserRecord> {
    const id = newId();
    return this.unique(() =>
      this.work.run(async (tx) => {
        const { users: repo, audit } = tx;
        const { attrs, saml } = this.attributes(input, 'replace');
        const profiles = input.profiles ?? [];
        await this.check(
          repo,
          clientId,
          undefined,
          attrs,
          profiles.map((p) => ({ ...p, id: undefined })),
          new Set(),
        );
        const at = this.clock.now();
        await repo.insert(clientId, id, { ...(attrs as UserAttributes), samlTokenHash: saml ?? null }, at);
        await repo.replaceProfiles(clientId, id, this.profiles(profiles.map((p) => ({ ...p, id: undefined }))));
        const user = (await repo.find(clientId, id)) as UserRecord;
        await audit.record(clientId, userEvents, 'created', { id, name: fullName(user), data: presentUser(user) });
        if (also) await also(tx, user, true);
        return user;
      }),
    );
  }

  /** PUT: replaces every attribute (one left out becomes null) and the whole list of profiles. */
  async put(
    clientId: HrTenantId,
    id: string,
    input: UserInput & { firstname: string; lastname: string; email: string; profiles: ProfileInput[] },
    also?: AlsoInTransaction,
  ): Promise<UserRecord> {
    return this.update(clientId, id, input, 'replace', also);
  }

  /** PATCH: changes only the attributes sent; `profiles`, when sent, is the complete new list. */
  patch(clientId: HrTenantId, id: string, input: UserInput, also?: AlsoInTransaction): Promise<UserRecord> {
    return this.update(clientId, id, input, 'merge', also);
  }

  private update(
    clientId: HrTenantId,
    id: string,
    input: UserInput,
    mode: 'replace' | 'merge',
    also: AlsoInTransaction | undefined,
  ): Promise<UserRecord> {
    return this.unique(() =>
      this.work.run(async (tx) => {
        const { users: repo, audit } = tx;
        const current = await repo.find(clientId, id);
        if (!current) throw new NotFoundError('user', id);
        const { attrs, saml } = this.attributes(input, mode);
        const known = new Set(current.profiles.map((p) => p.id));
        await this.check(repo, clientId, id, attrs, input.profiles ?? [], known);
        // Updating the user row first locks it, so concurrent writes of one user's profiles take turns.
        await repo.update(
          clientId,
          id,
          { ...attrs, ...(saml !== undefined ? { samlTokenHash: saml } : {}) },
          this.clock.now(),
        );
        if (input.profiles !== undefined) await repo.replaceProfiles(clientId, id, this.profiles(input.profiles));
        const user = (await repo.find(clientId, id)) as UserRecord;
        await audit.record(clientId, userEvents, 'updated', { id, name: fullName(user), data: presentUser(user) });
        if (also) await also(tx, user, false);
        return user;
      }),
    );
  }

  /**
   * One item of `POST|PUT|PATCH /users/bulk`, applied as POST /users, PUT /users/{id} or PATCH /users/{id} applies
   * its body (a PUT or PATCH item is `{manager_id, data}`), and settled in the same transaction.
   */
  async applyBulk(clientId: HrTenantId, action: BulkAction, item: PendingBulkItem): Promise<void> {
    await applyBulkItem({
      clock: this.clock,
      work: this.work,
      clientId,
      item,
      noun: 'User',
      write: async (settle) => {
        const also: AlsoInTransaction = (tx, user, created) =>
          settle(tx, created ? 'created' : 'updated', presentUser(user), user.id);
        const input = item.input;
        if (action === 'create') {
          checkCreate(input);
          return this.create(clientId, input as UserCreate, also);
        }
        if (action === 'upsert') {
          // A manager import's row: the user with this email is updated (the attributes sent), or created.
          checkCreate(input);
          const existing = await this.repo.idByEmail(clientId, (input as UserCreate).email);
          return existing === undefined
            ? this.create(clientId, input as UserCreate, also)
            : this.patch(clientId, existing, input as UserPatch, also);
        }
        checkKeys(input);
        const { manager_id, data } = input as { manager_id: string; data: unknown };
        if (action === 'patch') {
          checkPatch(data);
          return this.patch(clientId, manager_id, data as UserPatch, also);
        }
        checkPut(data);
        return this.put(clientId, manager_id, data as UserPut, also);
      },
    });
  }

  /** The stored attributes of an input; `saml` is the new token hash, null to remove it, undefined to keep it. */
  private attributes(
    input: UserInput,
    mode: 'replace' | 'merge',
  ): { attrs: Partial<UserAttributes>; saml: string | null | undefined } {
    const attrs: Partial<UserAttributes> = {};
    for (const key of ['firstname', 'lastname', 'email'] as const) {
      const value = input[key];
      if (value !== undefined) attrs[key] = value;
    }
    for (const [wire, key] of NULLABLE) {
      const value = input[wire];
      if (value !== undefined) attrs[key] = value;
      else if (mode === 'replace') attrs[key] = null;
    }
    if (typeof attrs.language === 'string') attrs.language = attrs.language.toLowerCase();
    const saml =
      input.saml_token === undefined ? undefined : input.saml_token === null ? null : hashSecret(input.saml_token);
    return { attrs, saml };
  }

  /** Every rule the schema cannot express; all broken rules are reported at once. */
  private async check(
    repo: UsersRepository,
    clientId: HrTenantId,
    userId: string | undefined,
    attrs: Partial<UserAttributes>,
    profiles: ProfileInput[],
    knownProfileIds: Set<string>,
  ): Promise<void> {
    const errors: FieldError[] = [];
    if (typeof attrs.timezone === 'string') {
      const zone = canonicalTimeZone(attrs.timezone);
      if (zone === undefined) {
        errors.push({
          field: 'timezone',
          code: 'invalid_choice',
          message: 'Expected an IANA time zone (Area/Location).',
        });
      } else {
        attrs.timezone = zone;
      }
    }
    if (attrs.email !== undefined && (await repo.emailTaken(clientId, attrs.email, userId))) {
      errors.push({ field: 'email', code: 'already_exists', message: 'Another user of this client has this email.' });
    }
    if (typeof attrs.externalId === 'string' && (await repo.externalIdTaken(clientId, attrs.externalId, userId))) {
      errors.push({
        field: 'external_id',
        code: 'already_exists',
        message: 'Another user of this client has this external id.',
      });
    }
    errors.push(...(await this.checkProfiles(repo, clientId, profiles, knownProfileIds)));
    if (errors.length) throw new FieldValidationError(errors);
  }

  private async checkProfiles(
    repo: UsersRepository,
    clientId: HrTenantId,
    profiles: ProfileInput[],
    knownProfileIds: Set<string>,
  ): Promise<FieldError[]> {
    if (profiles.length === 0) return [];
    const refs = perimeterReferences(profiles.map((p) => p.employees_perimeter));
    const [roles, organizations, groups, fields] = await Promise.all([
      repo.existingRoleIds(
        clientId,
        profiles.map((p) => p.role_id),
      ),
      repo.perimeters.existingOrganizations(clientId, refs.organizations),
      repo.perimeters.existingGroups(clientId, refs.groups),
      repo.perimeters.customFields(clientId, refs.fields),
    ]);
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    profiles.forEach((profile, i) => {
      const at = `profiles.${i}`;
      if (profile.id !== undefined) {
        if (seen.has(profile.id)) {
          errors.push({ field: `${at}.id`, code: 'duplicate_items', message: 'This profile is sent twice.' });
        } else if (!knownProfileIds.has(profile.id)) {
          errors.push({ field: `${at}.id`, code: 'not_found', message: 'This user has no profile with this id.' });
        }
        seen.add(profile.id);
      }
      if (!roles.has(profile.role_id)) errors.push(notFound(`${at}.role_id`, 'role'));
      errors.push(
        ...perimeterErrors(`${at}.employees_perimeter`, profile.employees_perimeter, { organizations, groups, fields }),
      );
    });
    return errors;
  }

  /** Profiles as stored: new ones get a UUID, kept ones their id. */
  private profiles(inputs: ProfileInput[]): ProfileRecord[] {
    return inputs.map((p) => ({
      id: p.id ?? newId(),
      roleId: p.role_id,
      employeesPerimeter: storedPerimeter(p.employees_perimeter),
    }));
  }

  /** A concurrent write that slipped past the checks still meets the unique indexes: the same 422, never a 500. */
  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const field = uniqueViolationField(error);
      if (field === undefined) throw error;
      throw new FieldValidationError([
        { field, code: 'already_exists', message: `Another user of this client has this ${field.replace('_', ' ')}.` },
      ]);
    }
  }

  /**
   * May this actor view / upload / update / share / delete documents of a
   * type in an organization? An application may do anything, or only view
   * when read-only. A user may when one of their profiles has a role that the
   * document type grants the permission to, on a perimeter that covers one of
   * the document's organizations (and, for an employee document, the
   * employee's custom field values).
   */
  async mayActOnDocuments(clientId: HrTenantId, query: DocumentAccessQuery): Promise<boolean> {
    // An action name wins over the permission value of the same spelling (`update`, `share`, `delete`).
    const needed: readonly string[] = Object.hasOwn(DOCUMENT_ACTION_PERMISSIONS, query.action)
      ? DOCUMENT_ACTION_PERMISSIONS[query.action as DocumentAction]
      : [query.action];
    const { actor } = query;
    if (actor.kind === 'application') {
      const readOnlyPermissions: readonly string[] = [...DOCUMENT_ACTION_PERMISSIONS.view, 'view_expired'];
      return !actor.readOnly || needed.every((p) => readOnlyPermissions.includes(p));
    }
    const roles = new Set(
      query.userAccessPermissions.filter((g) => g.permissions.some((p) => needed.includes(p))).map((g) => g.role_id),
    );
    if (roles.size === 0) return false;
    const profiles = ((await this.repo.profilesOf(clientId, [actor.userId])).get(actor.userId) ?? []).filter((p) =>
      roles.has(p.roleId),
    );
    for (const profile of profiles) {
      if (await this.covers(clientId, profile.employeesPerimeter, query)) return true;
    }
    return false;
  }

  private async covers(
    clientId: HrTenantId,
    perimeter: EmployeesPerimeter,
    query: DocumentAccessQuery,
  ): Promise<boolean> {
    if (
      query.employeeCustomFields !== null &&
      !matchesFilters(perimeter.custom_field_filters, query.employeeCustomFields)
    ) {
      return false;
    }
    const { organization_id: org, organization_group_id: group } = perimeter;
    if (org !== null) {
      if (perimeter.operator === '=') return query.organizationIds.includes(org);
      for (const candidate of query.organizationIds) {
        if ((await this.repo.perimeters.selfAndAncestors(clientId, [candidate])).has(org)) return true;
      }
      return false;
    }
    if (group !== null)
      return (await this.repo.perimeters.groupsContaining(clientId, query.organizationIds)).has(group);
    return true;
  }
}
