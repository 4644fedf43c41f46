/**
 * The rules of a process template's and a task template's writes (reference §3f.2): ids, a task template's place
 * among its siblings (at most MAX_TASK_TEMPLATES, an immutable type, a dependency without a cycle), its roles, and
 * the fields each type takes. Each check adds to the write's field errors, in the order the 422 lists them.
 */
import type { FieldError } from '../../../platform/errors.js';
import { FieldValidationError } from '../../../platform/errors.js';
import { checkDefinition } from '../../core/forms/rules.js';
import type { TaskTemplateRecord } from './repository.js';
import type { TaskSettings, TaskTemplatePut } from './schemas.js';
import { TEMPLATE_ID_PATTERN } from './schemas.js';

/** At most this many task templates per process template (a process copies them all when it is created). */
export const MAX_TASK_TEMPLATES = 100;

const ID_RE = new RegExp(TEMPLATE_ID_PATTERN);

type TypeField = 'upload_id' | 'message' | 'formidable' | 'pdf_template_id' | 'signature_zone_id';
const TYPE_FIELDS: TypeField[] = ['upload_id', 'message', 'formidable', 'pdf_template_id', 'signature_zone_id'];
/** The type-specific fields each task type accepts. */
const ALLOWED: Record<TaskTemplateRecord['type'], TypeField[]> = {
  acknowledgment: ['upload_id'],
  basic: ['message'],
  fill_form: ['formidable'],
  fill_pdf: ['formidable', 'pdf_template_id'],
  signature: ['pdf_template_id', 'signature_zone_id'],
  validation: [],
};

export function badId(id: string): FieldError | undefined {
  return ID_RE.test(id)
    ? undefined
    : { field: 'id', code: 'invalid_format', message: 'Ids use lower-case letters, digits, `-` and `_` only.' };
}

/** The id in the path, and the ids the body repeats, which must be the path's. */
export function pathErrors(id: string, processTemplateId: string, input: TaskTemplatePut): FieldError[] {
  const errors: FieldError[] = [];
  const idError = badId(id);
  if (idError) errors.push(idError);
  if (input.id !== undefined && input.id !== id) {
    errors.push({ field: 'id', code: 'mismatch', message: 'The id in the body must be the one of the path.' });
  }
  if (input.process_template_id !== undefined && input.process_template_id !== processTemplateId) {
    errors.push({
      field: 'process_template_id',
      code: 'mismatch',
      message: 'The process template in the body must be the one of the path.',
    });
  }
  return errors;
}

/** A task template among its siblings: their number, its type, its validation rule and its dependency. */
export function placeErrors(
  errors: FieldError[],
  input: TaskTemplatePut,
  id: string,
  siblings: TaskTemplateRecord[],
  existing: TaskTemplateRecord | undefined,
  dependsOn: string | null,
): void {
  if (!existing && siblings.length >= MAX_TASK_TEMPLATES) {
    errors.push({
      field: 'id',
      code: 'too_many',
      message: `A process template has at most ${MAX_TASK_TEMPLATES} task templates.`,
    });
  }
  if (existing && existing.type !== input.type) {
    errors.push({
      field: 'type',
      code: 'immutable',
      message: `The type of a task template cannot change (it is ${existing.type}).`,
    });
  }
  if (input.type === 'validation' && input.assigned_to !== 'users') {
    errors.push({
      field: 'assigned_to',
      code: 'invalid_value',
      message: 'A validation task is assigned to users: the employee does not review.',
    });
  }
  if (dependsOn === null && input.type === 'validation') {
    errors.push({
      field: 'depends_on_id',
      code: 'required',
      message: 'A validation task reviews the task it depends on: give depends_on_id.',
    });
  }
  if (dependsOn !== null) {
    const byId = new Map(siblings.map((t) => [t.id, t.dependsOnId]));
    if (dependsOn === id) {
      errors.push({ field: 'depends_on_id', code: 'self_dependency', message: 'A task cannot depend on itself.' });
    } else if (!byId.has(dependsOn)) {
      errors.push({
        field: 'depends_on_id',
        code: 'not_found',
        message: 'No task template of this process template has this id.',
      });
    } else {
      // Follow the chain from the dependency: reaching this template again would make a cycle.
      const seen = new Set<string>();
      let at: string | null | undefined = dependsOn;
      while (at && !seen.has(at)) {
        if (at === id) {
          errors.push({
            field: 'depends_on_id',
            code: 'cycle',
            message: 'This dependency would make a cycle of task templates.',
          });
          break;
        }
        seen.add(at);
        at = byId.get(at);
      }
    }
  }
}

/** The role and the notified roles, each of which must exist (`roles`: those that do). */
export function roleErrors(
  errors: FieldError[],
  input: TaskTemplatePut,
  notifications: NonNullable<TaskTemplatePut['email_notifications']>,
  roles: Set<string>,
): void {
  if (input.role_id && !roles.has(input.role_id)) {
    errors.push({ field: 'role_id', code: 'not_found', message: 'No role has this id.' });
  }
  notifications.forEach((n, i) => {
    n.role_ids.forEach((r, k) => {
      if (!roles.has(r)) {
        errors.push({
          field: `email_notifications.${i}.role_ids.${k}`,
          code: 'not_found',
          message: 'No role has this id.',
        });
      }
    });
  });
}

/** The type-specific fields: only the type's own, the required ones given; the settings they make. */
export function typeSettings(
  errors: FieldError[],
  input: TaskTemplatePut,
  existing: TaskTemplateRecord | undefined,
): TaskSettings {
  const allowed = ALLOWED[input.type];
  for (const field of TYPE_FIELDS) {
    if (input[field] !== undefined && !allowed.includes(field)) {
      errors.push({ field, code: 'not_allowed', message: `A ${input.type} task template has no ${field}.` });
    }
  }
  const settings: TaskSettings = {};
  if (input.type === 'basic') settings.message = input.message ?? '';
  if (input.type === 'fill_form' && input.formidable === undefined) {
    errors.push({ field: 'formidable', code: 'required', message: 'A fill_form task template needs its form.' });
  }
  if ((input.type === 'fill_form' || input.type === 'fill_pdf') && input.formidable !== undefined) {
    try {
      settings.formidable = checkDefinition(input.formidable, 'formidable');
    } catch (error) {
      if (!(error instanceof FieldValidationError)) throw error;
      errors.push(...error.fields);
    }
  }
  if (input.type === 'fill_pdf' || input.type === 'signature') {
    if (input.pdf_template_id === undefined) {
      errors.push({
        field: 'pdf_template_id',
        code: 'required',
        message: `A ${input.type} task needs a PDF template.`,
      });
    } else settings.pdf_template_id = input.pdf_template_id;
  }
  if (input.type === 'signature') {
    if (input.signature_zone_id === undefined) {
      errors.push({
        field: 'signature_zone_id',
        code: 'required',
        message: 'A signature task needs a signature zone.',
      });
    } else settings.signature_zone_id = input.signature_zone_id;
  }
  if (input.type === 'acknowledgment' && !existing && input.upload_id === undefined) {
    errors.push({ field: 'upload_id', code: 'required', message: 'Upload the document to acknowledge.' });
  }
  return settings;
}
