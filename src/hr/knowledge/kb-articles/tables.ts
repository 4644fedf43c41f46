import type { Generated } from 'kysely';

/** Column types of this resource's tables, as Kysely sees them (instants in epoch ms, booleans as 0/1). */

/** A knowledge-base article; `id` is a client-chosen UUID. Its full-text row is `pa_kb_article_fts` (raw SQL). */
export interface PaKbArticlesTable {
  pk: Generated<number>;
  client_id: string;
  id: string;
  slug: string;
  author_id: string | null;
  last_updater_id: string | null;
  last_hits: number;
  total_hits: number;
  featured_on_employee_homepage: number;
  once_on_employee_homepage: number;
  permanent_on_employee_homepage: number;
  /** YYYY-MM-DD. */
  expiration_date: string | null;
  /** YYYY-MM-DD. */
  scheduled_publication_date: string | null;
  status: 'draft' | 'published' | 'scheduled';
  accessible_by_hr: number;
  accessible_by_employee: number;
  /** JSON array of role ids. */
  role_restrictions: string;
  /** JSON array of {language_code, value}. */
  localized_search_keywords: string;
  /** The first version's title in lower case (the `title` sort). */
  sort_title: string;
  created_at: number;
  updated_at: number;
}
/** One language version of an article (one per language). */
export interface PaKbArticleVersionsTable {
  client_id: string;
  article_pk: number;
  id: string;
  language_code: string;
  position: number;
  title: string;
  /** HTML. */
  body: string;
  creator_id: string | null;
  updator_id: string | null;
  created_at: number;
  updated_at: number;
}
export interface PaKbArticleCategoriesTable {
  client_id: string;
  article_pk: number;
  category_id: string;
  position: number;
}
export interface PaKbArticleTagsTable {
  client_id: string;
  article_pk: number;
  language_code: string;
  label: string;
  /** `label` in lower case: tags match and sort ignoring case. */
  label_key: string;
  position: number;
}
/** One employees perimeter of an article (`EmployeesPerimeterBase`). */
export interface PaKbArticlePerimetersTable {
  client_id: string;
  article_pk: number;
  position: number;
  operator: '=' | '<=';
  organization_id: string | null;
  organization_group_id: string | null;
  /** JSON array of {custom_field_id, operator, value}. */
  custom_field_filters: string;
}

declare module '../../../platform/db/schema.js' {
  interface Tables {
    pa_kb_articles: PaKbArticlesTable;
    pa_kb_article_versions: PaKbArticleVersionsTable;
    pa_kb_article_categories: PaKbArticleCategoriesTable;
    pa_kb_article_tags: PaKbArticleTagsTable;
    pa_kb_article_perimeters: PaKbArticlePerimetersTable;
  }
}
