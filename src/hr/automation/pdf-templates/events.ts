import { declareEvents } from '../../audit/catalogue.js';

/** The audit events PDF template writes record (docs/hr-api.md, "Audit events"). */
export const pdfTemplateEvents = declareEvents('pdf_template', ['created', 'updated']);
