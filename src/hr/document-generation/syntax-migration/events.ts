import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events of a client's syntax migration: `started` (`PUT …/status`), `restarted` (`POST …/restart`), and
 * how its job ends: `completed`, or `failed` when some template could not be converted. Each template converted
 * records its new version's `document_generation_template_version.created`.
 */
export const migrationEvents = declareEvents('document_generation_syntax_migration', [
  'started',
  'restarted',
  'completed',
  'failed',
]);
