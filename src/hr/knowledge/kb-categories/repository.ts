import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import { type KeysetColumn, type KeysetPosition, keysetPage, type Page } from '../../../platform/db/keyset.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import type { PaKbCategoriesTable } from './tables.js';

export type KbCategoryRow = Selectable<PaKbCategoriesTable>;
export type KbCategoryValues = Omit<
  Insertable<PaKbCategoriesTable>,
  'pk' | 'client_id' | 'id' | 'created_at' | 'updated_at'
>;

export interface KbCategoryFilter {
  originalLanguageCode?: string;
}

/** Lists are always in `order`; the internal key breaks ties. */
const ORDER: KeysetColumn[] = [
  { column: 'order_key', direction: 'asc' },
  { column: 'pk', direction: 'asc' },
];

/**
 * What links a category to other objects, each a named check: a category is only deleted when none finds a link.
 * The answer lists every code found (`KbCategoryDeletionError`).
 */
export interface CategoryLinkCheck {
  /** The reference's error code (`category_has_linked_articles`, …). */
  code: string;
  message: string;
  linked(db: Db, clientId: string, categoryId: string): Promise<boolean>;
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
    async linked(db, clientId, categoryId) {
      const row = await db
        .selectFrom('pa_kb_article_categories')
        .select('article_pk')
        .where('client_id', '=', clientId)
        .where('category_id', '=', categoryId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  },
  {
    code: 'category_has_linked_forms',
    message: 'Request forms belong to this category.',
    async linked(db, clientId, categoryId) {
      const row = await db
        .selectFrom('pa_request_forms')
        .select('pk')
        .where('client_id', '=', clientId)
        .where('category_id', '=', categoryId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  },
  {
    code: 'category_has_linked_requests',
    message: 'Open requests (not closed or archived) are in this category.',
    async linked(db, clientId, categoryId) {
      const row = await db
        .selectFrom('pa_requests')
        .select('pk')
        .where('client_id', '=', clientId)
        .where('category_id', '=', categoryId)
        .where('status', 'not in', ['closed', 'archived'])
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  },
  {
    code: 'category_default_form_has_linked_entities',
    message: 'Macros name the default form of this category.',
    async linked(db, clientId, categoryId) {
      const forms = await db
        .selectFrom('pa_request_forms')
        .select('id')
        .where('client_id', '=', clientId)
        .where('category_id', '=', categoryId)
        .where('is_default', '=', 1)
        .execute();
      if (!forms.length) return false;
      const macros = await db.selectFrom('pa_macros').select('forms').where('client_id', '=', clientId).execute();
      return macros.some((m) => (JSON.parse(m.forms) as string[]).some((f) => forms.some((d) => d.id === f)));
    },
  },
];

export class KbCategoriesRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: KbCategoriesRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new KbCategoriesRepository(trx)));
  }

  private scoped(clientId: string) {
    return this.db.selectFrom('pa_kb_categories').selectAll().where('client_id', '=', clientId);
  }

  page(
    clientId: string,
    filter: KbCategoryFilter,
    limit: number,
    position?: KeysetPosition,
  ): Promise<Page<KbCategoryRow>> {
    let q = this.scoped(clientId);
    if (filter.originalLanguageCode !== undefined)
      q = q.where('original_language_code', '=', filter.originalLanguageCode);
    return keysetPage(q, ORDER, (r) => [r.order_key, r.pk], limit, position);
  }

  find(clientId: string, id: string): Promise<KbCategoryRow | undefined> {
    return this.scoped(clientId).where('id', '=', id).executeTakeFirst();
  }

  /** The highest `order` of the client's categories, or undefined when it has none. */
  async maxOrder(clientId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('pa_kb_categories')
      .select((eb) => eb.fn.max('sort_order').as('m'))
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row?.m === null || row?.m === undefined ? undefined : Number(row.m);
  }

  /** Inserts unless the id exists; returns whether it inserted (concurrent creates of one id cannot both win). */
  async insertIfAbsent(clientId: string, id: string, values: KbCategoryValues, at: number): Promise<boolean> {
    const row = await this.db
      .insertInto('pa_kb_categories')
      .values({ client_id: clientId, id, ...values, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['client_id', 'id']).doNothing())
      .returning('pk')
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(clientId: string, id: string, values: Partial<KbCategoryValues>, at: number): Promise<void> {
    await this.db
      .updateTable('pa_kb_categories')
      .set({ ...values, updated_at: at })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .execute();
  }

  async delete(clientId: string, id: string): Promise<void> {
    await this.db.deleteFrom('pa_kb_categories').where('client_id', '=', clientId).where('id', '=', id).execute();
  }

  /** The codes of every link that keeps the category from being deleted. */
  async links(clientId: string, id: string): Promise<CategoryLinkCheck[]> {
    const found: CategoryLinkCheck[] = [];
    for (const check of CATEGORY_LINK_CHECKS) if (await check.linked(this.db, clientId, id)) found.push(check);
    return found;
  }
}
