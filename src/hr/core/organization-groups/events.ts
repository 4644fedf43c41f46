import { declareEvents } from '../../audit/catalogue.js';

/** The audit events organization groups record; a change of members is the group's `updated`. */
export const organizationGroupEvents = declareEvents('organization_group', ['created', 'updated']);
