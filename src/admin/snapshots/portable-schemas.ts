import { type Static, Type } from '@sinclair/typebox';
import { CreatedApplication } from '../tenants/schemas.js';

/** `POST /tenants/{kind}/{id}/clone`. */
export const CloneCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: "The new tenant's name." }) },
  { additionalProperties: false, title: 'AdminTenantClone' },
);
export type CloneCreate = Static<typeof CloneCreate>;

const importedFields = {
  tenant: Type.String({ description: 'The tenant written: `hr:<client_id>` or `academy:<acadId>`.' }),
  source: Type.Object(
    {
      tenant: Type.String({ description: 'The tenant the file was exported from, in its installation.' }),
      snapshot: Type.String({ description: 'The snapshot exported.' }),
      created_at: Type.String({ description: 'When that snapshot was saved (datetime).' }),
    },
    { description: 'Where the file came from.' },
  ),
  deleted_rows: Type.Integer({ description: "The tenant's rows deleted first." }),
  imported_rows: Type.Integer({ description: 'Rows written from the file.' }),
  files: Type.Integer({ description: 'Stored files the file held.' }),
  new_files: Type.Integer({ description: 'Of those, files this installation did not store yet.' }),
  renumbered_tables: Type.Integer({
    description: "Tables whose integer keys were moved past the installation's (they were in use).",
  }),
  renamed_ids: Type.Integer({ description: 'Installation-wide unique ids already in use, given anew.' }),
  cancelled_jobs: Type.Integer({ description: "The tenant's pending background jobs, cancelled." }),
  deleted_files: Type.Integer({ description: 'Stored files nothing refers to any more, deleted.' }),
};

export const ImportResult = Type.Object(importedFields, {
  $id: 'AdminSnapshotImported',
  title: 'AdminSnapshotImported',
});
export type ImportResult = Static<typeof ImportResult>;

export const CloneResult = Type.Object(
  {
    ...importedFields,
    id: Type.String({ description: "The new tenant's `client_id`, or `acadId` in decimal." }),
    name: Type.String(),
    application: Type.Optional(
      Type.Intersect([CreatedApplication], {
        description: "HR: the new client's application, its secret shown only in this answer.",
      }),
    ),
    apikey: Type.Optional(
      Type.String({ description: "Academy: the new academy's API key, shown only in this answer." }),
    ),
    super_admin_id: Type.Optional(Type.Integer({ description: 'Academy: its super admin, copied with the users.' })),
  },
  { $id: 'AdminTenantCloned', title: 'AdminTenantCloned' },
);
export type CloneResult = Static<typeof CloneResult>;

export const portableSchemas = [ImportResult, CloneResult];
