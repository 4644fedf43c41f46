import { declareEvents } from '../../audit/catalogue.js';

/** The audit events electronic vaults record (docs/hr-api.md, "Audit events"). */
export const vaultEvents = declareEvents('electronic_vault', ['updated', 'activated', 'unlinked', 'deleted']);
