import { declareEvents } from '../../audit/catalogue.js';

/** The audit events process templates record (docs/hr-api.md, "Audit events"). */
export const processTemplateEvents = declareEvents('process_template', ['created', 'updated']);

/**
 * A task template has its own GET (`/process_templates/{id}/task_templates/{id}`), so it records its own type. Its
 * id is unique within its process template only: the event's data names the process template.
 */
export const taskTemplateEvents = declareEvents('task_template', ['created', 'updated', 'deleted']);
