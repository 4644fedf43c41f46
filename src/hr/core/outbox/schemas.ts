import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** A mail Atrium would have sent (`GET /outbox`, an Atrium extension). */
export const OutboxMail = Type.Object(
  {
    id: Type.String(),
    kind: Type.String({
      description:
        'What it is: `signature.invitation`, `signature.reminder`, `signature.signed`, `signature.refused`, `signature.signed_document` (electronic signature); `inbox.notification`, `inbox.confirmation` (inbox items); `user.invitation` (`POST /users/{id}/invite`).',
    }),
    to_address: Type.Union([Type.String(), Type.Null()], { description: 'The address; null when none is known.' }),
    to_name: Type.String(),
    subject: Type.String(),
    body: Type.String({ description: 'Plain text, as it would have been sent.' }),
    related_id: Type.Union([Type.String(), Type.Null()], { description: 'What it is about (a signer’s id).' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'OutboxMail', title: 'OutboxMail' },
);
export type OutboxMail = Static<typeof OutboxMail>;

/** `GET /outbox`: newest first. */
export const OutboxList = declareList('outbox');
export const OutboxListQuery = Type.Object(
  {
    ...PaginationQuery,
    kind: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: 'Only mails of this kind.' })),
    related_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Only mails about this object (a signer’s id).' }),
    ),
  },
  { additionalProperties: false },
);
export type OutboxListQuery = Static<typeof OutboxListQuery>;
