import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { prepared } from '../../../platform/db/prepared.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import { Tenant } from '../../../platform/db/tenant.js';
import type { HrCustomFieldsTable } from './tables.js';

export interface AuthorizedValue {
  value: string;
  label: string;
  code: string | null;
}

/** A custom field as the domain sees it: its lists decoded, its flags booleans. */
export interface CustomFieldRecord {
  pk: number;
  id: string;
  label: string;
  type: HrCustomFieldsTable['type'];
  authorized_values: AuthorizedValue[];
  hierarchical: boolean;
  default_value: string | null;
  localized_labels: { language_code: string; value: string }[];
  visible: boolean;
  allow_access_restrictions: boolean;
  created_at: number;
  updated_at: number;
}

/** What a write sets (the code and creation instant are the row's own). */
export type CustomFieldValues = Omit<CustomFieldRecord, 'pk' | 'id' | 'created_at'>;

function toRecord(row: Selectable<HrCustomFieldsTable>): CustomFieldRecord {
  return {
    pk: row.pk,
    id: row.id,
    label: row.label,
    type: row.type,
    authorized_values: JSON.parse(row.authorized_values) as AuthorizedValue[],
    hierarchical: row.hierarchical === 1,
    default_value: row.default_value,
    localized_labels: JSON.parse(row.localized_labels) as CustomFieldRecord['localized_labels'],
    visible: row.visible === 1,
    allow_access_restrictions: row.allow_access_restrictions === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toColumns(values: Partial<CustomFieldValues>) {
  const { authorized_values, localized_labels, hierarchical, visible, allow_access_restrictions, ...plain } = values;
  return {
    ...plain,
    ...(authorized_values !== undefined ? { authorized_values: JSON.stringify(authorized_values) } : {}),
    ...(localized_labels !== undefined ? { localized_labels: JSON.stringify(localized_labels) } : {}),
    ...(hierarchical !== undefined ? { hierarchical: hierarchical ? 1 : 0 } : {}),
    ...(visible !== undefined ? { visible: visible ? 1 : 0 } : {}),
    ...(allow_access_restrictions !== undefined
      ? { allow_access_restrictions: allow_access_restrictions ? 1 : 0 }
      : {}),
  };
}

/** Read on every employee view, so prepared once (src/platform/db/prepared.ts). */
const allFields = prepared((db: Db, p: { clientId: string }) =>
  new Tenant<Tables>(db, p.clientId).selectFrom('hr_custom_fields').selectAll().orderBy('pk'),
);

/** In creation order. */
const ORDER: ListOrder = { tiebreak: 'f.pk' };

export class CustomFieldsRepository extends HrRepository {
  async page(clientId: string, request: PageRequest): Promise<Page<CustomFieldRecord>> {
    const base = this.tenant(clientId).selectFrom('hr_custom_fields as f').selectAll('f');
    const page = await listPage(base, ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: string, id: string): Promise<CustomFieldRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_custom_fields')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async all(clientId: string): Promise<CustomFieldRecord[]> {
    return (await allFields.all(this.db, { clientId })).map(toRecord);
  }

  insertIfAbsent(clientId: string, id: string, values: CustomFieldValues, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_custom_fields', {
      ...(toColumns(values) as Required<ReturnType<typeof toColumns>> & Pick<CustomFieldValues, 'label' | 'type'>),
      id,
      created_at: at,
      updated_at: values.updated_at,
    });
  }

  async update(clientId: string, id: string, values: Partial<CustomFieldValues>): Promise<void> {
    await this.tenant(clientId).updateTable('hr_custom_fields').set(toColumns(values)).where('id', '=', id).execute();
  }
}
