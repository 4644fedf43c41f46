import type { FieldError } from '../../../platform/errors.js';

/**
 * Employee perimeters (`EmployeesPerimeterBase`, reference "Employee
 * perimeters"), shared by every resource that restricts something to some
 * employees: user profiles, knowledge-base articles, … Pure rules only: the
 * callers read the facts (organizations, groups, custom fields) themselves.
 */

export type PerimeterOperator = '=' | '<=';
export type FilterOperator = '=' | '!=' | '<=' | '<' | '>=' | '>';

export interface CustomFieldFilter {
  custom_field_id: string;
  operator: FilterOperator;
  value: string;
}

export interface EmployeesPerimeter {
  operator: PerimeterOperator;
  organization_id: string | null;
  organization_group_id: string | null;
  custom_field_filters: CustomFieldFilter[];
}

/** A perimeter as sent: the organization and group may be left out. */
export interface PerimeterInput {
  operator: PerimeterOperator;
  organization_id?: string | null;
  organization_group_id?: string | null;
  custom_field_filters: CustomFieldFilter[];
}

/** What perimeter rules need to know about a custom field. */
export interface CustomFieldFacts {
  id: string;
  type: string;
  hierarchical: boolean;
  allowAccessRestrictions: boolean;
  authorizedValues: string[];
}

/** The client's objects a set of perimeters refers to, looked up by the caller. */
export interface PerimeterReferences {
  organizations: ReadonlySet<string>;
  groups: ReadonlySet<string>;
  fields: ReadonlyMap<string, CustomFieldFacts>;
}

const INEQUALITIES: readonly FilterOperator[] = ['<', '<=', '>', '>='];

function notFound(field: string, what: string): FieldError {
  return { field, code: 'not_found', message: `No ${what} has this code.` };
}

/** The perimeter as stored: an organization or group left out is null. */
export function storedPerimeter(p: PerimeterInput): EmployeesPerimeter {
  return {
    operator: p.operator,
    organization_id: p.organization_id ?? null,
    organization_group_id: p.organization_group_id ?? null,
    custom_field_filters: p.custom_field_filters.map((f) => ({
      custom_field_id: f.custom_field_id,
      operator: f.operator,
      value: f.value,
    })),
  };
}

/** Every organization, group and custom field a list of perimeters names (to look them up in one go). */
export function perimeterReferences(perimeters: readonly PerimeterInput[]): {
  organizations: string[];
  groups: string[];
  fields: string[];
} {
  return {
    organizations: perimeters.flatMap((p) => (p.organization_id ? [p.organization_id] : [])),
    groups: perimeters.flatMap((p) => (p.organization_group_id ? [p.organization_group_id] : [])),
    fields: perimeters.flatMap((p) => p.custom_field_filters.map((f) => f.custom_field_id)),
  };
}

/**
 * The rules of one perimeter, as field errors at `path` (`profiles.0.employees_perimeter`): the organization,
 * group and custom fields must exist; not both an organization and a group; `=` with a group; inequalities only
 * on hierarchical int fields; each value must fit its field.
 */
export function perimeterErrors(path: string, perimeter: PerimeterInput, known: PerimeterReferences): FieldError[] {
  const errors: FieldError[] = [];
  const org = perimeter.organization_id ?? null;
  const group = perimeter.organization_group_id ?? null;
  if (org !== null && !known.organizations.has(org)) errors.push(notFound(`${path}.organization_id`, 'organization'));
  if (group !== null) {
    if (org !== null) {
      errors.push({
        field: `${path}.organization_group_id`,
        code: 'not_allowed',
        message: 'Give organization_id or organization_group_id, not both.',
      });
    } else if (!known.groups.has(group)) {
      errors.push(notFound(`${path}.organization_group_id`, 'organization group'));
    }
    if (perimeter.operator !== '=') {
      errors.push({
        field: `${path}.operator`,
        code: 'not_allowed',
        message: 'The operator must be "=" with organization_group_id.',
      });
    }
  }
  perimeter.custom_field_filters.forEach((rule, k) => {
    const rat = `${path}.custom_field_filters.${k}`;
    const field = known.fields.get(rule.custom_field_id);
    if (!field) {
      errors.push(notFound(`${rat}.custom_field_id`, 'custom field'));
      return;
    }
    if (!field.allowAccessRestrictions) {
      errors.push({
        field: `${rat}.custom_field_id`,
        code: 'not_allowed',
        message: 'This custom field does not allow access restrictions.',
      });
    }
    if (INEQUALITIES.includes(rule.operator) && !(field.type === 'int' && field.hierarchical)) {
      errors.push({
        field: `${rat}.operator`,
        code: 'not_allowed',
        message: `"${rule.operator}" is only allowed on hierarchical int custom fields.`,
      });
    }
    const valueError = checkValue(field.type, field.authorizedValues, rule.value);
    if (valueError) errors.push({ field: `${rat}.value`, ...valueError });
  });
  return errors;
}

/** A perimeter filter value must fit its custom field's type. */
function checkValue(type: string, authorized: string[], value: string): { code: string; message: string } | undefined {
  if (type === 'bool' && value !== 'true' && value !== 'false') {
    return { code: 'invalid_choice', message: 'Expected "true" or "false".' };
  }
  if (type === 'int' && !/^-?\d+$/.test(value)) return { code: 'invalid_format', message: 'Expected an integer.' };
  if ((type === 'list' || type === 'int') && authorized.length > 0 && !authorized.includes(value)) {
    return { code: 'invalid_choice', message: 'Expected one of the authorized values of the custom field.' };
  }
  return undefined;
}

/** Rules on the same custom field are OR-ed; rules on different fields are AND-ed. */
export function matchesFilters(
  filters: readonly CustomFieldFilter[],
  values: Readonly<Record<string, string>>,
): boolean {
  const byField = new Map<string, CustomFieldFilter[]>();
  for (const f of filters) byField.set(f.custom_field_id, [...(byField.get(f.custom_field_id) ?? []), f]);
  for (const [fieldId, rules] of byField) {
    const value = values[fieldId];
    if (!rules.some((rule) => matches(rule, value))) return false;
  }
  return true;
}

/** One rule against the employee's value; a missing value satisfies only `!=`. */
function matches(rule: CustomFieldFilter, value: string | undefined): boolean {
  if (value === undefined) return rule.operator === '!=';
  switch (rule.operator) {
    case '=':
      return value === rule.value;
    case '!=':
      return value !== rule.value;
    default: {
      const [a, b] = [Number(value), Number(rule.value)];
      if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
      if (rule.operator === '<') return a < b;
      if (rule.operator === '<=') return a <= b;
      if (rule.operator === '>') return a > b;
      return a >= b;
    }
  }
}

/** What decides whether a perimeter covers one employee. */
export interface EmployeeFacts {
  /** The employee's organizations. */
  organizationIds: ReadonlySet<string>;
  /** Those organizations and every ancestor of them (what a `<=` perimeter may name). */
  organizationsAndAncestors: ReadonlySet<string>;
  /** The groups holding one of the employee's organizations. */
  groupIds: ReadonlySet<string>;
  /** The employee's custom field values, by custom field code. */
  customFields: Readonly<Record<string, string>>;
}

/**
 * Whether the perimeter covers the employee: `=` an organization of theirs, `<=` one of theirs or an ancestor
 * of one, a group holding one of theirs, or no organization nor group (everyone); and the custom field rules.
 */
export function coversEmployee(perimeter: EmployeesPerimeter, employee: EmployeeFacts): boolean {
  if (!matchesFilters(perimeter.custom_field_filters, employee.customFields)) return false;
  const { organization_id: org, organization_group_id: group } = perimeter;
  if (org !== null) {
    return perimeter.operator === '=' ? employee.organizationIds.has(org) : employee.organizationsAndAncestors.has(org);
  }
  if (group !== null) return employee.groupIds.has(group);
  return true;
}
