import { formatDateTime } from '../../../platform/time.js';
import type { TemplateRecord } from './repository.js';
import type { Template } from './schemas.js';

/** A template on the wire (reference §5.5, `DocGenTemplate`). */
export function presentTemplate(t: TemplateRecord): Template {
  return {
    id: t.id,
    title: t.title,
    description: t.description,
    locale: t.locale,
    format: 'DOCX',
    enabled: t.enabled,
    is_injectable: t.isInjectable,
    validity_start_date: t.validityStartDate,
    validity_end_date: t.validityEndDate,
    latest_version: t.latestVersion,
    active_version: t.activeVersion,
    active_version_syntax: t.activeVersionSyntax,
    restrictions: t.restrictions.map((r) => ({
      organization_id: r.organizationId,
      include_children: r.includeChildren,
    })),
    created_at: formatDateTime(t.createdAt),
    updated_at: formatDateTime(t.updatedAt),
  };
}
