import type { Selectable } from 'kysely';
import { HrRepository } from '../../../platform/db/repository.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { DocumentKind } from '../folders/tables.js';
import type { HrDocumentTypePredictionRunsTable } from './tables.js';

export type PredictionStatus = 'SCHEDULED' | 'IN_PROGRESS' | 'DONE' | 'FAILED';

export interface GuessedType {
  documentTypeId: string;
  probability: number;
}

/** A prediction run as the domain sees it. */
export interface PredictionRunRecord {
  id: string;
  documentId: string;
  status: PredictionStatus;
  errorCode: string | null;
  guesses: GuessedType[];
  startedAt: number | null;
  completedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** What the job reads of the document it classifies. */
export interface ClassifiedDocument {
  id: string;
  kind: DocumentKind;
  sha256: string;
  size: number;
  contentType: string;
}

/** What the rule reads of a document type: its id and every label it has. */
export interface TypeLabels {
  id: string;
  labels: string[];
}

function toRecord(row: Selectable<HrDocumentTypePredictionRunsTable>): PredictionRunRecord {
  const guesses = JSON.parse(row.guessed_document_types) as { document_type_id: string; probability: number }[];
  return {
    id: row.id,
    documentId: row.document_id,
    status: row.status as PredictionStatus,
    errorCode: row.error_code,
    guesses: guesses.map((g) => ({ documentTypeId: g.document_type_id, probability: g.probability })),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Prediction runs, and what they read of documents and document types. Every query takes the client first. */
export class PredictionRunsRepository extends HrRepository {
  async insert(clientId: HrTenantId, run: PredictionRunRecord): Promise<void> {
    await this.tenant(clientId)
      .insertInto('hr_document_type_prediction_runs', {
        id: run.id,
        document_id: run.documentId,
        status: run.status,
        error_code: run.errorCode,
        guessed_document_types: JSON.stringify(
          run.guesses.map((g) => ({ document_type_id: g.documentTypeId, probability: g.probability })),
        ),
        started_at: run.startedAt,
        completed_at: run.completedAt,
        created_at: run.createdAt,
        updated_at: run.updatedAt,
      })
      .execute();
  }

  async find(clientId: HrTenantId, id: string): Promise<PredictionRunRecord | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_document_type_prediction_runs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Moves a run from one status to the next; false when it was not in `from` (another attempt moved it). */
  async advance(
    clientId: HrTenantId,
    id: string,
    from: PredictionStatus,
    to: Pick<PredictionRunRecord, 'status' | 'errorCode' | 'guesses' | 'startedAt' | 'completedAt' | 'updatedAt'>,
  ): Promise<boolean> {
    const result = await this.tenant(clientId)
      .updateTable('hr_document_type_prediction_runs')
      .set({
        status: to.status,
        error_code: to.errorCode,
        guessed_document_types: JSON.stringify(
          to.guesses.map((g) => ({ document_type_id: g.documentTypeId, probability: g.probability })),
        ),
        started_at: to.startedAt,
        completed_at: to.completedAt,
        updated_at: to.updatedAt,
      })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The client's employee or company document with this id (in the trash or not). */
  async document(clientId: HrTenantId, id: string): Promise<ClassifiedDocument | undefined> {
    const row = await this.tenant(clientId)
      .selectFrom('hr_documents')
      .select(['id', 'kind', 'sha256', 'size', 'content_type'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return { id: row.id, kind: row.kind, sha256: row.sha256, size: Number(row.size), contentType: row.content_type };
  }

  /** The client's document types of one kind, with their labels (`label` and each localized value). */
  async types(clientId: HrTenantId, kind: DocumentKind): Promise<TypeLabels[]> {
    const rows = await this.tenant(clientId)
      .selectFrom('hr_document_types')
      .select(['id', 'label', 'localized_labels'])
      .where('kind', '=', kind)
      .orderBy('pk')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      labels: [r.label, ...(JSON.parse(r.localized_labels) as { value: string }[]).map((l) => l.value)],
    }));
  }
}
