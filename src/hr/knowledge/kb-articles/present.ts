import { formatDateTime } from '../../../platform/time.js';
import type { KbArticleView } from './repository.js';
import type { KbArticle } from './schemas.js';

/** An article as the API shows it; version bodies only when asked for (lists) or always (one article). */
export function presentKbArticle(view: KbArticleView, bodies: boolean): KbArticle {
  const { row } = view;
  const byLanguage = new Map<string, string[]>();
  for (const t of view.tags) byLanguage.set(t.language_code, [...(byLanguage.get(t.language_code) ?? []), t.label]);
  return {
    id: row.id,
    slug: row.slug,
    author_id: row.author_id,
    last_hits: Number(row.last_hits),
    total_hits: Number(row.total_hits),
    last_updated_at: formatDateTime(row.updated_at),
    last_updater_id: row.last_updater_id,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
    featured_on_employee_homepage: Boolean(row.featured_on_employee_homepage),
    once_on_employee_homepage: Boolean(row.once_on_employee_homepage),
    permanent_on_employee_homepage: Boolean(row.permanent_on_employee_homepage),
    versions: view.versions.map((v) => ({
      id: v.id,
      language_code: v.language_code,
      title: v.title,
      ...(bodies ? { body: v.body } : {}),
      creator_id: v.creator_id,
      updator_id: v.updator_id,
      created_at: formatDateTime(v.created_at),
      updated_at: formatDateTime(v.updated_at),
    })),
    categories_ids: view.categoryIds,
    expiration_date: row.expiration_date,
    scheduled_publication_date: row.scheduled_publication_date,
    status: view.status,
    accessible_by_hr: Boolean(row.accessible_by_hr),
    accessible_by_employee: Boolean(row.accessible_by_employee),
    employees_perimeters: view.perimeters,
    role_restrictions: row.role_restrictions.map((role_id) => ({
      role_id,
      role_name: view.roleNames.get(role_id) ?? role_id,
    })),
    localized_search_keywords: row.localized_search_keywords,
    localized_tags: [...byLanguage].map(([language_code, values]) => ({ language_code, values })),
  };
}
