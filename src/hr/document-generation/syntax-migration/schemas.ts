import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

export const MIGRATION_STATUSES = ['not_started', 'in_progress', 'completed', 'failed'] as const;

const nullableInstant = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

const newMigrationAvailable = Type.Boolean({
  description: 'Whether some template’s latest version is still in V1 syntax.',
});

/** `GET /document_generations/syntax_migration/status`: the client's V1 → V2 migration. */
export const MigrationStatus = Type.Object(
  {
    status: Type.Union(
      MIGRATION_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          '`not_started` until `PUT` starts it; `in_progress` while its job converts every template whose latest version is V1; `completed`, or `failed` when some template could not be converted.',
      },
    ),
    auto_start: Type.Boolean({ description: 'As set by `PUT` (kept and answered; Atrium starts nothing by itself).' }),
    new_migration_available: newMigrationAvailable,
    started_at: nullableInstant,
    ended_at: nullableInstant,
  },
  { $id: 'DocGenMigrationStatus' },
);
export type MigrationStatus = Static<typeof MigrationStatus>;

/** `PUT …/status`: start the migration (only from `not_started`). */
export const MigrationStart = Type.Object(
  {
    status: Type.Literal('in_progress'),
    auto_start: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type MigrationStart = Static<typeof MigrationStart>;

/** `DocGenMigrationCampaign` (reference §5.5): the answer of `POST …/restart`. */
export const MigrationCampaign = Type.Object(
  {
    status: Type.Union(
      ['created', 'started', 'completed', 'failed', 'canceled'].map((s) => Type.Literal(s)),
      {
        description: 'A restart answers `created`: its job is queued.',
      },
    ),
    new_migration_available: newMigrationAvailable,
  },
  { $id: 'DocGenMigrationCampaign' },
);
export type MigrationCampaign = Static<typeof MigrationCampaign>;

/** `GET …/list`: the templates whose latest version is V1, in creation order. */
export const MigrationList = declareList('document_generation_syntax_migration');
export const MigrationListQuery = Type.Object(
  {
    ...PaginationQuery,
    q: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 255,
        description: 'In the title or the description (3 characters at least).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type MigrationListQuery = Static<typeof MigrationListQuery>;

export const MigrationTemplateParams = Type.Object({
  id: Type.String({ pattern: '^[0-9A-Fa-f-]{1,36}$', description: 'The template’s id (a UUID).' }),
});
