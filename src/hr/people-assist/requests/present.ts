import { formatDateTime } from '../../../platform/time.js';
import type { CommentRecord, PersonRecord, RequestFileRecord, RequestRecord } from './repository.js';
import type { REQUEST_EMBEDS, RequestComment, RequestFull, UserSimplified } from './schemas.js';

/** A request with what its presentation needs. */
export interface RequestView {
  row: RequestRecord;
  files: RequestFileRecord[];
  customStatusName: string | null;
  categoryName: string;
  people: Map<string, PersonRecord>;
}

/** A comment with what its presentation needs. */
export interface CommentView {
  row: CommentRecord;
  files: RequestFileRecord[];
  people: Map<string, PersonRecord>;
}

/** The `embed` values of the request views. */
export type Embed = (typeof REQUEST_EMBEDS)[number];

/** A person (user or employee) in the reference's simplified shape. */
export function simplified(p: PersonRecord): UserSimplified {
  return { id: p.id, firstname: p.firstname, lastname: p.lastname, email: p.email, external_id: p.externalId };
}

function attachmentsOf(files: readonly RequestFileRecord[]) {
  return files.filter((f) => f.kind === 'attachment').map((f) => ({ id: f.id, name: f.filename }));
}

export function presentRequest(view: RequestView, embeds: ReadonlySet<Embed>): RequestFull {
  const { row, people } = view;
  // The `_id` form is always sent (null when nobody); an `embed` replaces it with the object (null when nobody).
  const who = (id: string | null, embed: Embed, key: string): Record<string, unknown> => {
    const p = id === null ? undefined : people.get(id);
    if (embeds.has(embed) && (id === null || p))
      return {
        [key]: !p
          ? null
          : embed === 'employee'
            ? { id: p.id, external_id: p.externalId, firstname: p.firstname, lastname: p.lastname, email: p.email }
            : simplified(p),
      };
    return { [`${key}_id`]: id };
  };
  return {
    id: row.id,
    request_number: String(row.requestNumber),
    name: row.name,
    status: row.status,
    priority: String(row.priority) as RequestFull['priority'],
    ...who(row.employeeId, 'employee', 'employee'),
    ...who(row.creatorId, 'creator', 'creator'),
    ...who(row.closedById, 'closed_by', 'closed_by'),
    organization_ids: row.organizationIds,
    form_id: row.formId,
    form_data: row.formData,
    form_files: view.files
      .filter((f) => f.kind === 'form_file')
      .map((f) => ({ id: f.id, filename: f.filename, field_id: f.fieldId as string })),
    due_date: row.dueDate ?? null,
    custom_status: row.customStatusId
      ? { id: row.customStatusId, name: view.customStatusName ?? row.customStatusId }
      : null,
    category: { id: row.categoryId, name: view.categoryName },
    // Feedback has no client path in the reference (§3d.10), so no request has any.
    feedback: null,
    origin: row.origin as RequestFull['origin'],
    read_by_employee: row.readByEmployee,
    public_comment_count: row.publicCommentCount,
    internal_comment_count: row.internalCommentCount,
    total_comment_count: row.publicCommentCount + row.internalCommentCount,
    public_deleted_comment_count: 0,
    internal_deleted_comment_count: 0,
    total_deleted_comment_count: 0,
    attachment_count: row.attachmentCount,
    read_only: row.status === 'archived',
    visible_by_employee: row.visibleByEmployee,
    need_edit_by_employee: false,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    closed_at: row.closedAt === null ? null : formatDateTime(row.closedAt),
    archived_at: row.archivedAt === null ? null : formatDateTime(row.archivedAt),
  } as RequestFull;
}

export function presentWithAttachments(view: RequestView, embeds: ReadonlySet<Embed>) {
  return { ...presentRequest(view, embeds), attachments: attachmentsOf(view.files) };
}

export function presentComment(view: CommentView, embedCreator: boolean): RequestComment {
  const { row } = view;
  const creator = row.creatorId ? view.people.get(row.creatorId) : undefined;
  return {
    id: row.id,
    // As on requests: `creator_id` (null for a comment nobody wrote), or `creator` with `embed=creator`.
    ...(embedCreator && (row.creatorId === null || creator)
      ? { creator: creator ? simplified(creator) : null }
      : { creator_id: row.creatorId }),
    created_at: formatDateTime(row.createdAt),
    content: row.content,
    is_informative: row.isInformative,
    is_internal: row.isInternal,
    comment_source: row.commentSource,
    is_deleted: false,
    attachments: attachmentsOf(view.files),
  };
}
