/** PDF templates of process automation (`/process_pdf_templates`). */

import type {
  PdfTemplate,
  PdfTemplateCountQuery,
  PdfTemplateListQuery,
  PdfTemplatePut,
  PdfTemplateSummary,
} from '../schemas/hr/automation/pdf-templates.js';
import type { Verbs } from './core.js';

/** `hr.processPdfTemplates`. */
export function processPdfTemplates(v: Verbs) {
  const path = '/process_pdf_templates';
  return {
    list: v.list<PdfTemplateSummary, PdfTemplateListQuery>(path),
    count: v.count<PdfTemplateCountQuery>(path),
    retrieve: v.retrieve<PdfTemplate>(path),
    upsert: v.upsert<PdfTemplatePut, PdfTemplate>(path),
  };
}
