import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { Page } from '../../../platform/db/keyset.js';
import { type ListOrder, listPage, type PageRequest } from '../../../platform/db/listing.js';
import { HrRepository } from '../../../platform/db/repository.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { Tenant } from '../../../platform/db/tenant.js';
import type { PaKbCategoriesTable } from './tables.js';

type KbCategoryRow = Selectable<PaKbCategoriesTable>;

export interface LocalizedText {
  language_code: string;
  value: string;
}

/** A category as the domain sees it: flags as booleans, localized texts decoded. */
export interface KbCategoryRecord {
  pk: number;
  id: string;
  slug: string;
  sortOrder: number;
  orderKey: string;
  originalLanguageCode: string;
  iconClass: string | null;
  disableDefaultForm: boolean;
  defaultFormId: string | null;
  visibleToEmployee: boolean;
  localizedName: LocalizedText[];
  localizedDescription: LocalizedText[];
  createdAt: number;
  updatedAt: number;
}

export type KbCategoryValues = Omit<KbCategoryRecord, 'pk' | 'id' | 'createdAt' | 'updatedAt'>;

function toRecord(row: KbCategoryRow): KbCategoryRecord {
  return {
    pk: row.pk,
    id: row.id,
    slug: row.slug,
    sortOrder: Number(row.sort_order),
    orderKey: row.order_key,
    originalLanguageCode: row.original_language_code,
    iconClass: row.icon_class,
    disableDefaultForm: Boolean(row.disable_default_form),
    defaultFormId: row.default_form_id,
    visibleToEmployee: Boolean(row.visible_to_employee),
    localizedName: JSON.parse(row.localized_name) as LocalizedText[],
    localizedDescription: JSON.parse(row.localized_description) as LocalizedText[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(
  values: KbCategoryValues,
): Omit<Insertable<PaKbCategoriesTable>, 'client_id' | 'id' | 'created_at' | 'updated_at'> {
  return {
    slug: values.slug,
    sort_order: values.sortOrder,
    order_key: values.orderKey,
    original_language_code: values.originalLanguageCode,
    icon_class: values.iconClass,
    disable_default_form: values.disableDefaultForm ? 1 : 0,
    default_form_id: values.defaultFormId,
    visible_to_employee: values.visibleToEmployee ? 1 : 0,
    localized_name: JSON.stringify(values.localizedName),
    localized_description: JSON.stringify(values.localizedDescription),
  };
}

export interface KbCategoryFilter {
  originalLanguageCode?: string;
}

/** Lists are always in `order`; the internal key breaks ties. */
const ORDER: ListOrder = { fixed: [{ term: 'order_key', direction: 'asc' }], tiebreak: 'pk' };

/**
 * What links a category to other objects, each a named check: a category is only deleted when none finds a link.
 * The answer lists every code found (`KbCategoryDeletionError`).
 */
export interface CategoryLinkCheck {
  /** The reference's error code (`category_has_linked_articles`, …). */
  code: string;
  message: string;
  linked(db: Db, clientId: HrTenantId, categoryId: string): Promise<boolean>;
}

/** Whether a query finds a row (it reads one at most). */
async function found(query: { limit(n: number): { executeTakeFirst(): Promise<unknown> } }): Promise<boolean> {
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * The links this branch knows. The request forms (`pa_request_forms.category_id`) and requests
 * (`pa_requests.category_id`) are added where those tables exist, with these codes:
 * - `category_has_linked_forms`: a request form of the client has this `category_id`;
 * - `category_has_linked_requests`: an open request of the client has this `category_id`;
 * - `category_default_form_has_linked_entities`: the category's default form has macros or trigger rules.
 * Add an entry per link: `KbCategoriesService.delete` runs them all in the deleting transaction.
 */
export const CATEGORY_LINK_CHECKS: CategoryLinkCheck[] = [
  {
    code: 'category_has_linked_articles',
    message: 'Articles are filed in this category.',
    linked(db, clientId, categoryId) {
      return found(
        new Tenant<Tables>(db, clientId)
          .selectFrom('pa_kb_article_categories')
          .select('article_pk')
          .where('category_id', '=', categoryId),
      );
    },
  },
  {
    code: 'category_has_linked_forms',
    message: 'Request forms belong to this category.',
    linked(db, clientId, categoryId) {
      return found(
        new Tenant<Tables>(db, clientId)
          .selectFrom('pa_request_forms')
          .select('pk')
          .where('category_id', '=', categoryId),
      );
    },
  },
  {
    code: 'category_has_linked_requests',
    message: 'Open requests (not closed or archived) are in this category.',
    linked(db, clientId, categoryId) {
      return found(
        new Tenant<Tables>(db, clientId)
          .selectFrom('pa_requests')
          .select('pk')
          .where('category_id', '=', categoryId)
          .where('status', 'not in', ['closed', 'archived']),
      );
    },
  },
  {
    code: 'category_default_form_has_linked_entities',
    message: 'Macros name the default form of this category.',
    async linked(db, clientId, categoryId) {
      const forms = await new Tenant<Tables>(db, clientId)
        .selectFrom('pa_request_forms')
        .select('id')
        .where('category_id', '=', categoryId)
        .where('is_default', '=', 1)
        .execute();
      if (!forms.length) return false;
      const macros = await new Tenant<Tables>(db, clientId).selectFrom('pa_macros').select('forms').execute();
      return macros.some((m) => (JSON.parse(m.forms) as string[]).some((f) => forms.some((d) => d.id === f)));
    },
  },
];

export class KbCategoriesRepository extends HrRepository {
  private scoped(clientId: HrTenantId) {
    return this.tenant(clientId).selectFrom('pa_kb_categories').selectAll();
  }

  async page(clientId: HrTenantId, filter: KbCategoryFilter, request: PageRequest): Promise<Page<KbCategoryRecord>> {
    let q = this.scoped(clientId);
    if (filter.originalLanguageCode !== undefined)
      q = q.where('original_language_code', '=', filter.originalLanguageCode);
    const page = await listPage(q, ORDER, request);
    return { ...page, items: page.items.map(toRecord) };
  }

  async find(clientId: HrTenantId, id: string): Promise<KbCategoryRecord | undefined> {
    const row = await this.scoped(clientId).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The highest `order` of the client's categories, or undefined when it has none. */
  async maxOrder(clientId: HrTenantId): Promise<number | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('pa_kb_categories')
      .select((eb) => eb.fn.max('sort_order').as('m'))
      .executeTakeFirst();
    return row?.m === null || row?.m === undefined ? undefined : Number(row.m);
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  insertIfAbsent(clientId: HrTenantId, id: string, values: KbCategoryValues, at: number): Promise<boolean> {
    return this.tenant(clientId).insertIfAbsent('pa_kb_categories', {
      ...toColumns(values),
      id,
      created_at: at,
      updated_at: at,
    });
  }

  async update(clientId: HrTenantId, id: string, values: KbCategoryValues, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_kb_categories')
      .set({ ...toColumns(values), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Moves the category to `order` (its `order_key` follows). */
  async reorder(clientId: HrTenantId, id: string, order: number, key: string, at: number): Promise<void> {
    await this.tenant(clientId)
      .updateTable('pa_kb_categories')
      .set({ sort_order: order, order_key: key, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.tenant(clientId).deleteFrom('pa_kb_categories').where('id', '=', id).execute();
  }

  /** The codes of every link that keeps the category from being deleted. */
  async links(clientId: HrTenantId, id: string): Promise<CategoryLinkCheck[]> {
    const found: CategoryLinkCheck[] = [];
    for (const check of CATEGORY_LINK_CHECKS) if (await check.linked(this.db, clientId, id)) found.push(check);
    return found;
  }
}
