import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { customFieldEvents } from './events.js';
import { presentCustomField, presentLabels } from './present.js';
import type { AuthorizedValue, CustomFieldRecord, CustomFieldsRepository, CustomFieldValues } from './repository.js';
import type { CustomFieldPatch, CustomFieldType } from './schemas.js';

export type { AuthorizedValue } from './repository.js';

/** A custom field as the rules see it. */
export interface CustomFieldDef {
  row: CustomFieldRecord;
  type: CustomFieldType;
  authorizedValues: AuthorizedValue[];
}

export function customFieldDef(row: CustomFieldRecord): CustomFieldDef {
  return { row, type: row.type, authorizedValues: row.authorizedValues };
}

/** The repositories custom fields work with. */
export interface CustomFieldsWork {
  customFields: CustomFieldsRepository;
}

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Checks a value against a custom field's type (reference §3a.4): booleans
 * are `true`/`false`, `list` and `int` values must be authorized values.
 * Returns an error message, or undefined when the value fits.
 */
export function checkValue(def: CustomFieldDef, value: string): string | undefined {
  switch (def.type) {
    case 'bool':
      return value === 'true' || value === 'false' ? undefined : 'Expected `true` or `false`.';
    case 'string':
      return value.length <= 255 ? undefined : 'At most 255 characters.';
    default:
      return def.authorizedValues.some((v) => v.value === value)
        ? undefined
        : `Expected one of the authorized values: ${def.authorizedValues.map((v) => v.value).join(', ')}.`;
  }
}

/** Custom employee attributes (reference §3g.3). */
export class CustomFieldsService {
  private readonly repo: CustomFieldsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<CustomFieldsWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.customFields;
  }

  list(clientId: HrTenantId, request: PageRequest): Promise<Page<CustomFieldRecord>> {
    return this.repo.page(clientId, request);
  }

  async get(clientId: HrTenantId, id: string): Promise<CustomFieldRecord> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('custom field', id);
    return row;
  }

  async definitions(clientId: HrTenantId): Promise<Map<string, CustomFieldDef>> {
    return new Map((await this.repo.all(clientId)).map((r) => [r.id, customFieldDef(r)]));
  }

  private validate(
    merged: Required<Omit<CustomFieldPatch, 'authorized_values'>> & { authorized_values: AuthorizedValue[] },
    existing?: CustomFieldRecord,
  ): void {
    const errors: FieldError[] = [];
    const type = merged.type;
    if (existing && existing.type !== type)
      errors.push({ field: 'type', code: 'immutable', message: 'The type of a custom field cannot change.' });
    const values = merged.authorized_values;
    if ((type === 'list' || type === 'int') && values.length === 0) {
      errors.push({
        field: 'authorized_values',
        code: 'required',
        message: 'list and int fields need authorized values.',
      });
    }
    const seen = new Set<string>();
    values.forEach((v, i) => {
      if (type === 'list' && v.value.includes(',')) {
        errors.push({
          field: `authorized_values.${i}.value`,
          code: 'invalid_format',
          message: 'A list value cannot contain a comma.',
        });
      }
      if (type === 'int' && !/^-?\d+$/.test(v.value)) {
        errors.push({
          field: `authorized_values.${i}.value`,
          code: 'invalid_format',
          message: 'An int value must be an integer.',
        });
      }
      const key = slug(v.value);
      if (seen.has(key))
        errors.push({
          field: `authorized_values.${i}.value`,
          code: 'duplicate',
          message: 'This value is already listed.',
        });
      seen.add(key);
    });
    if (existing) {
      const kept = new Set(values.map((v) => v.value));
      const removed = existing.authorizedValues.filter((v) => !kept.has(v.value));
      if (removed.length) {
        errors.push({
          field: 'authorized_values',
          code: 'immutable',
          message: `Existing values cannot be removed or changed, only relabelled: ${removed.map((v) => v.value).join(', ')}.`,
        });
      }
    }
    if (merged.hierarchical && type !== 'int') {
      errors.push({ field: 'hierarchical', code: 'invalid', message: 'Only int fields can be hierarchical.' });
    }
    const def = merged.default_value;
    if (def !== null && def !== undefined) {
      const message = checkValue({ row: existing as CustomFieldRecord, type, authorizedValues: values }, def);
      if (message) errors.push({ field: 'default_value', code: 'invalid_choice', message });
    }
    if (errors.length) throw new FieldValidationError(errors);
  }

  private values(
    merged: Required<Omit<CustomFieldPatch, 'authorized_values'>> & { authorized_values: AuthorizedValue[] },
    at: number,
  ): CustomFieldValues {
    return {
      label: merged.label,
      type: merged.type,
      authorizedValues: merged.authorized_values,
      hierarchical: merged.hierarchical,
      defaultValue: merged.default_value ?? null,
      localizedLabels: (merged.localized_labels ?? []).map((l) => ({ languageCode: l.language_code, value: l.value })),
      visible: merged.visible,
      allowAccessRestrictions: merged.allow_access_restrictions,
      updatedAt: at,
    };
  }

  private static normalise(
    values: { value: string; label: string; code?: string | null | undefined }[] | undefined,
  ): AuthorizedValue[] {
    return (values ?? []).map((v) => ({ value: v.value, label: v.label, code: v.code ?? null }));
  }

  /** PUT: create (201) or replace (200). Updates apply at once (the real API may answer 202). */
  async put(
    clientId: HrTenantId,
    id: string,
    input: Required<Pick<CustomFieldPatch, 'label' | 'type'>> & CustomFieldPatch,
  ): Promise<{ row: CustomFieldRecord; created: boolean }> {
    return this.work.run(async ({ customFields: repo, audit }) => {
      const existing = await repo.find(clientId, id);
      const merged = {
        label: input.label,
        type: input.type,
        authorized_values: CustomFieldsService.normalise(input.authorized_values),
        hierarchical: input.hierarchical ?? false,
        default_value: input.default_value ?? null,
        localized_labels: input.localized_labels ?? [],
        visible: input.visible ?? true,
        allow_access_restrictions: input.allow_access_restrictions ?? false,
      };
      this.validate(merged, existing);
      const at = this.clock.now();
      const created = existing ? false : await repo.insertIfAbsent(clientId, id, this.values(merged, at), at);
      if (!created) await repo.update(clientId, id, this.values(merged, at));
      const row = (await repo.find(clientId, id)) as CustomFieldRecord;
      await audit.record(clientId, customFieldEvents, created ? 'created' : 'updated', {
        id,
        name: row.label,
        data: presentCustomField(row),
      });
      return { row, created };
    });
  }

  async patch(clientId: HrTenantId, id: string, input: CustomFieldPatch): Promise<CustomFieldRecord> {
    return this.work.run(async ({ customFields: repo, audit }) => {
      const existing = await repo.find(clientId, id);
      if (!existing) throw new NotFoundError('custom field', id);
      const merged = {
        label: input.label ?? existing.label,
        type: input.type ?? existing.type,
        authorized_values:
          input.authorized_values !== undefined
            ? CustomFieldsService.normalise(input.authorized_values)
            : existing.authorizedValues,
        hierarchical: input.hierarchical ?? existing.hierarchical,
        default_value: input.default_value !== undefined ? input.default_value : existing.defaultValue,
        localized_labels: input.localized_labels ?? presentLabels(existing.localizedLabels),
        visible: input.visible ?? existing.visible,
        allow_access_restrictions: input.allow_access_restrictions ?? existing.allowAccessRestrictions,
      };
      this.validate(merged, existing);
      await repo.update(clientId, id, this.values(merged, this.clock.now()));
      const row = (await repo.find(clientId, id)) as CustomFieldRecord;
      await audit.record(clientId, customFieldEvents, 'updated', {
        id,
        name: row.label,
        data: presentCustomField(row),
      });
      return row;
    });
  }
}
