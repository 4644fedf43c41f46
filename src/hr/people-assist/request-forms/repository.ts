import type { Selectable, Updateable } from 'kysely';
import { existingIds } from '../../../platform/db/existing.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listCount, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import { containsText } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { FormDefinition } from '../../core/forms/schemas.js';
import type { EmployeesPerimeter } from '../../core/perimeters/rules.js';
import type { PaRequestFormsTable } from './tables.js';

/** The settings of a form (stored as JSON in `settings`). */
export interface RequestFormSettings {
  keywords: string;
  featured: boolean;
  success_message: string;
  visible_by_employee: boolean;
  visible_by_user: boolean;
  request_editable_by_employee: boolean;
  request_editable_by_user: boolean;
  employee_organization_mandatory: boolean;
  linkeable_to_employee: boolean;
  linkeable_to_organization: boolean;
  due_date_visible_by_employee: boolean;
  custom_status_visible_by_employee: boolean;
  enable_employee_feedback: boolean;
  employee_restrictions: EmployeesPerimeter[];
  user_restrictions: { roles: { id: string; name?: string }[] };
  form_group_id: number | null;
  is_default_language: boolean | null;
}

type StoredForm = Selectable<PaRequestFormsTable>;

/** A request form as the domain sees it: its settings and form definition decoded. */
export interface RequestFormRecord {
  pk: number;
  id: string;
  name: string;
  categoryId: string;
  languageCode: string;
  isDefault: boolean;
  featured: boolean;
  keywords: string;
  settings: RequestFormSettings;
  formidable: FormDefinition;
  lastHits: number;
  createdAt: number;
  updatedAt: number;
}

export type RequestFormAttributes = Omit<RequestFormRecord, 'pk' | 'id' | 'createdAt' | 'updatedAt' | 'lastHits'>;

function toRecord(row: StoredForm): RequestFormRecord {
  return {
    pk: row.pk,
    id: row.id,
    name: row.name,
    categoryId: row.category_id,
    languageCode: row.language_code,
    isDefault: row.is_default === 1,
    featured: row.featured === 1,
    keywords: row.keywords,
    settings: JSON.parse(row.settings) as RequestFormSettings,
    formidable: JSON.parse(row.formidable) as FormDefinition,
    lastHits: row.last_hits,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(attrs: Partial<RequestFormAttributes>): Updateable<PaRequestFormsTable> {
  const columns: Updateable<PaRequestFormsTable> = {};
  if (attrs.name !== undefined) columns.name = attrs.name;
  if (attrs.categoryId !== undefined) columns.category_id = attrs.categoryId;
  if (attrs.languageCode !== undefined) columns.language_code = attrs.languageCode;
  if (attrs.isDefault !== undefined) columns.is_default = attrs.isDefault ? 1 : 0;
  if (attrs.featured !== undefined) columns.featured = attrs.featured ? 1 : 0;
  if (attrs.keywords !== undefined) columns.keywords = attrs.keywords;
  if (attrs.settings !== undefined) columns.settings = JSON.stringify(attrs.settings);
  if (attrs.formidable !== undefined) columns.formidable = JSON.stringify(attrs.formidable);
  return columns;
}

export interface RequestFormFilter {
  categoryId?: string;
  isDefault?: boolean;
  languageCode?: string;
  featured?: boolean;
  q?: string;
  /** Only these forms (the forms an employee may use). */
  ids?: readonly string[];
}

export interface RequestFormSort {
  field: 'title' | 'last_hits';
  direction: 'asc' | 'desc';
}

/** `title` orders by the form's name; then the internal key. */
const ORDER: ListOrder<RequestFormSort['field']> = {
  fields: { title: 'f.name', last_hits: 'f.last_hits' },
  tiebreak: 'f.pk',
};

export class RequestFormsRepository extends HrRepository {
  private filtered(clientId: HrTenantId, f: RequestFormFilter) {
    let q = this.tenant(clientId).selectFrom('pa_request_forms as f').selectAll('f');
    if (f.categoryId !== undefined) q = q.where('f.category_id', '=', f.categoryId);
    if (f.isDefault !== undefined) q = q.where('f.is_default', '=', f.isDefault ? 1 : 0);
    if (f.languageCode !== undefined) q = q.where('f.language_code', '=', f.languageCode);
    if (f.featured !== undefined) q = q.where('f.featured', '=', f.featured ? 1 : 0);
    if (f.q !== undefined) q = q.where(containsText(['f.name', 'f.keywords'], f.q));
    if (f.ids !== undefined) q = f.ids.length ? q.where('f.id', 'in', [...f.ids]) : q.where('f.pk', '<', 0);
    return q;
  }

  async page(
    clientId: HrTenantId,
    filter: RequestFormFilter,
    request: PageRequest<RequestFormSort['field']>,
  ): Promise<Page<RequestFormRecord>> {
    const page = await listPage(this.filtered(clientId, filter), ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  count(clientId: HrTenantId, filter: RequestFormFilter): Promise<number> {
    return listCount(this.filtered(clientId, filter));
  }

  async find(clientId: HrTenantId, id: string): Promise<RequestFormRecord | undefined> {
    const row = await this.filtered(clientId, {}).where('f.id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every form of the client with employee restrictions read from its settings (for the employee filter). */
  async all(clientId: HrTenantId): Promise<RequestFormRecord[]> {
    return (await this.filtered(clientId, {}).orderBy('f.pk').execute()).map(toRecord);
  }

  insertIfAbsent(clientId: HrTenantId, id: string, attrs: RequestFormAttributes, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('pa_request_forms', {
      id,
      name: attrs.name,
      category_id: attrs.categoryId,
      language_code: attrs.languageCode,
      is_default: attrs.isDefault ? 1 : 0,
      featured: attrs.featured ? 1 : 0,
      keywords: attrs.keywords,
      settings: JSON.stringify(attrs.settings),
      formidable: JSON.stringify(attrs.formidable),
      last_hits: 0,
      created_at: at,
      updated_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, attrs: Partial<RequestFormAttributes>, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_request_forms')
      .set({ ...toColumns(attrs), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Makes `id` the only default form of its category. */
  async clearOtherDefaults(clientId: HrTenantId, categoryId: string, id: string): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_request_forms')
      .set({ is_default: 0 })
      .where('category_id', '=', categoryId)
      .where('id', '!=', id)
      .execute();
  }

  /** Which of these ids are knowledge-base categories of the client. */
  existingCategories(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'pa_kb_categories', clientId, ids);
  }

  existingRoles(clientId: HrTenantId, ids: readonly string[]): Promise<Set<string>> {
    return existingIds(this.db, 'hr_roles', clientId, ids);
  }
}
