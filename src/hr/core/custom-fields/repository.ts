import type { Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { prepared } from '../../../platform/db/prepared.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { Tenant } from '../../../platform/db/tenant.js';
import type { HrCustomFieldsTable } from './tables.js';

export interface AuthorizedValue {
  value: string;
  label: string;
  code: string | null;
}

/** A label of the field in one language. */
export interface LocalizedLabel {
  languageCode: string;
  value: string;
}

/** A custom field as the domain sees it: its lists decoded, its flags booleans. */
export interface CustomFieldRecord {
  pk: number;
  id: string;
  label: string;
  type: HrCustomFieldsTable['type'];
  authorizedValues: AuthorizedValue[];
  hierarchical: boolean;
  defaultValue: string | null;
  localizedLabels: LocalizedLabel[];
  visible: boolean;
  allowAccessRestrictions: boolean;
  createdAt: number;
  updatedAt: number;
}

/** What a write sets (the code and creation instant are the row's own). */
export type CustomFieldValues = Omit<CustomFieldRecord, 'pk' | 'id' | 'createdAt'>;

/** The labels as stored (the wire's names). */
type StoredLabel = { language_code: string; value: string };

function toRecord(row: Selectable<HrCustomFieldsTable>): CustomFieldRecord {
  return {
    pk: Number(row.pk),
    id: row.id,
    label: row.label,
    type: row.type,
    authorizedValues: JSON.parse(row.authorized_values) as AuthorizedValue[],
    hierarchical: row.hierarchical === 1,
    defaultValue: row.default_value,
    localizedLabels: (JSON.parse(row.localized_labels) as StoredLabel[]).map((l) => ({
      languageCode: l.language_code,
      value: l.value,
    })),
    visible: row.visible === 1,
    allowAccessRestrictions: row.allow_access_restrictions === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

const flag = (value: boolean) => (value ? 1 : 0);

function toColumns(values: CustomFieldValues) {
  const labels = values.localizedLabels.map((l): StoredLabel => ({ language_code: l.languageCode, value: l.value }));
  return {
    label: values.label,
    type: values.type,
    authorized_values: JSON.stringify(values.authorizedValues),
    hierarchical: flag(values.hierarchical),
    default_value: values.defaultValue,
    localized_labels: JSON.stringify(labels),
    visible: flag(values.visible),
    allow_access_restrictions: flag(values.allowAccessRestrictions),
    updated_at: values.updatedAt,
  };
}

/** Read on every employee view, so prepared once (src/platform/db/prepared.ts). */
const allFields = prepared((db: Db, p: { clientId: HrTenantId }) =>
  new Tenant<Tables>(db, p.clientId).selectFrom('hr_custom_fields').selectAll().orderBy('pk'),
);

/** In creation order. */
const ORDER: ListOrder = { tiebreak: 'f.pk' };

export class CustomFieldsRepository extends HrRepository {
  async page(clientId: HrTenantId, request: PageRequest): Promise<Page<CustomFieldRecord>> {
    const base = this.tenant(clientId).selectFrom('hr_custom_fields as f').selectAll('f');
    const page = await listPage(base, ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<CustomFieldRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_custom_fields')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async all(clientId: HrTenantId): Promise<CustomFieldRecord[]> {
    return (await allFields.all(this.db, { clientId })).map(toRecord);
  }

  insertIfAbsent(clientId: HrTenantId, id: string, values: CustomFieldValues, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('hr_custom_fields', { ...toColumns(values), id, created_at: at });
  }

  async update(clientId: HrTenantId, id: string, values: CustomFieldValues): Promise<void> {
    await this.tenant(clientId).updateTable('hr_custom_fields').set(toColumns(values)).where('id', '=', id).execute();
  }
}
