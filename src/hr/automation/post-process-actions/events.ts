import { declareEvents } from '../../audit/catalogue.js';

/** The audit events post-process action writes record (docs/hr-api.md, "Audit events"). */
export const postProcessActionEvents = declareEvents('process_post_action', ['created', 'replaced']);
