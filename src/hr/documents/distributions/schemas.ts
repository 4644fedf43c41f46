import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';

/** Reference §2 "Document Manager: Distribution Projects / Distributions", §5.6. */

/** A project's statuses, in the order a distribution goes through them, then the two ends that are no success. */
export const PROJECT_STATUSES = [
  'new',
  'preparing_documents',
  'integrating_documents',
  'waiting_for_validation',
  'validated',
  'building_campaigns',
  'sending_notifications',
  'sending_to_mypeopledoc',
  'completed',
  'canceled',
  'error',
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** A distribution's: the project's and `deleted` (in the reference; no call of the API deletes one). */
export const DISTRIBUTION_STATUSES = [...PROJECT_STATUSES, 'deleted'] as const;
export type DistributionStatus = (typeof DISTRIBUTION_STATUSES)[number];

/** The largest id a path or a filter names: past it, nothing is found. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

const Id = Type.String({ minLength: 1, maxLength: 32, description: 'The integer id.' });
export const DistributionProjectParams = Type.Object({ id: Id });
export const DistributionParams = Type.Object({ id: Id });

const Text = (max = 255) => Type.String({ minLength: 1, maxLength: max });
const OptText = (description?: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()], description ? { description } : {}));

const projectBase = {
  name: Text(),
  paper_configuration: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'The paper configuration (its code). Atrium prints nothing: it is kept and returned.',
  }),
  notifications_delivery: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10,
      default: 0,
      description: 'Days over which the notifications are spread (1–10; 0, the default: at once).',
    }),
  ),
  group_paper_mailing: Type.Optional(Type.Boolean({ default: true })),
  restrict_access_to_group: Type.Optional(Type.Boolean({ default: false })),
  send_package_to_specific_organization: Type.Optional(Type.Boolean({ default: false })),
  user_id: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], {
      description: 'The HR user in charge of the project (an id of `/users`).',
    }),
  ),
  automatic_validation: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'When true, the distributions never wait for validation; otherwise they stop at `waiting_for_validation` until `POST /distribution_projects/{id}/validate`.',
    }),
  ),
  package_first_name: OptText(),
  package_last_name: OptText(),
  package_address: OptText(),
  package_address_2: OptText(),
  package_address_3: OptText(),
  package_postcode: OptText(),
  package_city: OptText(),
  package_country: Type.Optional(
    Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Null()], {
      description: 'ISO 3166-1 alpha-2 code (`FR`).',
    }),
  ),
  package_contact: OptText(),
  has_paper_configuration_recipient_contact_been_used: Type.Optional(Type.Boolean({ default: false })),
};

export const DistributionProjectCreate = Type.Object(projectBase);
export type DistributionProjectCreate = Static<typeof DistributionProjectCreate>;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const DistributionProject = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    paper_configuration: Type.String(),
    notifications_delivery: Type.Integer(),
    group_paper_mailing: Type.Boolean(),
    restrict_access_to_group: Type.Boolean(),
    send_package_to_specific_organization: Type.Boolean(),
    user_id: Nullable(Type.String()),
    automatic_validation: Type.Boolean(),
    package_first_name: Nullable(Type.String()),
    package_last_name: Nullable(Type.String()),
    package_address: Nullable(Type.String()),
    package_address_2: Nullable(Type.String()),
    package_address_3: Nullable(Type.String()),
    package_postcode: Nullable(Type.String()),
    package_city: Nullable(Type.String()),
    package_country: Nullable(Type.String()),
    package_contact: Nullable(Type.String()),
    has_paper_configuration_recipient_contact_been_used: Type.Boolean(),
    status: Type.String({
      enum: [...PROJECT_STATUSES],
      description: 'The aggregate of its distributions’ statuses (docs/hr-api.md, "Distributions").',
    }),
  },
  { $id: 'DistributionProjectFull', title: 'DistributionProjectFull' },
);
export type DistributionProject = Static<typeof DistributionProject>;

export const DistributionCreate = Type.Object({
  name: Text(),
  distribution_type_id: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'An employee document type (`/employee_document_types`): the type of the documents filed.',
  }),
  distribution_project_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  file_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'An upload (`POST /uploads`), used up: a PDF whose pages name the employees (docs/hr-api.md, "Distributions").',
  }),
});
export type DistributionCreate = Static<typeof DistributionCreate>;

export const DistributionError = Type.Object({
  id: Type.String(),
  message: Type.String(),
  error_type: Type.String({ enum: ['external', 'internal'] }),
  code: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

export const Distribution = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    distribution_type_id: Type.String(),
    distribution_project_id: Type.Integer(),
    file_id: Type.String(),
    distribution_error: Type.Union([DistributionError, Type.Null()]),
    status: Type.String({ enum: [...DISTRIBUTION_STATUSES] }),
  },
  { $id: 'DistributionFull', title: 'DistributionFull' },
);
export type Distribution = Static<typeof Distribution>;

/** `GET /distribution_projects`: newest first. */
export const DistributionProjectList = declareList('distribution_projects');
export const DistributionProjectListQuery = Type.Object(
  { ...PaginationQuery, status: Type.Optional(Type.String({ enum: [...PROJECT_STATUSES] })) },
  { additionalProperties: false },
);
export type DistributionProjectListQuery = Static<typeof DistributionProjectListQuery>;

/** `GET /distributions`: newest first. */
export const DistributionList = declareList('distributions');
export const DistributionListQuery = Type.Object(
  { ...PaginationQuery, distribution_project_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID })) },
  { additionalProperties: false },
);
export type DistributionListQuery = Static<typeof DistributionListQuery>;
