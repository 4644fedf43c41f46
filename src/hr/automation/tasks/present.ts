import { DAY_MS, formatDateTime, parseDate } from '../../../platform/time.js';
import type { TaskFileRecord, TaskRecord } from './repository.js';
import type { Task, TaskFile } from './schemas.js';

/** Who completed a task, as `embed=completed_by` shows them. */
export interface PersonView {
  id: string;
  firstname: string;
  lastname: string;
  email: string | null;
  external_id: string | null;
}

/** A task with what its presentation needs. */
export interface TaskView {
  row: TaskRecord;
  files: TaskFileRecord[];
  eventIds: number[];
  /** Set with `embed=completed_by`. */
  completedBy?: PersonView | null;
}

export type TaskEmbed = 'completed_by' | 'signature_zone';

/** Tasks on the wire (reference §3f.3): domain → wire, shared by the task and process routes. */

const REMINDER_HOUR_MS = 9 * 3_600_000;

/** 09:00 UTC, `reminder_offset` days before the due date; null without both or once completed. */
function scheduledReminder(view: TaskView): string | null {
  const { dueDate, reminderOffset, status } = view.row;
  if (dueDate === null || reminderOffset === null || status === 'completed') return null;
  const day = parseDate(dueDate);
  if (!day) return null;
  const at = Date.UTC(day.year, day.month - 1, day.day) + REMINDER_HOUR_MS - reminderOffset * DAY_MS;
  return formatDateTime(at);
}

export function presentTaskFile(file: TaskFileRecord): TaskFile {
  return { id: file.id, task_id: file.taskId, filename: file.filename, field_id: file.fieldId ?? '' };
}

/** A task in the shape of its type (reference §3f.3): the common fields, then the type's own. */
export function presentTask(view: TaskView, embed: ReadonlySet<TaskEmbed> = new Set()): Task {
  const { row } = view;
  const { settings } = row;
  const files = (role: TaskFileRecord['role']) =>
    view.files.filter((f) => f.role === role).map((f) => ({ id: f.id, filename: f.filename }));
  const out: Task = {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    process_id: row.processId,
    template_task_id: row.templateTaskId,
    depends_on_id: row.dependsOnId,
    assigned_to: row.assignedTo,
    role_id: row.roleId,
    fetch_previous_data: row.fetchPreviousData,
    status: row.status,
    due_date: row.dueDate,
    reminder_offset: row.reminderOffset,
    scheduled_reminder_at: scheduledReminder(view),
    validation_events_ids: view.eventIds,
    has_requested_changes: row.hasRequestedChanges,
    completed_at: row.completedAt === null ? null : formatDateTime(row.completedAt),
    ...(embed.has('completed_by')
      ? { completed_by: view.completedBy ?? null }
      : { completed_by_id: row.completedById }),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
  switch (row.type) {
    case 'basic':
      out.message = settings.message ?? '';
      break;
    case 'acknowledgment': {
      out.files = files('document');
      out.uploaded_document = out.files[0]?.filename ?? null;
      break;
    }
    case 'fill_form':
    case 'fill_pdf':
      out.form_id = row.templateTaskId;
      out.form_data = row.formData;
      out.form_files = view.files
        .filter((f) => f.role === 'form')
        .map((f) => ({ id: f.id, filename: f.filename, field_id: f.fieldId ?? '' }));
      if (row.type === 'fill_pdf') {
        out.pdf_template_id = settings.pdf_template_id ?? '';
        out.files = files('result');
      }
      break;
    case 'signature':
      out.pdf_template_id = settings.pdf_template_id ?? '';
      out.files = files('result');
      if (embed.has('signature_zone')) {
        out.signature_zone = {
          id: settings.signature_zone_id ?? '',
          // The reference's geometry (strings there): Atrium keeps no PDF templates, so none is known.
          position_x: null,
          position_y: null,
          width: null,
          height: null,
          page: null,
          pdf_template_id: settings.pdf_template_id ?? '',
        };
      } else {
        out.signature_zone_id = settings.signature_zone_id ?? '';
      }
      break;
    default:
      break;
  }
  return out;
}
