import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events tasks record (docs/hr-api.md, "Audit events"): `PATCH` is `updated`, `fill` is `filled`,
 * `complete` is `completed`, except a validation task completed with `state: refused`, which sends the reviewed
 * task back and is `refused`.
 */
export const taskEvents = declareEvents('task', ['updated', 'filled', 'completed', 'refused']);

/** A task file has its own GET (`/tasks/{id}/files/{file_id}`), so it records its own type. */
export const taskFileEvents = declareEvents('task_file', ['created', 'updated', 'deleted']);
