import { declareEvents } from '../../audit/catalogue.js';

/** The audit events templates record: POST and PUT (`created` or `updated`), PATCH, DELETE. */
export const templateEvents = declareEvents('document_generation_template', ['created', 'updated', 'deleted']);

/** A template version's events: an upload or a migration (`created`), its metadata (`updated`), DELETE. */
export const templateVersionEvents = declareEvents('document_generation_template_version', [
  'created',
  'updated',
  'deleted',
]);
