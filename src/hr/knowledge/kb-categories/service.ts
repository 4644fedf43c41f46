import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { kbCategoryEvents } from './events.js';
import { presentKbCategory } from './present.js';
import type { KbCategoriesRepository, KbCategoryRecord, KbCategoryValues } from './repository.js';
import type { KbCategoryListQuery, KbCategoryPatch, KbCategoryPut, LocalizedString } from './schemas.js';

/** `order` as 16 hex digits that sort like the number: the IEEE 754 bits, sign flipped (negatives all flipped). */
export function orderKey(order: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(order === 0 ? 0 : order);
  if ((bytes[0] as number) & 0x80) for (let i = 0; i < 8; i++) bytes[i] = ~(bytes[i] as number) & 0xff;
  else bytes[0] = (bytes[0] as number) ^ 0x80;
  return bytes.toString('hex');
}

/** A slug made of a text: lower-case ASCII letters and digits separated by dashes. */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 255)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** Field errors for a language given twice in a localized list. */
export function duplicateLanguages(field: string, items: readonly { language_code: string }[]): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (seen.has(item.language_code)) {
      errors.push({
        field: `${field}.${i}.language_code`,
        code: 'duplicate_items',
        message: 'One entry per language: this language is given twice.',
      });
    }
    seen.add(item.language_code);
  });
  return errors;
}

/** The repositories this service's writes touch, bound to one transaction in `work.run`. */
export interface KbCategoriesWork {
  kbCategories: KbCategoriesRepository;
}

/**
 * Knowledge-base categories (reference §3e.1): client-chosen UUIDs, always
 * listed by `order`; deleted only when nothing links to them.
 */
export class KbCategoriesService {
  private readonly repo: KbCategoriesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<KbCategoriesWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.kbCategories;
  }

  list(clientId: HrTenantId, query: KbCategoryListQuery, request: PageRequest): Promise<Page<KbCategoryRecord>> {
    return this.repo.page(
      clientId,
      query.original_language_code !== undefined ? { originalLanguageCode: query.original_language_code } : {},
      request,
    );
  }

  async get(clientId: HrTenantId, id: string): Promise<KbCategoryRecord> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('category', id);
    return row;
  }

  /**
   * PUT: creates (`created`) or replaces the category. Left-out optional attributes return to their defaults,
   * except `order` and `slug`, which keep their values (a new category goes after every other one).
   */
  async put(
    clientId: HrTenantId,
    id: string,
    input: KbCategoryPut,
  ): Promise<{ category: KbCategoryRecord; created: boolean }> {
    const errors = [
      ...duplicateLanguages('localized_name', input.localized_name),
      ...duplicateLanguages('localized_description', input.localized_description ?? []),
    ];
    if (errors.length) throw new FieldValidationError(errors);
    const names: LocalizedString[] = input.localized_name;
    const first = names[0] as LocalizedString;
    return this.work.run(async ({ kbCategories: repo, audit }) => {
      const existing = await repo.find(clientId, id);
      const order = input.order ?? existing?.sortOrder ?? ((await repo.maxOrder(clientId)) ?? 0) + 1;
      const values: KbCategoryValues = {
        slug: input.slug ?? existing?.slug ?? slugify(first.value, id),
        sortOrder: order,
        orderKey: orderKey(order),
        originalLanguageCode: input.original_language_code ?? first.language_code,
        iconClass: input.icon_class ?? null,
        disableDefaultForm: input.disable_default_form === true,
        defaultFormId: input.default_form_id ?? null,
        visibleToEmployee: input.visible_to_employee !== false,
        localizedName: names.map((n) => ({ language_code: n.language_code, value: n.value })),
        localizedDescription: (input.localized_description ?? []).map((n) => ({
          language_code: n.language_code,
          value: n.value,
        })),
      };
      const at = this.clock.now();
      let created = false;
      if (!existing) created = await repo.insertIfAbsent(clientId, id, values, at);
      if (!created) await repo.update(clientId, id, values, at);
      const category = (await repo.find(clientId, id)) as KbCategoryRecord;
      await audit.record(clientId, kbCategoryEvents, created ? 'created' : 'updated', eventOf(category));
      return { category, created };
    });
  }

  /** PATCH: changes the `order` only. */
  async patch(clientId: HrTenantId, id: string, input: KbCategoryPatch): Promise<KbCategoryRecord> {
    return this.work.run(async ({ kbCategories: repo, audit }) => {
      if (!(await repo.find(clientId, id))) throw new NotFoundError('category', id);
      await repo.reorder(clientId, id, input.order, orderKey(input.order), this.clock.now());
      const category = (await repo.find(clientId, id)) as KbCategoryRecord;
      await audit.record(clientId, kbCategoryEvents, 'updated', eventOf(category));
      return category;
    });
  }

  /**
   * DELETE: refused (400, every link found listed in `errors`) while anything links to the category. The row is
   * deleted first, then the links are checked in the same transaction: a write linking the category at the same
   * time either waits for this one (and then finds no category) or is seen by the check.
   */
  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async ({ kbCategories: repo, audit }) => {
      const category = await repo.find(clientId, id);
      if (!category) throw new NotFoundError('category', id);
      await repo.delete(clientId, id);
      const links = await repo.links(clientId, id);
      if (links.length) {
        throw new InvalidRequestError(
          'The category cannot be deleted while objects are linked to it.',
          links.map((l) => ({ field: 'id', code: l.code, message: l.message })),
        );
      }
      await audit.record(clientId, kbCategoryEvents, 'deleted', eventOf(category));
    });
  }
}

/** A category's event: its name in its original language (else its first name), and the category as GET presents it. */
function eventOf(category: KbCategoryRecord) {
  const names = category.localizedName;
  const name = names.find((n) => n.language_code === category.originalLanguageCode) ?? names[0];
  return { id: category.id, name: name?.value ?? null, data: presentKbCategory(category) };
}
