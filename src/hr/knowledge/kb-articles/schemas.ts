import { type Static, Type } from '@sinclair/typebox';
import type { CommaList } from '../../../platform/lists.js';
import { EmployeesPerimeterInput, EmployeesPerimeterOutput } from '../../core/perimeters/schemas.js';
import { declareList, declareSortedList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import type { SortTerm } from '../../lists/sort.js';
import { LanguageCode, LocalizedString } from '../kb-categories/schemas.js';

const Enum = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });

const OptDate = (description: string) =>
  Type.Optional(
    Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: `${description} YYYY-MM-DD.` }),
  );

const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const ARTICLE_STATUSES = ['draft', 'published', 'scheduled'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const KbArticleParams = Type.Object({ id: Uuid('The article id, a UUID chosen by the client.') });

/** One version as sent: one per language. */
const KbArticleVersionInput = Type.Object({
  language_code: LanguageCode(),
  title: Type.String({ minLength: 1, maxLength: 255 }),
  body: Type.String({ maxLength: 1_000_000, description: 'HTML.' }),
});

const LocalizedTags = Type.Array(
  Type.Object({
    language_code: LanguageCode(),
    values: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      description: 'Tags in this language; a tag given twice (ignoring case) is `duplicate_items`.',
    }),
  }),
  { maxItems: 100, description: 'Tags per language; one entry per language.' },
);

const Keywords = Type.Array(LocalizedString, {
  maxItems: 100,
  description: 'Search keywords per language (found by `q` like titles); one entry per language.',
});

const RoleRestrictions = Type.Array(
  Type.Object({
    role_id: Type.String({ minLength: 1, maxLength: 255, description: 'A role of the client (`/roles`).' }),
    role_name: Type.Optional(Type.String({ description: 'Read-only: ignored when sent.' })),
  }),
  { maxItems: 100, description: 'Roles the article is restricted to (stored and returned; see docs).' },
);

const Perimeters = (description: string) =>
  Type.Array(EmployeesPerimeterInput('Employees who may see the article (`EmployeesPerimeterBase`).'), {
    maxItems: 100,
    description,
  });

const PERIMETERS_DESCRIPTION =
  'Which employees may see the article: any perimeter covering them is enough; empty means every employee.';

/** `KbArticleUpdatePayload`: `categories_ids` (required), `slug` and every `KbArticleBase` field. */
export const KbArticlePut = Type.Object({
  categories_ids: Type.Array(Uuid('A category of the client.'), {
    minItems: 1,
    maxItems: 100,
    uniqueItems: true,
    description: 'Categories of the article (at least one, each a category of the client).',
  }),
  slug: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'To be deprecated. Default: made from the first title; kept on update when left out.',
    }),
  ),
  author_id: Type.Optional(
    Type.Union([Uuid('An HR user (`/users`).'), Type.Null()], {
      description: 'The publisher, an HR user of the client. Kept on update when left out.',
    }),
  ),
  last_updater_id: Type.Optional(
    Type.Union([Uuid('An HR user (`/users`).'), Type.Null()], {
      description: 'Atrium extension: the HR user making this change (else null).',
    }),
  ),
  featured_on_employee_homepage: Type.Optional(Type.Boolean({ default: false })),
  once_on_employee_homepage: Type.Optional(Type.Boolean({ default: false })),
  permanent_on_employee_homepage: Type.Optional(Type.Boolean({ default: false })),
  versions: Type.Array(KbArticleVersionInput, {
    minItems: 1,
    maxItems: 50,
    description: 'One version per language (a language given twice is `duplicate_items`).',
  }),
  expiration_date: OptDate('Last day the article is shown to employees.'),
  scheduled_publication_date: OptDate('With status `scheduled`: the day it becomes published.'),
  status: Type.Optional(Enum(ARTICLE_STATUSES, '`draft` (default), `published` or `scheduled`.')),
  accessible_by_hr: Type.Optional(Type.Boolean({ default: true })),
  accessible_by_employee: Type.Optional(Type.Boolean({ default: true })),
  employees_perimeters: Type.Optional(Perimeters(PERIMETERS_DESCRIPTION)),
  role_restrictions: Type.Optional(RoleRestrictions),
  localized_search_keywords: Type.Optional(Keywords),
  localized_tags: Type.Optional(LocalizedTags),
});
export type KbArticlePut = Static<typeof KbArticlePut>;

/** `KbArticlePatchPayload`. */
export const KbArticlePatch = Type.Object({
  status: Type.Optional(
    Enum(['draft', 'published'] as const, 'Publish or unpublish; `scheduled` is set with PUT only.'),
  ),
  localized_search_keywords: Type.Optional(Keywords),
  localized_tags: Type.Optional(LocalizedTags),
  accessible_by_hr: Type.Optional(Type.Boolean()),
  accessible_by_employee: Type.Optional(Type.Boolean()),
  role_restrictions: Type.Optional(RoleRestrictions),
  employee_perimeters: Type.Optional(Perimeters(`${PERIMETERS_DESCRIPTION} The reference's PATCH spelling.`)),
  employees_perimeters: Type.Optional(
    Perimeters(`${PERIMETERS_DESCRIPTION} The base schema's spelling, accepted too (not both).`),
  ),
  last_updater_id: Type.Optional(
    Type.Union([Uuid('An HR user (`/users`).'), Type.Null()], {
      description: 'Atrium extension: the HR user making this change (else null).',
    }),
  ),
});
export type KbArticlePatch = Static<typeof KbArticlePatch>;

const Nullable = (description?: string) => Type.Union([Type.String(), Type.Null()], description ? { description } : {});
const LocalizedOut = Type.Array(Type.Object({ language_code: Type.String(), value: Type.String() }));

/** `KbArticleVersion`. */
const KbArticleVersion = Type.Object({
  id: Type.String({ format: 'uuid' }),
  language_code: Type.String(),
  title: Type.String(),
  body: Type.Optional(Type.String({ description: 'HTML; in lists only with `embed=versions.body`.' })),
  creator_id: Nullable(),
  updator_id: Nullable(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** `KbArticleFull`. */
export const KbArticle = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String({ description: 'To be deprecated.' }),
    author_id: Nullable('The publisher (an HR user), or null.'),
    last_hits: Type.Integer({ description: 'Views in the last 30 days.' }),
    total_hits: Type.Integer(),
    last_updated_at: Type.String({ format: 'date-time', description: 'Latest update, versions included.' }),
    last_updater_id: Nullable(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    featured_on_employee_homepage: Type.Boolean(),
    once_on_employee_homepage: Type.Boolean(),
    permanent_on_employee_homepage: Type.Boolean(),
    versions: Type.Array(KbArticleVersion, { description: 'One per language, in the order sent.' }),
    categories_ids: Type.Array(Type.String({ format: 'uuid' })),
    expiration_date: Nullable('YYYY-MM-DD.'),
    scheduled_publication_date: Nullable('YYYY-MM-DD.'),
    status: Type.String({ description: '`draft`, `published` or `scheduled`.' }),
    accessible_by_hr: Type.Boolean(),
    accessible_by_employee: Type.Boolean(),
    employees_perimeters: Type.Array(EmployeesPerimeterOutput('Employees who may see the article.')),
    role_restrictions: Type.Array(Type.Object({ role_id: Type.String(), role_name: Type.String() })),
    localized_search_keywords: LocalizedOut,
    localized_tags: Type.Array(Type.Object({ language_code: Type.String(), values: Type.Array(Type.String()) })),
  },
  { $id: 'KbArticleFull', title: 'KbArticleFull' },
);
export type KbArticle = Static<typeof KbArticle>;

export const SORT_FIELDS = ['last_hits', 'updated_at', 'title', 'created_at', 'expiration_date'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/**
 * `GET /kb_articles`: sorted by `sort`, default `-updated_at`; with `q`, ranked by relevance (its own cursors,
 * qualified `q`, which hold an offset into the ranking).
 */
export const KbArticleList = declareSortedList('kb_articles', SORT_FIELDS, '-updated_at');

/** `GET /kb_tags`: alphabetical by label, then language. */
export const KbTagList = declareList('kb_tags');

const Text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description }));

export const KbArticleListQuery = Type.Object(
  {
    ...PaginationQuery,
    embed: Type.Optional(Enum(['versions.body'] as const, '`versions.body`: include the version bodies.')),
    featured_on_employee_homepage: Type.Optional(Type.Boolean()),
    permanent_on_employee_homepage: Type.Optional(Type.Boolean()),
    once_on_employee_homepage: Type.Optional(
      Enum(
        ['true'] as const,
        'The oldest published article to show once on the employee homepage (at most one, with bodies); every other filter but `employee_id` is ignored.',
      ),
    ),
    categories_ids: Text('Comma-separated category ids: articles in any of them.'),
    tags: Text('Comma-separated tags: articles with any of them (ignoring case).'),
    tags_language_code: Type.Optional(LanguageCode('Language in which `tags` are matched (default: any).')),
    version_language_code: Type.Optional(LanguageCode('Articles with a version in this language.')),
    category_original_language_code: Type.Optional(
      LanguageCode('Articles in a category whose original language is this one.'),
    ),
    organization_id: Text('Articles with a perimeter naming this organization.'),
    organization_group_id: Text('Articles with a perimeter naming this organization group.'),
    author_id: Text('Articles by this author.'),
    q: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 255,
        description:
          'Full text over titles, bodies (without HTML) and search keywords: articles holding every word, ignoring case and accents; sorted by relevance, whatever `sort` says. At least 3 characters.',
      }),
    ),
    status: Type.Optional(Enum(ARTICLE_STATUSES, 'Articles with this status.')),
    with_expiration_date: Type.Optional(
      Type.String({
        maxLength: 20,
        description: '`true`: only articles with an expiration date; other values are ignored.',
      }),
    ),
    employee_id: Text('Only published articles this employee may see.'),
    sort: Type.Optional(
      Type.Unsafe<CommaList<SortTerm<'last_hits' | 'updated_at' | 'title' | 'created_at' | 'expiration_date'>>>(
        Type.String({
          maxLength: 200,
          description:
            'Comma-separated; each field prefixed with `+` (default) or `-`: `last_hits`, `updated_at`, `title`, `created_at`, `expiration_date`. Default `-updated_at`.',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type KbArticleListQuery = Static<typeof KbArticleListQuery>;

/** `KbTag`. */
export const KbTag = Type.Object(
  { language_code: Type.String(), label: Type.String() },
  { $id: 'KbTag', title: 'KbTag' },
);
export type KbTag = Static<typeof KbTag>;

export const KbTagListQuery = Type.Object(
  {
    ...PaginationQuery,
    language_code: Type.Optional(LanguageCode('Tags in this language (default: every language).')),
    q: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 100,
        description: 'Part of the tag, ignoring case (at least 3 characters).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type KbTagListQuery = Static<typeof KbTagListQuery>;
