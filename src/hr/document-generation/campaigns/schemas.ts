import { type Static, Type } from '@sinclair/typebox';
import { declareList } from '../../lists/declaration.js';
import { PaginationQuery } from '../../lists/pagination.js';
import { DatasetField } from '../generations/schemas.js';

/** The most rows a campaign's `data` holds. */
export const MAX_CAMPAIGN_ROWS = 1000;

export const OUTPUT_ACTIONS = ['zip', 'pdf', 'archive'] as const;
export const CAMPAIGN_STATUSES = ['created', 'in_progress', 'completed', 'failed', 'canceled'] as const;

const OutputAction = Type.Union(
  OUTPUT_ACTIONS.map((a) => Type.Literal(a)),
  {
    description:
      '`zip`: one zip of the documents, DOCX files (PDF when the version is generated in PDF only); `pdf`: one PDF of every document, one after the other; `archive`: each document (a PDF) filed as an employee document of its row’s employee, of `document_type_id`.',
  },
);

const CampaignRow = Type.Object(
  {
    employee_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'The row’s employee: required for `archive`.' }),
    ),
    ref: Type.Optional(
      Type.String({ maxLength: 255, description: 'Your reference of the row: names its file in the zip.' }),
    ),
    fields: Type.Array(DatasetField, { maxItems: 2000 }),
    fragment_fields: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.Array(DatasetField, { maxItems: 2000 }), {
        maxProperties: 200,
        description: 'By fragment placeholder (at most 200): the fragment’s own fields.',
      }),
    ),
  },
  { additionalProperties: false },
);

const common = {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  document_generation_template_id: Type.String({ format: 'uuid' }),
  output_action: OutputAction,
};

/** `DocGenCampaignPayload` (reference §5.5). */
export const CampaignPayload = Type.Object(
  {
    ...common,
    creator_ref: Type.Optional(Type.String({ maxLength: 255, description: 'Who made the campaign, in your terms.' })),
    document_generation_template_version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Default: the template’s latest version.' }),
    ),
    document_type_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'An employee document type: required for `archive`.' }),
    ),
    data: Type.Array(CampaignRow, {
      minItems: 1,
      maxItems: MAX_CAMPAIGN_ROWS,
      description: `The dataset: one document per row (1 to ${MAX_CAMPAIGN_ROWS}).`,
    }),
  },
  { additionalProperties: false },
);
export type CampaignPayload = Static<typeof CampaignPayload>;

const nullableInstant = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

const response = {
  id: Type.String({ format: 'uuid' }),
  ...common,
  creator_ref: Type.Union([Type.String(), Type.Null()]),
  document_generation_template_version: Type.Integer({ description: 'The version the campaign generates.' }),
  document_type_id: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union(
    CAMPAIGN_STATUSES.map((s) => Type.Literal(s)),
    {
      description:
        '`created`, then `in_progress` while its rows are generated, one at a time; `completed` when at least one row was generated, `failed` when none was; `canceled` (`POST …/cancel`).',
    },
  ),
  started_at: nullableInstant,
  ended_at: nullableInstant,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

/** `DocGenCampaignResponse` (reference §5.5): the payload but `data`, and the campaign's state. */
export const Campaign = Type.Object(response, { $id: 'DocGenCampaignResponse' });
export type Campaign = Static<typeof Campaign>;

const RowStatus = Type.Union([Type.Literal('pending'), Type.Literal('generated'), Type.Literal('failed')]);

/** `GET /document_generation_campaigns/{id}`: the campaign, and what became of each row. */
export const CampaignDetails = Type.Object(
  {
    ...response,
    rows_total: Type.Integer(),
    rows_generated: Type.Integer(),
    rows_failed: Type.Integer(),
    rows: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'The row’s position in `data`, from 0.' }),
        employee_id: Type.Union([Type.String(), Type.Null()]),
        ref: Type.Union([Type.String(), Type.Null()]),
        status: RowStatus,
        error: Type.Union([Type.String(), Type.Null()], { description: 'Why a `failed` row failed.' }),
        document_id: Type.Union([Type.String(), Type.Null()], {
          description: '`archive`: the employee document the row was filed as.',
        }),
      }),
    ),
  },
  { $id: 'DocGenCampaignDetails' },
);
export type CampaignDetails = Static<typeof CampaignDetails>;

export const CampaignParams = Type.Object({
  id: Type.String({ pattern: '^[0-9A-Fa-f-]{1,36}$', description: 'The campaign’s id.' }),
});

/** `GET /document_generation_campaigns`: newest first. */
export const CampaignList = declareList('document_generation_campaigns');
export const CampaignListQuery = Type.Object(
  {
    ...PaginationQuery,
    status: Type.Optional(Type.Union(CAMPAIGN_STATUSES.map((s) => Type.Literal(s)))),
    document_generation_template_id: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: false },
);
export type CampaignListQuery = Static<typeof CampaignListQuery>;
