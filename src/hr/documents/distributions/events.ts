import { declareEvents } from '../../audit/catalogue.js';

/**
 * The audit events of distribution projects (docs/hr-api.md, "Audit events"; webhooks match
 * `distribution_project.*`): `status_changed` each time the aggregate of its distributions' statuses changes.
 */
export const distributionProjectEvents = declareEvents('distribution_project', [
  'created',
  'validated',
  'canceled',
  'status_changed',
]);

/** The audit events of distributions: `status_changed` at each step of the runner (its `data.status`). */
export const distributionEvents = declareEvents('distribution', ['created', 'status_changed']);
