import { declareEvents } from '../../audit/catalogue.js';

/** The audit events roles record; a write of a role's permissions is the role's `updated`. */
export const roleEvents = declareEvents('role', ['created', 'updated']);
