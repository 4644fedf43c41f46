import { type Static, Type } from '@sinclair/typebox';

export const PREDICTION_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'DONE', 'FAILED'] as const;

/** `POST /document_type_prediction_run`'s body (reference §3c.8). */
export const PredictionRunCreate = Type.Object({
  document_id: Type.String({
    minLength: 1,
    maxLength: 255,
    description:
      'The employee or company document to classify (its `id`). The reference types it as an integer, but its documents’ ids are strings, as Atrium’s are (docs/hr-api.md, "Document classification").',
  }),
});
export type PredictionRunCreate = Static<typeof PredictionRunCreate>;

export const PredictionRunParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255, description: 'The run id (a UUID).' }),
});
export type PredictionRunParams = Static<typeof PredictionRunParams>;

export const GuessedDocumentType = Type.Object({
  document_type_id: Type.String({ description: 'An employee or company document type, as the document’s kind.' }),
  probability: Type.Number({ minimum: 0, maximum: 1 }),
});
export type GuessedDocumentType = Static<typeof GuessedDocumentType>;

/** `DocumentTypePredictionRun` (reference §3c.8). */
export const PredictionRun = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    document_id: Type.String(),
    status: Type.Union(
      PREDICTION_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          '`SCHEDULED` when created, `IN_PROGRESS` while the job reads the document, then `DONE` or `FAILED`.',
      },
    ),
    error_code: Type.Union([Type.String(), Type.Null()], { description: 'Null unless FAILED (`prediction-error`).' }),
    started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    guessed_document_types: Type.Array(GuessedDocumentType, {
      maxItems: 5,
      description: 'Up to 5, by probability (highest first); empty until DONE.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'DocumentTypePredictionRun' },
);
export type PredictionRun = Static<typeof PredictionRun>;
