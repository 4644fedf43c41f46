import { declareEvents } from '../../audit/catalogue.js';
import type { DocumentKind } from '../folders/tables.js';

/**
 * What a document's writes record: `created` (POST), `updated` (PUT, PATCH, `PUT …/expiration/update`), `trashed`
 * and `restored` (`PUT …/trash`, `…/untrash`), `expired` (`PUT …/expire`), `deleted` (DELETE, and each document
 * an emptied trash deletes). One resource type per kind: `employee_document.created`, `company_document.created`.
 */
const ACTIONS = ['created', 'updated', 'trashed', 'restored', 'expired', 'deleted'] as const;

export const documentEvents = {
  employee: declareEvents('employee_document', ACTIONS),
  company: declareEvents('company_document', ACTIONS),
} satisfies Record<DocumentKind, unknown>;
