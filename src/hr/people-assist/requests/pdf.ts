import type { ComposedDocument, ComposedSection } from '../../../platform/pdf/compose.js';
import { formatUtcStamp } from '../../../platform/time.js';
import type { CommentView, RequestView } from './present.js';
import type { PersonRecord } from './repository.js';

const when = formatUtcStamp;
const name = (p: PersonRecord | undefined, id: string | null) =>
  id === null ? '—' : p ? `${p.firstname} ${p.lastname}${p.email ? ` <${p.email}>` : ''}` : id;

/** One answer as text: strings as they are, a dataset's path by names, a file by its name. */
function answerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(answerText).join(' / ');
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const key of ['name', 'filename', 'label', 'id', 'upload_id']) if (typeof o[key] === 'string') return o[key];
  }
  return JSON.stringify(value) ?? '';
}

/**
 * What a request's PDF (reference: `GET /requests/{id}/pdf`, "a PDF snapshot of the request") shows, as a document
 * of text: the request's fields, its form's answers and files, its attachments, and its comments, oldest first,
 * internal ones marked. The reference does not describe its content: this layout is Atrium's (docs/hr-api.md).
 */
export function presentRequestPdf(view: RequestView, comments: CommentView[], madeAt: number): ComposedDocument {
  const { row, people } = view;
  const sections: ComposedSection[] = [
    {
      heading: 'Request',
      rows: [
        ['Status', row.status + (view.customStatusName ? ` (${view.customStatusName})` : '')],
        ['Category', view.categoryName],
        ['Form', row.formId],
        ['Priority', String(row.priority)],
        ['Employee', name(people.get(row.employeeId ?? ''), row.employeeId)],
        ['Created by', name(people.get(row.creatorId ?? ''), row.creatorId)],
        ['Organizations', row.organizationIds.join(', ') || '—'],
        ['Created', when(row.createdAt)],
        ['Updated', when(row.updatedAt)],
        ['Closed', row.closedAt === null ? '—' : when(row.closedAt)],
        ['Due', row.dueDate ?? '—'],
      ],
    },
    {
      heading: 'Answers',
      rows: [
        ...row.formData.map((a): [string, string] => [a.field_id, (a.values as unknown[]).map(answerText).join(', ')]),
        ...view.files
          .filter((f) => f.kind === 'form_file')
          .map((f): [string, string] => [f.fieldId ?? 'file', `File: ${f.filename}`]),
      ],
    },
  ];
  const attachments = view.files.filter((f) => f.kind === 'attachment');
  if (attachments.length > 0) {
    sections.push({ heading: 'Attachments', paragraphs: attachments.map((f) => `${f.filename} (${f.size} bytes)`) });
  }
  sections.push({
    heading: `Comments (${comments.length})`,
    paragraphs:
      comments.length === 0
        ? ['No comment.']
        : comments.flatMap((c) => [
            `${when(c.row.createdAt)} - ${name(c.people.get(c.row.creatorId ?? ''), c.row.creatorId)}${c.row.isInternal ? ' - internal' : ''}`,
            c.row.content,
            ...c.files.map((f) => `Attachment: ${f.filename}`),
          ]),
  });
  return {
    title: `Request ${row.requestNumber}: ${row.name}`,
    subtitle: `Snapshot made ${when(madeAt)} by Atrium`,
    sections,
    footer: `Request ${row.requestNumber} (${row.id})`,
  };
}
