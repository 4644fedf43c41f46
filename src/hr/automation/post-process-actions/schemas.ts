import { type Static, Type } from '@sinclair/typebox';

export const MAX_INBOXES = 50;

export const PostProcessActionParams = Type.Object({ id: Type.String({ description: 'The process id.' }) });

const Ids = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: MAX_INBOXES, description });

/** The body: `#user_inboxes` or `#shared_inboxes` of the reference, told apart by `type`. */
export const PostProcessActionCreate = Type.Object(
  {
    type: Type.Union([Type.Literal('user_inboxes'), Type.Literal('shared_inboxes')], {
      description:
        '`user_inboxes`: HR users (`/users` ids) whose inboxes receive the documents, replacing the process’s previous user_inboxes action; `shared_inboxes`: shared inboxes (ids taken as given), added to the others.',
    }),
    ids: Ids('The inboxes: HR user ids or shared inbox ids.'),
  },
  { additionalProperties: false },
);
export type PostProcessActionCreate = Static<typeof PostProcessActionCreate>;

/** `ProcessPostActionSharedPayload` / `ProcessPostActionUserPayload`: the action as stored. */
export const PostProcessAction = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    type: Type.Union([Type.Literal('user_inboxes'), Type.Literal('shared_inboxes')]),
    ids: Type.Array(Type.String()),
  },
  { $id: 'ProcessPostAction', title: 'ProcessPostAction' },
);
export type PostProcessAction = Static<typeof PostProcessAction>;
