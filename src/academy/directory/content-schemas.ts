import { type Static, Type } from '@sinclair/typebox';
import { IdName, Limit, MAX_ID, NullableString, Search, Start } from './schemas.js';

/** Shapes of content items, a user's badges and the call quota (docs/academy-directory.md). */

export const CONTENT_MAX_LIMIT = 100;

export const ContentQuery = Type.Object({
  start: Type.Optional(Start),
  limit: Type.Optional(Limit(CONTENT_MAX_LIMIT)),
  order_by: Type.Optional(
    Type.Union([Type.Literal('title'), Type.Literal('time_added'), Type.Literal('time_modified')], {
      description: 'Sort key; default `time_added`.',
    }),
  ),
  direction: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Sort direction; default `desc`.' }),
  ),
  category_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Only items of this category.' }),
  ),
  type_id: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 web resources, 2 files.' })),
  sub_type_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 11, description: 'Only items of this sub-type.' })),
  tags: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Comma-separated tags: items with any of them (any case).' }),
  ),
  search: Type.Optional(Search('the title or description')),
});
export type ContentQuery = Static<typeof ContentQuery>;

export const ContentItem = Type.Object(
  {
    id: Type.Integer({ description: 'Content item id.' }),
    title: Type.String({ description: 'Title.' }),
    description: Type.String({ description: 'Description (may be empty).' }),
    type_id: Type.Integer({ description: '1 web resource, 2 file.' }),
    sub_type_id: Type.Integer({ description: 'Sub-type, 1–11.' }),
    category_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Academy category id, or null.' }),
    category: Type.Union([IdName, Type.Null()], { description: 'The category as `{id, name}`, or null.' }),
    tags: Type.Array(Type.String(), { description: 'Tags.' }),
    url: NullableString('Link or file URL, or null.'),
    time_added: Type.String({ description: 'When it was added, RFC 3339 UTC.' }),
    time_modified: Type.String({ description: 'Last change, RFC 3339 UTC.' }),
  },
  { description: 'A content item (a web resource or a file).' },
);
export type ContentItem = Static<typeof ContentItem>;

export const Badge = Type.Object(
  {
    id: Type.Integer({ description: 'Badge id.' }),
    name: Type.String({ description: 'Name.' }),
    description: Type.String({ description: 'Description (may be empty).' }),
    image: NullableString('URL of the picture, or null.'),
    awarded_date: NullableString('Date awarded, YYYY-MM-DD, or null.'),
  },
  { description: 'A badge a user holds.' },
);
export type Badge = Static<typeof Badge>;

export const Usage = Type.Object(
  {
    availableCalls: Type.Integer({ description: 'Calls the academy may still make in the current window.' }),
    until: Type.String({
      description: 'When the window ends and the allowance is whole again: `MM/DD/YYYY hh:mm:ss am` (UTC).',
    }),
  },
  { description: 'The academy’s call quota.' },
);
export type Usage = Static<typeof Usage>;
