import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** A language code as the reference writes them: BCP 47 in lower case (`en-us`, `fr-ca`, `es-es`). */
export const LanguageCode = (description = 'Language code, BCP 47 in lower case (`en-us`, `fr-ca`).') =>
  Type.String({ pattern: '^[a-z]{2,3}(-[a-z0-9]{2,8})*$', maxLength: 35, description });

/** `LocalizedString`. */
export const LocalizedString = Type.Object({
  language_code: LanguageCode(),
  value: Type.String({ maxLength: 1000 }),
});
export type LocalizedString = Static<typeof LocalizedString>;

const Localized = (description: string, minItems = 0) =>
  Type.Array(LocalizedString, {
    minItems,
    maxItems: 100,
    description: `${description} One entry per language (a language given twice is \`duplicate_items\`).`,
  });

export const ICON_TYPES = ['pdui', 'ignite'] as const;
const IconType = Type.Optional(
  Type.Unsafe<(typeof ICON_TYPES)[number]>({
    type: 'string',
    enum: [...ICON_TYPES],
    default: 'pdui',
    description:
      'Icon set to translate `icon_class` to. Accepted for compatibility: Atrium returns `icon_class` as stored.',
  }),
);

export const KbCategoryId = Type.String({
  format: 'uuid',
  description: 'The category id, a UUID chosen by the client.',
});
export const KbCategoryParams = Type.Object({ id: KbCategoryId });

/** `KbCategoryUpdatePayload`: `KbCategoryBase` + `order`. */
export const KbCategoryPut = Type.Object({
  slug: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'To be deprecated. Default: made from the first name; kept on update when left out.',
    }),
  ),
  order: Type.Optional(
    Type.Number({
      description: 'Display order (a float). Default at creation: after every other category; kept on update.',
    }),
  ),
  original_language_code: Type.Optional(LanguageCode('Original language. Default: the first name’s language.')),
  icon_class: Type.Optional(
    Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { description: 'CSS icon class.' }),
  ),
  disable_default_form: Type.Optional(
    Type.Boolean({ default: false, description: 'True when the category has no default request form.' }),
  ),
  default_form_id: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()], {
      description: 'Default request form (usually a slug).',
    }),
  ),
  visible_to_employee: Type.Optional(Type.Boolean({ default: true })),
  localized_name: Localized('Name in every language.', 1),
  localized_description: Type.Optional(Localized('Description in every language.')),
});
export type KbCategoryPut = Static<typeof KbCategoryPut>;

export const KbCategoryPutQuery = Type.Object(
  {
    force_replicate: Type.Optional(
      Type.Boolean({ description: 'Replicate to another client. Accepted and ignored: Atrium has one instance.' }),
    ),
  },
  { additionalProperties: false },
);

export const KbCategoryPatch = Type.Object({ order: Type.Number({ description: 'Display order (a float).' }) });
export type KbCategoryPatch = Static<typeof KbCategoryPatch>;

const LocalizedOut = Type.Array(Type.Object({ language_code: Type.String(), value: Type.String() }));

/** `KbCategoryFull`. */
export const KbCategory = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String({ description: 'To be deprecated.' }),
    order: Type.Number({ description: 'Display order; lists are sorted by it.' }),
    original_language_code: Type.String(),
    icon_class: Type.Union([Type.String(), Type.Null()]),
    disable_default_form: Type.Boolean(),
    default_form_id: Type.Union([Type.String(), Type.Null()]),
    visible_to_employee: Type.Boolean(),
    localized_name: LocalizedOut,
    localized_description: LocalizedOut,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'KbCategoryFull', title: 'KbCategoryFull' },
);
export type KbCategory = Static<typeof KbCategory>;

/** `GET /kb_categories`: in `order`, then creation. */
export const KbCategoryList = declareList('kb_categories');

export const KbCategoryListQuery = Type.Object(
  {
    ...PaginationQuery,
    original_language_code: Type.Optional(LanguageCode('Categories whose original language is this one.')),
    multilingual: Type.Optional(
      Type.Boolean({
        description:
          'true: only "new" categories with at least one language (every Atrium category has one); false: no filter.',
      }),
    ),
    icon_type: IconType,
  },
  { additionalProperties: false },
);
export type KbCategoryListQuery = Static<typeof KbCategoryListQuery>;

export const KbCategoryGetQuery = Type.Object({ icon_type: IconType }, { additionalProperties: false });
