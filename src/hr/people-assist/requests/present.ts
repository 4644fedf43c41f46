import { formatDateTime } from '../../../platform/time.js';
import type { CommentRow, Person, RequestFileRow, RequestRow } from './repository.js';
import type { REQUEST_EMBEDS, RequestComment, RequestFull, UserSimplified } from './schemas.js';

/** A request with what its presentation needs. */
export interface RequestView {
  row: RequestRow;
  files: RequestFileRow[];
  customStatusName: string | null;
  categoryName: string;
  people: Map<string, Person>;
}

/** A comment with what its presentation needs. */
export interface CommentView {
  row: CommentRow;
  files: RequestFileRow[];
  people: Map<string, Person>;
}

/** The `embed` values of the request views. */
export type Embed = (typeof REQUEST_EMBEDS)[number];

/** A person (user or employee) in the reference's simplified shape. */
export function simplified(p: Person): UserSimplified {
  return { id: p.id, firstname: p.firstname, lastname: p.lastname, email: p.email, external_id: p.external_id };
}

function attachmentsOf(files: readonly RequestFileRow[]) {
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
            ? { id: p.id, external_id: p.external_id, firstname: p.firstname, lastname: p.lastname, email: p.email }
            : simplified(p),
      };
    return { [`${key}_id`]: id };
  };
  return {
    id: row.id,
    request_number: String(row.request_number),
    name: row.name,
    status: row.status,
    priority: String(row.priority) as RequestFull['priority'],
    ...who(row.employee_id, 'employee', 'employee'),
    ...who(row.creator_id, 'creator', 'creator'),
    ...who(row.closed_by_id, 'closed_by', 'closed_by'),
    organization_ids: row.organization_ids,
    form_id: row.form_id,
    form_data: row.form_data,
    form_files: view.files
      .filter((f) => f.kind === 'form_file')
      .map((f) => ({ id: f.id, filename: f.filename, field_id: f.field_id as string })),
    due_date: row.due_date ?? null,
    custom_status: row.custom_status_id
      ? { id: row.custom_status_id, name: view.customStatusName ?? row.custom_status_id }
      : null,
    category: { id: row.category_id, name: view.categoryName },
    // Feedback has no client path in the reference (§3d.10), so no request has any.
    feedback: null,
    origin: row.origin as RequestFull['origin'],
    read_by_employee: row.read_by_employee === 1,
    public_comment_count: row.public_comment_count,
    internal_comment_count: row.internal_comment_count,
    total_comment_count: row.public_comment_count + row.internal_comment_count,
    public_deleted_comment_count: 0,
    internal_deleted_comment_count: 0,
    total_deleted_comment_count: 0,
    attachment_count: row.attachment_count,
    read_only: row.status === 'archived',
    visible_by_employee: row.visible_by_employee === 1,
    need_edit_by_employee: false,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
    closed_at: row.closed_at === null ? null : formatDateTime(row.closed_at),
    archived_at: row.archived_at === null ? null : formatDateTime(row.archived_at),
  } as RequestFull;
}

export function presentWithAttachments(view: RequestView, embeds: ReadonlySet<Embed>) {
  return { ...presentRequest(view, embeds), attachments: attachmentsOf(view.files) };
}

export function presentComment(view: CommentView, embedCreator: boolean): RequestComment {
  const { row } = view;
  const creator = row.creator_id ? view.people.get(row.creator_id) : undefined;
  return {
    id: row.id,
    // As on requests: `creator_id` (null for a comment nobody wrote), or `creator` with `embed=creator`.
    ...(embedCreator && (row.creator_id === null || creator)
      ? { creator: creator ? simplified(creator) : null }
      : { creator_id: row.creator_id }),
    created_at: formatDateTime(row.created_at),
    content: row.content,
    is_informative: row.is_informative === 1,
    is_internal: row.is_internal === 1,
    comment_source: row.comment_source,
    is_deleted: false,
    attachments: attachmentsOf(view.files),
  };
}
