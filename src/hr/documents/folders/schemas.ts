import { type Static, Type } from '@sinclair/typebox';
import { LocalizedString } from '../../core/custom-fields/schemas.js';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

export const FolderId = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'A dotted path, such as `certificates.employment-certificates`.',
});

/** `FolderBase` (reference §3c.5). */
export const Folder = Type.Object(
  {
    id: FolderId,
    label: Type.String({ description: 'In the default language.' }),
    localized_labels: Type.Array(LocalizedString),
    parent_folder_id: Type.Union([Type.String(), Type.Null()], { description: 'The parent folder, null at the root.' }),
  },
  { $id: 'FolderBase', title: 'FolderBase' },
);
export type Folder = Static<typeof Folder>;

/** `GET /{employee|company}_folders`: in creation order, one list per kind. */
export const FOLDER_LISTS = { employee: declareList('employee_folders'), company: declareList('company_folders') };

export const FolderListQuery = Type.Object(
  {
    ...PaginationQuery,
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Part of the folder name.' })),
    parent_folder_id: Type.Optional(Type.String({ maxLength: 255, description: 'Children of this folder.' })),
    child_folder_id: Type.Optional(Type.String({ maxLength: 255, description: 'Parents of this folder.' })),
    recursive: Type.Optional(
      Type.Boolean({
        description:
          'All descendants (or ancestors) instead of the direct ones. Default false with a parent or child, true otherwise (every folder).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FolderListQuery = Static<typeof FolderListQuery>;

export const FolderParams = Type.Object({ id: FolderId });
