import { formatDateTime } from '../../../platform/time.js';
import type { KbArticleView } from './repository.js';
import type { KbArticle } from './schemas.js';

/** An article as the API shows it; version bodies only when asked for (lists) or always (one article). */
export function presentKbArticle(view: KbArticleView, bodies: boolean): KbArticle {
  const { row } = view;
  const byLanguage = new Map<string, string[]>();
  for (const t of view.tags) byLanguage.set(t.languageCode, [...(byLanguage.get(t.languageCode) ?? []), t.label]);
  return {
    id: row.id,
    slug: row.slug,
    author_id: row.authorId,
    last_hits: row.lastHits,
    total_hits: row.totalHits,
    last_updated_at: formatDateTime(row.updatedAt),
    last_updater_id: row.lastUpdaterId,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    featured_on_employee_homepage: row.featuredOnEmployeeHomepage,
    once_on_employee_homepage: row.onceOnEmployeeHomepage,
    permanent_on_employee_homepage: row.permanentOnEmployeeHomepage,
    versions: view.versions.map((v) => ({
      id: v.id,
      language_code: v.languageCode,
      title: v.title,
      ...(bodies ? { body: v.body } : {}),
      creator_id: v.creatorId,
      updator_id: v.updatorId,
      created_at: formatDateTime(v.createdAt),
      updated_at: formatDateTime(v.updatedAt),
    })),
    categories_ids: view.categoryIds,
    expiration_date: row.expirationDate,
    scheduled_publication_date: row.scheduledPublicationDate,
    status: view.status,
    accessible_by_hr: row.accessibleByHr,
    accessible_by_employee: row.accessibleByEmployee,
    employees_perimeters: view.perimeters,
    role_restrictions: row.roleRestrictions.map((role_id) => ({
      role_id,
      role_name: view.roleNames.get(role_id) ?? role_id,
    })),
    localized_search_keywords: row.localizedSearchKeywords,
    localized_tags: [...byLanguage].map(([language_code, values]) => ({ language_code, values })),
  };
}
