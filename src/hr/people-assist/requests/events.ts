import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events requests record (docs/hr-api.md, "Audit events"). A change of a request's own fields (its
 * answers, status, priority, due date) or of its files is `request.updated`; linking other requests is
 * `request.linked`; running a macro on it is `request.macro_applied`. Each carries the request as its GET shows it.
 */
export const requestEvents = declareEvents('request', ['created', 'updated', 'deleted', 'linked', 'macro_applied']);

/** A comment has its own list (`GET /requests/{id}/comments`), so it records its own type. */
export const requestCommentEvents = declareEvents('request_comment', ['created']);
