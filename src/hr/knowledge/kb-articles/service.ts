import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import { htmlText, searchWords } from '../../../platform/db/search.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import { commaList } from '../../../platform/lists.js';
import { newId } from '../../../platform/security/secrets.js';
import { type Clock, dayOf } from '../../../platform/time.js';
import { coversEmployee, type PerimeterInput, storedPerimeter } from '../../core/perimeters/rules.js';
import { PerimetersService } from '../../core/perimeters/service.js';
import type { Audited } from '../../module.js';
import { duplicateLanguages, slugify } from '../kb-categories/service.js';
import { kbArticleEvents } from './events.js';
import { presentKbArticle } from './present.js';
import type {
  KbArticleFilter,
  KbArticleRecord,
  KbArticlesRepository,
  KbArticleValues,
  KbArticleView,
  KbTagRecord,
  KbVersionRecord,
  SearchDocument,
} from './repository.js';
import type {
  ArticleStatus,
  KbArticleListQuery,
  KbArticlePatch,
  KbArticlePut,
  KbTagListQuery,
  SortField,
} from './schemas.js';

export type { KbArticleView } from './repository.js';

/** The words a search looks for; a `q` without any word is a 400. */
function queryWords(q: string): string[] {
  const words = [...new Set(searchWords(q))];
  if (!words.length) throw new InvalidRequestError('Invalid query parameter "q": it holds no word to search for.');
  return words;
}

function statusOf(row: KbArticleRecord, today: string): ArticleStatus {
  if (row.status === 'scheduled' && row.scheduledPublicationDate !== null && row.scheduledPublicationDate <= today)
    return 'published';
  return row.status;
}

function notFound(field: string, what: string): FieldError {
  return { field, code: 'not_found', message: `No ${what} of this client has this id.` };
}

interface Localized {
  language_code: string;
  value: string;
}
interface LocalizedTags {
  language_code: string;
  values: string[];
}

/** A tag given twice in one language (ignoring case). */
function duplicateTags(tags: readonly LocalizedTags[]): FieldError[] {
  const errors = duplicateLanguages('localized_tags', tags);
  tags.forEach((t, i) => {
    const seen = new Set<string>();
    t.values.forEach((label, j) => {
      const key = label.toLowerCase();
      if (seen.has(key)) {
        errors.push({
          field: `localized_tags.${i}.values.${j}`,
          code: 'duplicate_items',
          message: 'This tag is given twice in this language.',
        });
      }
      seen.add(key);
    });
  });
  return errors;
}

/** The repositories article writes touch (versions, categories, tags, perimeters and the search index included). */
export interface KbArticlesWork {
  kbArticles: KbArticlesRepository;
}

/**
 * Knowledge-base articles (reference §3e.2, §3e.3): one version per
 * language, categories, tags, employee perimeters, full-text search kept in
 * step with every write, and the articles one employee may see.
 */
export class KbArticlesService {
  private readonly repo: KbArticlesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<KbArticlesWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.kbArticles;
  }

  // ------------------------------------------------------------ reads

  async get(clientId: HrTenantId, id: string): Promise<KbArticleView> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('article', id);
    return (await this.views(this.repo, clientId, [row]))[0] as KbArticleView;
  }

  private async views(
    repo: KbArticlesRepository,
    clientId: HrTenantId,
    rows: KbArticleRecord[],
  ): Promise<KbArticleView[]> {
    const today = dayOf(this.clock.now());
    return (await repo.details(clientId, rows)).map((d) => ({ ...d, status: statusOf(d.row, today) }));
  }

  /** The internal keys of the articles whose perimeters cover the employee (422 when no such employee). */
  private async coveredPks(clientId: HrTenantId, employeeId: string): Promise<number[]> {
    const facts = await this.repo.perimeters.employeeFacts(clientId, employeeId);
    if (!facts) throw new FieldValidationError([notFound('employee_id', 'employee')]);
    const covered = new Set<number>();
    for (const c of await this.repo.candidatePerimeters(clientId, facts)) {
      if (coversEmployee(c.perimeter, facts)) covered.add(c.articlePk);
    }
    return [...covered];
  }

  private async filter(clientId: HrTenantId, query: KbArticleListQuery): Promise<KbArticleFilter> {
    const f: KbArticleFilter = { today: dayOf(this.clock.now()) };
    const errors: FieldError[] = [];
    if (query.organization_id !== undefined) {
      if (!(await this.repo.perimeters.existingOrganizations(clientId, [query.organization_id])).size)
        errors.push(notFound('organization_id', 'organization'));
      f.organizationId = query.organization_id;
    }
    if (query.organization_group_id !== undefined) {
      if (!(await this.repo.perimeters.existingGroups(clientId, [query.organization_group_id])).size)
        errors.push(notFound('organization_group_id', 'organization group'));
      f.organizationGroupId = query.organization_group_id;
    }
    if (errors.length) throw new FieldValidationError(errors);
    if (query.employee_id !== undefined)
      f.employee = { coveredPks: await this.coveredPks(clientId, query.employee_id) };
    if (query.status !== undefined) f.status = query.status;
    if (query.featured_on_employee_homepage !== undefined) f.featured = query.featured_on_employee_homepage;
    if (query.permanent_on_employee_homepage !== undefined) f.permanent = query.permanent_on_employee_homepage;
    const categories = commaList(query.categories_ids);
    if (categories) f.categoryIds = categories;
    const tags = commaList(query.tags);
    if (tags) f.tags = tags.map((t) => t.toLowerCase());
    if (query.tags_language_code !== undefined) f.tagsLanguage = query.tags_language_code;
    if (query.version_language_code !== undefined) f.versionLanguage = query.version_language_code;
    if (query.category_original_language_code !== undefined) f.categoryLanguage = query.category_original_language_code;
    if (query.author_id !== undefined) f.authorId = query.author_id;
    if (query.with_expiration_date === 'true') f.withExpirationDate = true;
    return f;
  }

  /**
   * A page of articles. Without `q`, keyset pages in `sort` order. With `q`, the matches are ranked by relevance
   * and the position is an offset into that ranking (`keys[0]`). `once_on_employee_homepage` answers at most one
   * article and ignores every other filter but `employee_id`.
   */
  async list(
    clientId: HrTenantId,
    query: KbArticleListQuery,
    request: PageRequest<SortField>,
  ): Promise<Page<KbArticleView>> {
    const { limit } = request;
    const position = request.at.position;
    if (query.once_on_employee_homepage === 'true') {
      const f: KbArticleFilter = { today: dayOf(this.clock.now()), once: true };
      if (query.employee_id !== undefined)
        f.employee = { coveredPks: await this.coveredPks(clientId, query.employee_id) };
      const row = await this.repo.oldest(clientId, f);
      return { items: await this.views(this.repo, clientId, row ? [row] : []) };
    }
    const words = query.q !== undefined ? queryWords(query.q) : undefined;
    const filter = await this.filter(clientId, query);
    if (words === undefined) {
      const page = await this.repo.page(clientId, filter, request);
      return { ...page, items: await this.views(this.repo, clientId, page.items) };
    }
    const scores = await this.repo.searchScores(clientId, words);
    filter.pks = [...scores.keys()];
    const ranked = (await this.repo.matchingPks(clientId, filter)).sort(
      (a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || a - b,
    );
    const offset = Math.min(Number(position?.keys[0] ?? 0), ranked.length);
    const slice = ranked.slice(offset, offset + limit);
    const page: Page<KbArticleView> = {
      items: await this.views(this.repo, clientId, await this.repo.rowsByPk(clientId, slice)),
    };
    if (offset + limit < ranked.length) page.next = { keys: [offset + limit], direction: 'after', inclusive: true };
    if (offset > 0) page.previous = { keys: [Math.max(0, offset - limit)], direction: 'after', inclusive: true };
    return page;
  }

  tags(clientId: HrTenantId, query: KbTagListQuery, request: PageRequest): Promise<Page<KbTagRecord>> {
    return this.repo.tagPage(
      clientId,
      {
        ...(query.language_code !== undefined ? { languageCode: query.language_code } : {}),
        ...(query.q !== undefined ? { q: query.q } : {}),
      },
      request,
    );
  }

  // ------------------------------------------------------------ writes

  /** The rules shared by PUT and PATCH that need the database: users, roles, perimeters. */
  private async referenceErrors(
    repo: KbArticlesRepository,
    clientId: HrTenantId,
    input: {
      users?: [field: string, id: string | null | undefined][];
      roles?: { role_id: string }[];
      perimeters?: { field: string; list: PerimeterInput[] };
    },
  ): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    const userIds = (input.users ?? []).flatMap(([, id]) => (id ? [id] : []));
    const users = await repo.existingUsers(clientId, userIds);
    for (const [field, id] of input.users ?? []) if (id && !users.has(id)) errors.push(notFound(field, 'HR user'));
    const roles = input.roles ?? [];
    const roleNames = await repo.roleNames(
      clientId,
      roles.map((r) => r.role_id),
    );
    roles.forEach((r, i) => {
      if (!roleNames.has(r.role_id)) errors.push(notFound(`role_restrictions.${i}.role_id`, 'role'));
    });
    if (input.perimeters) {
      const { field, list } = input.perimeters;
      errors.push(...(await new PerimetersService(repo.perimeters).check(clientId, field, list)).errors);
    }
    return errors;
  }

  /** PUT: creates (`created`) or replaces the article; left-out attributes return to their defaults. */
  async put(
    clientId: HrTenantId,
    id: string,
    input: KbArticlePut,
  ): Promise<{ article: KbArticleView; created: boolean }> {
    const errors: FieldError[] = [
      ...duplicateLanguages('versions', input.versions),
      ...duplicateLanguages('localized_search_keywords', input.localized_search_keywords ?? []),
      ...duplicateTags(input.localized_tags ?? []),
    ];
    if (input.status === 'scheduled' && !input.scheduled_publication_date) {
      errors.push({
        field: 'scheduled_publication_date',
        code: 'required',
        message: 'A scheduled article needs its publication date.',
      });
    }
    if (errors.length) throw new FieldValidationError(errors);
    return this.work.run(async ({ kbArticles: repo, audit }) => {
      const existing = await repo.find(clientId, id);
      const found = await repo.lockCategories(clientId, input.categories_ids);
      const errors: FieldError[] = [];
      input.categories_ids.forEach((c, i) => {
        if (!found.has(c)) errors.push(notFound(`categories_ids.${i}`, 'category'));
      });
      errors.push(
        ...(await this.referenceErrors(repo, clientId, {
          users: [
            ['author_id', input.author_id],
            ['last_updater_id', input.last_updater_id],
          ],
          roles: input.role_restrictions ?? [],
          perimeters: { field: 'employees_perimeters', list: input.employees_perimeters ?? [] },
        })),
      );
      if (errors.length) throw new FieldValidationError(errors);
      const first = input.versions[0] as KbArticlePut['versions'][number];
      const updater = input.last_updater_id ?? null;
      const values: KbArticleValues = {
        slug: input.slug ?? existing?.slug ?? slugify(first.title, id),
        authorId: input.author_id !== undefined ? input.author_id : (existing?.authorId ?? null),
        lastUpdaterId: updater,
        lastHits: existing?.lastHits ?? 0,
        totalHits: existing?.totalHits ?? 0,
        featuredOnEmployeeHomepage: input.featured_on_employee_homepage === true,
        onceOnEmployeeHomepage: input.once_on_employee_homepage === true,
        permanentOnEmployeeHomepage: input.permanent_on_employee_homepage === true,
        expirationDate: input.expiration_date ?? null,
        scheduledPublicationDate: input.scheduled_publication_date ?? null,
        status: input.status ?? 'draft',
        accessibleByHr: input.accessible_by_hr !== false,
        accessibleByEmployee: input.accessible_by_employee !== false,
        roleRestrictions: (input.role_restrictions ?? []).map((r) => r.role_id),
        localizedSearchKeywords: localized(input.localized_search_keywords ?? []),
        sortTitle: first.title.toLowerCase(),
      };
      const at = this.clock.now();
      let pk = existing ? existing.pk : await repo.insertIfAbsent(clientId, id, values, at);
      const created = !existing && pk !== undefined;
      if (!created) {
        const current = existing ?? (await repo.find(clientId, id));
        pk = (current as KbArticleRecord).pk;
        await repo.update(clientId, pk, values, at);
      }
      const articlePk = pk as number;
      const before = created
        ? []
        : ((await repo.details(clientId, [(await repo.find(clientId, id)) as KbArticleRecord]))[0]?.versions ?? []);
      const previous = new Map(before.map((v) => [v.languageCode, v]));
      const versions: KbVersionRecord[] = input.versions.map((v, position) => {
        const old = previous.get(v.language_code);
        const unchanged = old && old.title === v.title && old.body === v.body;
        return {
          id: old?.id ?? newId(),
          languageCode: v.language_code,
          position,
          title: v.title,
          body: v.body,
          creatorId: old ? old.creatorId : (updater ?? values.authorId ?? null),
          updatorId: unchanged ? old.updatorId : (updater ?? old?.updatorId ?? values.authorId ?? null),
          createdAt: old?.createdAt ?? at,
          updatedAt: unchanged ? old.updatedAt : at,
        };
      });
      await repo.replaceVersions(clientId, articlePk, versions);
      await repo.replaceCategories(clientId, articlePk, input.categories_ids);
      await repo.replaceTags(clientId, articlePk, flatTags(input.localized_tags ?? []));
      await repo.replacePerimeters(clientId, articlePk, (input.employees_perimeters ?? []).map(storedPerimeter));
      await repo.writeSearch(articlePk, searchDocument(versions, localized(input.localized_search_keywords ?? [])));
      const row = (await repo.find(clientId, id)) as KbArticleRecord;
      const article = (await this.views(repo, clientId, [row]))[0] as KbArticleView;
      await audit.record(clientId, kbArticleEvents, created ? 'created' : 'updated', eventOf(article));
      return { article, created };
    });
  }

  /** PATCH: publish or unpublish, and the other attributes the reference lists; only what is sent changes. */
  async patch(clientId: HrTenantId, id: string, input: KbArticlePatch): Promise<KbArticleView> {
    if (input.employee_perimeters !== undefined && input.employees_perimeters !== undefined) {
      throw new FieldValidationError([
        {
          field: 'employees_perimeters',
          code: 'not_allowed',
          message: 'Give employee_perimeters or employees_perimeters, not both.',
        },
      ]);
    }
    const perimeters =
      input.employee_perimeters !== undefined
        ? { field: 'employee_perimeters', list: input.employee_perimeters }
        : input.employees_perimeters !== undefined
          ? { field: 'employees_perimeters', list: input.employees_perimeters }
          : undefined;
    const errors: FieldError[] = [
      ...duplicateLanguages('localized_search_keywords', input.localized_search_keywords ?? []),
      ...duplicateTags(input.localized_tags ?? []),
    ];
    if (errors.length) throw new FieldValidationError(errors);
    return this.work.run(async ({ kbArticles: repo, audit }) => {
      const row = await repo.find(clientId, id);
      if (!row) throw new NotFoundError('article', id);
      const before = statusOf(row, dayOf(this.clock.now()));
      const errors = await this.referenceErrors(repo, clientId, {
        users: [['last_updater_id', input.last_updater_id]],
        ...(input.role_restrictions ? { roles: input.role_restrictions } : {}),
        ...(perimeters ? { perimeters } : {}),
      });
      if (errors.length) throw new FieldValidationError(errors);
      const values: Partial<KbArticleValues> = { lastUpdaterId: input.last_updater_id ?? null };
      if (input.status !== undefined) values.status = input.status;
      if (input.accessible_by_hr !== undefined) values.accessibleByHr = input.accessible_by_hr;
      if (input.accessible_by_employee !== undefined) values.accessibleByEmployee = input.accessible_by_employee;
      if (input.role_restrictions !== undefined)
        values.roleRestrictions = input.role_restrictions.map((r) => r.role_id);
      if (input.localized_search_keywords !== undefined)
        values.localizedSearchKeywords = localized(input.localized_search_keywords);
      await repo.update(clientId, row.pk, values, this.clock.now());
      if (input.localized_tags !== undefined) await repo.replaceTags(clientId, row.pk, flatTags(input.localized_tags));
      if (perimeters) await repo.replacePerimeters(clientId, row.pk, perimeters.list.map(storedPerimeter));
      const updated = (await repo.find(clientId, id)) as KbArticleRecord;
      const view = (await this.views(repo, clientId, [updated]))[0] as KbArticleView;
      if (input.localized_search_keywords !== undefined) {
        await repo.writeSearch(row.pk, searchDocument(view.versions, updated.localizedSearchKeywords));
      }
      const action =
        view.status === 'published' && before !== 'published'
          ? 'published'
          : view.status !== 'published' && before === 'published'
            ? 'unpublished'
            : 'updated';
      await audit.record(clientId, kbArticleEvents, action, eventOf(view));
      return view;
    });
  }

  /** DELETE: the article, its versions and links, and its full-text row, for good. */
  async delete(clientId: HrTenantId, id: string): Promise<void> {
    await this.work.run(async ({ kbArticles: repo, audit }) => {
      const row = await repo.find(clientId, id);
      if (!row) throw new NotFoundError('article', id);
      const [article] = await this.views(repo, clientId, [row]);
      await audit.record(clientId, kbArticleEvents, 'deleted', eventOf(article as KbArticleView));
      await repo.delete(clientId, row.pk);
    });
  }
}

function localized(items: readonly Localized[]): Localized[] {
  return items.map((i) => ({ language_code: i.language_code, value: i.value }));
}

function flatTags(tags: readonly LocalizedTags[]): { languageCode: string; label: string }[] {
  return tags.flatMap((t) => t.values.map((label) => ({ languageCode: t.language_code, label })));
}

/** What the full-text index holds for an article: titles, keywords and bodies (without HTML), as words. */
export function searchDocument(
  versions: readonly { title: string; body: string }[],
  keywords: readonly Localized[],
): SearchDocument {
  return {
    titles: versions.flatMap((v) => searchWords(v.title)),
    keywords: keywords.flatMap((k) => searchWords(k.value)),
    bodies: versions.flatMap((v) => searchWords(htmlText(v.body))),
  };
}

/** An article's event: its first version's title, and the article as `GET /kb_articles/{id}` presents it (bodies included). */
function eventOf(article: KbArticleView) {
  return { id: article.row.id, name: article.versions[0]?.title ?? null, data: presentKbArticle(article, true) };
}
