import { type Static, Type } from '@sinclair/typebox';

/** A snapshot's name: letters, digits, `.`, `_` and `-`, up to 64 (it is a path segment). */
export const SNAPSHOT_NAME = '^[A-Za-z0-9._-]{1,64}$';

const name = Type.String({
  pattern: SNAPSHOT_NAME,
  maxLength: 64,
  description: 'Letters, digits, `.`, `_` and `-`; 1 to 64 characters.',
});

/** `/tenants/{kind}/{id}/snapshots/{name}`. */
export const SnapshotParams = Type.Object(
  {
    kind: Type.String({ maxLength: 16, description: '`hr` (an HR client) or `academy` (an academy).' }),
    id: Type.String({ minLength: 1, maxLength: 255, description: 'The `client_id`, or the `acadId`.' }),
    name,
  },
  { additionalProperties: false },
);
export type SnapshotParams = Static<typeof SnapshotParams>;

export const SnapshotCreate = Type.Object({ name }, { additionalProperties: false, title: 'AdminSnapshotCreate' });
export type SnapshotCreate = Static<typeof SnapshotCreate>;

export const SnapshotRestore = Type.Object(
  {
    credentials: Type.Optional(
      Type.Union([Type.Literal('keep'), Type.Literal('restore')], {
        description:
          "`keep` (the default): the tenant's credentials (HR applications, academy keys) and its own row stay as they are now; `restore`: they are put back as saved too.",
      }),
    ),
  },
  { additionalProperties: false, title: 'AdminSnapshotRestore' },
);
export type SnapshotRestore = Static<typeof SnapshotRestore>;

export const Snapshot = Type.Object(
  {
    name: Type.String({ description: "The snapshot's name, unique within its tenant." }),
    tenant: Type.String({ description: '`hr:<client_id>` or `academy:<acadId>`.' }),
    created_at: Type.String({ description: 'When it was saved (datetime, the installation clock).' }),
    created_by: Type.String({ description: 'Who saved it: the operator token, by id and name.' }),
    rows_count: Type.Integer({ description: 'Rows saved, every table together (credentials included).' }),
    files_count: Type.Integer({ description: 'Stored files its rows refer to, kept while the snapshot is.' }),
    size: Type.Integer({ description: 'Bytes of saved rows (JSON).' }),
    tables: Type.Optional(
      Type.Record(Type.String(), Type.Integer(), { description: 'Rows saved of each table (GET of one snapshot).' }),
    ),
  },
  { $id: 'AdminSnapshot', title: 'AdminSnapshot' },
);
export type Snapshot = Static<typeof Snapshot>;

export const SnapshotList = Type.Object({ snapshots: Type.Array(Type.Ref(Snapshot)) }, { title: 'AdminSnapshotList' });

export const ReplaceResult = Type.Object(
  {
    tenant: Type.String({ description: '`hr:<client_id>` or `academy:<acadId>`.' }),
    snapshot: Type.Union([Type.String(), Type.Null()], { description: 'The snapshot restored; null for a reset.' }),
    credentials: Type.String({ description: '`keep` or `restore`.' }),
    deleted_rows: Type.Integer({ description: "The tenant's rows deleted." }),
    restored_rows: Type.Integer({ description: 'Rows put back from the snapshot.' }),
    cancelled_jobs: Type.Integer({ description: "The tenant's pending background jobs, cancelled." }),
    deleted_files: Type.Integer({ description: 'Stored files nothing refers to any more, deleted.' }),
  },
  { $id: 'AdminTenantReplaced', title: 'AdminTenantReplaced' },
);
export type ReplaceResult = Static<typeof ReplaceResult>;

/** The shared schemas of this resource, added to the admin API once. */
export const snapshotSchemas = [Snapshot, ReplaceResult];
