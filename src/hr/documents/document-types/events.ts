import { declareEvents } from '../../audit/catalogue.js';
import type { DocumentKind } from '../folders/tables.js';

const ACTIONS = ['created', 'updated'] as const;

/**
 * The audit events document types record, one resource type per kind (`employee_document_type.created`): the two
 * kinds are separate resources of the API, whose ids may coincide.
 */
export const documentTypeEvents = {
  employee: declareEvents('employee_document_type', ACTIONS),
  company: declareEvents('company_document_type', ACTIONS),
} satisfies Record<DocumentKind, unknown>;
