/** The articles' list filters as one query over `pa_kb_articles as a` (the repository's lists and lookups). */
import { type SqlBool, sql } from 'kysely';
import type { Tables } from '../../../platform/db/schema.js';
import type { Tenant } from '../../../platform/db/tenant.js';
import type { ArticleStatus } from './schemas.js';

/** Filters as the repository applies them (already parsed and checked by the service). */
export interface KbArticleFilter {
  /** The day (YYYY-MM-DD) that decides whether a scheduled article is published yet, and an expired one. */
  today: string;
  status?: ArticleStatus;
  featured?: boolean;
  permanent?: boolean;
  once?: boolean;
  categoryIds?: string[];
  /** Tag keys (lower case). */
  tags?: string[];
  tagsLanguage?: string;
  versionLanguage?: string;
  categoryLanguage?: string;
  organizationId?: string;
  organizationGroupId?: string;
  authorId?: string;
  withExpirationDate?: boolean;
  /** Only what one employee may see: published, accessible to employees, not expired, and unrestricted or in `pks`. */
  employee?: { coveredPks: number[] };
  /** Only these articles (the matches of a full-text query). */
  pks?: number[];
}

/** The client's articles (`tenant`) that the filter keeps, every column selected. */
export function filteredArticles(tenant: Tenant<Tables>, f: KbArticleFilter) {
  let q = tenant.selectFrom('pa_kb_articles as a').selectAll('a');
  const published = sql<SqlBool>`(a.status = 'published' or (a.status = 'scheduled' and a.scheduled_publication_date <= ${f.today}))`;
  if (f.status === 'published') q = q.where(published);
  if (f.status === 'draft') q = q.where('a.status', '=', 'draft');
  if (f.status === 'scheduled') {
    q = q.where('a.status', '=', 'scheduled').where('a.scheduled_publication_date', '>', f.today);
  }
  if (f.featured !== undefined) q = q.where('a.featured_on_employee_homepage', '=', f.featured ? 1 : 0);
  if (f.permanent !== undefined) q = q.where('a.permanent_on_employee_homepage', '=', f.permanent ? 1 : 0);
  if (f.once) q = q.where('a.once_on_employee_homepage', '=', 1).where(published);
  if (f.authorId !== undefined) q = q.where('a.author_id', '=', f.authorId);
  if (f.withExpirationDate) q = q.where('a.expiration_date', 'is not', null);
  if (f.categoryIds) {
    const ids = f.categoryIds;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('pa_kb_article_categories as c')
          .select('c.article_pk')
          .whereRef('c.article_pk', '=', 'a.pk')
          .where('c.category_id', 'in', ids.length ? ids : ['']),
      ),
    );
  }
  if (f.categoryLanguage !== undefined) {
    const language = f.categoryLanguage;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('pa_kb_article_categories as c')
          .innerJoin('pa_kb_categories as k', (j) =>
            // tenant-by-hand: the category is joined to the article's link, tied to the row, by its own client.
            j.onRef('k.id', '=', 'c.category_id').onRef('k.client_id', '=', 'c.client_id'),
          )
          .select('c.article_pk')
          .whereRef('c.article_pk', '=', 'a.pk')
          .where('k.original_language_code', '=', language),
      ),
    );
  }
  if (f.tags) {
    const tags = f.tags;
    const language = f.tagsLanguage;
    q = q.where(({ exists, selectFrom }) => {
      let sub = selectFrom('pa_kb_article_tags as t')
        .select('t.article_pk')
        .whereRef('t.article_pk', '=', 'a.pk')
        .where('t.label_key', 'in', tags.length ? tags : ['']);
      if (language !== undefined) sub = sub.where('t.language_code', '=', language);
      return exists(sub);
    });
  }
  if (f.versionLanguage !== undefined) {
    const language = f.versionLanguage;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('pa_kb_article_versions as v')
          .select('v.article_pk')
          .whereRef('v.article_pk', '=', 'a.pk')
          .where('v.language_code', '=', language),
      ),
    );
  }
  for (const [column, value] of [
    ['p.organization_id', f.organizationId],
    ['p.organization_group_id', f.organizationGroupId],
  ] as const) {
    if (value === undefined) continue;
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('pa_kb_article_perimeters as p')
          .select('p.article_pk')
          .whereRef('p.article_pk', '=', 'a.pk')
          .where(column, '=', value),
      ),
    );
  }
  if (f.employee) {
    const covered = f.employee.coveredPks;
    q = q
      .where(published)
      .where('a.accessible_by_employee', '=', 1)
      .where((eb) => eb.or([eb('a.expiration_date', 'is', null), eb('a.expiration_date', '>=', f.today)]))
      .where((eb) =>
        eb.or([
          eb.not(
            eb.exists(
              eb
                .selectFrom('pa_kb_article_perimeters as p')
                .select('p.article_pk')
                .whereRef('p.article_pk', '=', 'a.pk'),
            ),
          ),
          ...(covered.length ? [eb('a.pk', 'in', covered)] : []),
        ]),
      );
  }
  if (f.pks) q = q.where('a.pk', 'in', f.pks.length ? f.pks : [-1]);
  return q;
}
