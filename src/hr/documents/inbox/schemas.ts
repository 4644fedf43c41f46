import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** Reference §3c.7. */

export const INBOX_TYPES = ['private', 'list', 'group'] as const;
export const INBOX_STATES = ['pending', 'processing', 'completed', 'refused'] as const;

export const InboxItemParams = Type.Object({ id: Type.String({ format: 'uuid', description: 'Inbox item id.' }) });

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);

const base = {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.String({
    enum: [...INBOX_TYPES],
    description:
      '`private` (only its creator sees it), `list` (the HR users of `to_users_ids`) or `group` (the users of the shared inbox `to_inbox_id`).',
  }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  creator_email: Type.Optional(Nullable(Type.String({ maxLength: 254, format: 'email' }))),
  to_users_ids: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 100,
      description: 'The HR users a `list` item goes to (required, at least one, for `list`).',
    }),
  ),
  to_inbox_id: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 255, description: 'The shared inbox of a `group` item.' })),
  ),
  send_notification: Type.Optional(
    Type.Boolean({ description: 'Default true: the recipients are told by mail (the outbox).' }),
  ),
};

export const InboxItem = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    type: Type.String({ enum: [...INBOX_TYPES] }),
    description: Nullable(Type.String()),
    creator_email: Nullable(Type.String()),
    to_users_ids: Type.Array(Type.String()),
    to_inbox_id: Nullable(Type.String()),
    state: Type.String({ enum: [...INBOX_STATES] }),
    documents_count: Type.Integer({ minimum: 0 }),
    creator_id: Nullable(Type.String()),
    send_notification: Type.Boolean(),
    origin: Type.String({ enum: ['api', 'web', 'email'] }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'InboxItemFull', title: 'InboxItemFull' },
);
export type InboxItem = Static<typeof InboxItem>;

export const InboxItemCreate = Type.Object({
  ...base,
  options: Type.Object({
    send_confirmation_email_to_creator: Type.Boolean({
      description: 'Mails a confirmation to `creator_email` (the outbox).',
    }),
  }),
  uploaded_files: Type.Array(
    Type.Object({
      filename: Type.String({ minLength: 1, maxLength: 255 }),
      file_id: Type.String({
        format: 'uuid',
        description: 'The `id` of `POST /uploads` (or `file_id` of `POST /document`).',
      }),
    }),
    { minItems: 1, maxItems: 50, description: 'The documents sent, each an upload (used up).' },
  ),
});
export type InboxItemCreate = Static<typeof InboxItemCreate>;

/** `GET /inbox_items`: newest first. */
export const InboxItemList = declareList('inbox_items');
export const InboxItemListQuery = Type.Object(
  {
    ...PaginationQuery,
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100000, description: '1-based page number (with `per_page`).' }),
    ),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Part of the title, the shared inbox, a file name or the creator’s e-mail.',
      }),
    ),
    state: Type.Optional(Type.String({ enum: [...INBOX_STATES] })),
    shared_inbox_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    creator_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type InboxItemListQuery = Static<typeof InboxItemListQuery>;
