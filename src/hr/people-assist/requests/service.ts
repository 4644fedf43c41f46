import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import {
  type FieldError,
  FieldValidationError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
} from '../../../platform/errors.js';
import { dayOf, now, parseDate } from '../../../platform/time.js';
import { checkAnswers, type DatasetValueLookup, datasetValuesOf, type FileAnswer } from '../../core/forms/rules.js';
import type { FormAnswer } from '../../core/forms/schemas.js';
import type { UploadsRepository } from '../../core/uploads/repository.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import { effectOf, type MacroEffect, type MacrosService, type MacroView } from '../macros/service.js';
import type { RequestFormsService, RequestFormView } from '../request-forms/service.js';
import { requestCommentEvents, requestEvents } from './events.js';
import { type CommentView, type Embed, presentComment, presentWithAttachments, type RequestView } from './present.js';
import type {
  CommentRow,
  EmployeeRegistrations,
  Person,
  RequestFileRow,
  RequestFilter,
  RequestRow,
  RequestSort,
  RequestsRepository,
  StoredRequestView,
} from './repository.js';
import type { CommentCreate, RequestCreate, RequestListQuery, RequestPatch } from './schemas.js';
import type { PersonKind, RequestStatus } from './tables.js';

export const STATUS_RANK: Record<RequestStatus, number> = { created: 0, opened: 1, pending: 2, closed: 3, archived: 4 };

/**
 * The lifecycle rule: any forward move in created → opened → pending →
 * closed → archived, and closed back to opened (a reopening). Archived is
 * final. Returns the reason a move is refused, or undefined.
 */
export function refusedTransition(from: RequestStatus, to: RequestStatus): string | undefined {
  if (from === to) return undefined;
  if (from === 'archived') return 'The request is archived; its status can no longer change.';
  if (STATUS_RANK[to] > STATUS_RANK[from]) return undefined;
  if (from === 'closed' && to === 'opened') return undefined;
  return `A request cannot go from "${from}" back to "${to}"; only a closed request may be reopened (to "opened").`;
}

/** Who makes a call: the application, or the HR user named by `X-Atrium-User-Id`. */
export type RequestActor = { kind: 'application' } | { kind: 'user'; userId: string };

/** The people a request's presentation may embed: its employee, creator and closer, when it has them. */
function peopleOf(row: RequestRow): string[] {
  return [row.employee_id, row.creator_id, row.closed_by_id].filter((x): x is string => x !== null);
}

function person(p: Person | undefined): string | null {
  return p ? p.id : null;
}

function startOfDay(day: string): number {
  const d = parseDate(day);
  if (!d) throw new InvalidRequestError(`"${day}" is not a date (YYYY-MM-DD).`);
  return Date.UTC(d.year, d.month - 1, d.day);
}

const ONE_DAY = 86_400_000;

function csv(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? [...new Set(items)] : undefined;
}

/** What a request's `search_text` holds after its number and a space: its name, its employee's numbers, its answers. */
function searchTail(name: string, answers: readonly FormAnswer[], numbers: readonly string[]): string {
  const words: string[] = [name, ...numbers];
  for (const a of answers) {
    for (const v of a.values) {
      if (typeof v === 'string' || typeof v === 'number') words.push(String(v));
      else if (Array.isArray(v)) for (const node of v) words.push(String((node as { name?: unknown }).name ?? ''));
    }
  }
  return words.join(' ').toLowerCase();
}

function searchText(
  row: { request_number: number; name: string },
  answers: readonly FormAnswer[],
  numbers: readonly string[],
): string {
  return `${row.request_number} ${searchTail(row.name, answers, numbers)}`;
}

/** The repositories request writes touch: the request's rows and the uploads its files consume. */
export interface RequestsWork {
  requests: RequestsRepository;
  uploads: UploadsRepository;
  /** The values of datasets that answers of dataset fields name. */
  datasets: DatasetValueLookup;
}

/**
 * People Assist requests (reference §3d): employee cases created from a
 * request form, with their lifecycle, comments, files, assignees, links and
 * macros. Every call is scoped to one client.
 */
/** The comments a request's PDF shows at most: the newest, oldest first. */
export const MAX_SNAPSHOT_COMMENTS = 1_000;

export class RequestsService {
  private readonly repo: RequestsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RequestsWork>>,
    private readonly forms: RequestFormsService,
    private readonly macros: MacrosService,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
  ) {
    this.repo = work.read.requests;
  }

  // ------------------------------------------------------------ reading

  /** What presenting `rows` needs, read through `repo` (a transaction's, to present what a write leaves). */
  private async views(clientId: string, rows: RequestRow[], repo = this.repo): Promise<RequestView[]> {
    const files = await repo.files(
      clientId,
      rows.map((r) => r.id),
    );
    const statuses = await repo.customStatusNames(
      clientId,
      rows.flatMap((r) => (r.custom_status_id ? [r.custom_status_id] : [])),
    );
    const people = await repo.people(clientId, rows.flatMap(peopleOf));
    const names = await repo.categoryNames(
      clientId,
      rows.map((r) => r.category_id),
      'en-us',
    );
    return rows.map((row) => ({
      row,
      files: files.filter((f) => f.request_id === row.id),
      customStatusName: row.custom_status_id ? (statuses.get(row.custom_status_id) ?? row.custom_status_id) : null,
      categoryName: names.get(row.category_id) ?? row.category_id,
      people,
    }));
  }

  /**
   * Records `action` on the request `id` in the transaction of `tx`, with the request as `GET /requests/{id}`
   * presents it now (before the deletion, for `deleted`); answers its view.
   */
  private async recordRequest(
    clientId: string,
    tx: Audited<RequestsWork>,
    id: string,
    action: (typeof requestEvents.actions)[number],
    stored?: StoredRequestView,
  ): Promise<RequestView> {
    const view = stored ? { ...stored, people: new Map() } : await this.viewOf(clientId, id, false, tx.requests);
    await tx.audit.record(clientId, requestEvents, action, {
      id,
      name: view.row.name,
      data: presentWithAttachments(view, new Set()),
    });
    return view;
  }

  /**
   * The request `id` as its presentation needs it: one statement, and two more for the people when `people` (the
   * `embed` values and the PDF show them; without, `people` is empty and the presentation gives their ids).
   */
  private async viewOf(clientId: string, id: string, people: boolean, repo = this.repo): Promise<RequestView> {
    const found = await repo.findView(clientId, id);
    if (!found) throw new NotFoundError('request', id);
    return {
      ...found,
      people: people ? await repo.people(clientId, peopleOf(found.row)) : new Map(),
    };
  }

  /** The request `id`; with its people when `embeds` names any (`presentRequest` embeds them). */
  async get(clientId: string, id: string, embeds: ReadonlySet<Embed> = new Set()): Promise<RequestView> {
    return this.viewOf(clientId, id, embeds.size > 0);
  }

  private async filter(clientId: string, q: RequestListQuery): Promise<RequestFilter | 'empty'> {
    const f: RequestFilter = {};
    const statuses = csv(q.status);
    if (statuses) {
      const bad = statuses.find((s) => !(s in STATUS_RANK));
      if (bad) throw new InvalidRequestError(`Invalid query parameter "status": "${bad}" is not a request status.`);
      f.statuses = statuses as RequestStatus[];
    }
    const priorities = csv(q.priority);
    if (priorities) {
      const bad = priorities.find((p) => !['1', '2', '3'].includes(p));
      if (bad) throw new InvalidRequestError(`Invalid query parameter "priority": "${bad}" is not 1, 2 or 3.`);
      f.priorities = priorities.map(Number);
    }
    const lists: [keyof RequestFilter, string | undefined][] = [
      ['formIds', q.form_id],
      ['categoryIds', q.categories_ids],
      ['customStatusIds', q.custom_status_id],
      ['organizationIds', q.organization_id],
    ];
    for (const [key, text] of lists) {
      const items = csv(text);
      if (items) (f as Record<string, unknown>)[key] = items;
    }
    if (q.employee_id !== undefined) f.employeeId = q.employee_id;
    if (q.employee_external_id !== undefined) {
      const e = await this.repo.person(clientId, { externalId: q.employee_external_id }, ['employee']);
      if (!e) return 'empty';
      if (f.employeeId !== undefined && f.employeeId !== e.id) return 'empty';
      f.employeeId = e.id;
    }
    if (q.creator_id !== undefined) f.creatorId = q.creator_id;
    if (q.creator_external_id !== undefined) {
      const c = await this.repo.person(clientId, { externalId: q.creator_external_id }, ['user', 'employee']);
      if (!c) return 'empty';
      if (f.creatorId !== undefined && f.creatorId !== c.id) return 'empty';
      f.creatorId = c.id;
    }
    if (q.assignee_id !== undefined) f.assigneeId = q.assignee_id;
    f.ranges = [];
    for (const column of ['created_at', 'updated_at', 'closed_at', 'archived_at'] as const) {
      const since = q[`${column}_since`];
      const until = q[`${column}_until`];
      if (since === undefined && until === undefined) continue;
      f.ranges.push({
        column,
        ...(since !== undefined ? { since: startOfDay(since) } : {}),
        ...(until !== undefined ? { until: startOfDay(until) + ONE_DAY } : {}),
      });
    }
    if (q.q !== undefined && q.q.trim() !== '') f.q = q.q.trim();
    return f;
  }

  async list(
    clientId: string,
    query: RequestListQuery,
    request: PageRequest<RequestSort['field']>,
  ): Promise<Page<RequestView>> {
    const filter = await this.filter(clientId, query);
    if (filter === 'empty') return { items: [] };
    const page = await this.repo.page(clientId, filter, request);
    return { ...page, items: await this.views(clientId, page.items) };
  }

  /**
   * The same page as `list`, each item already its wire JSON without embeds (`presentRequest` with none), built
   * by the database in the statement that reads the page: the list's read path when no `embed` is asked for.
   */
  async listJson(
    clientId: string,
    query: RequestListQuery,
    request: PageRequest<RequestSort['field']>,
  ): Promise<Page<string>> {
    const filter = await this.filter(clientId, query);
    if (filter === 'empty') return { items: [] };
    return this.repo.jsonPage(clientId, filter, request);
  }

  // ------------------------------------------------------------ people

  private async checkActor(clientId: string, actor: RequestActor): Promise<Person | undefined> {
    if (actor.kind === 'application') return undefined;
    const user = await this.repo.person(clientId, { id: actor.userId }, ['user']);
    if (!user)
      throw new InvalidRequestError('Invalid header "X-Atrium-User-Id": no HR user of this client has this id.');
    return user;
  }

  /** The person named by `<field>_id` or `<field>_external_id`; unknown is a field error. */
  private async namedPerson(
    clientId: string,
    field: string,
    id: string | undefined,
    externalId: string | undefined,
    kinds: readonly PersonKind[],
    errors: FieldError[],
    registrations = false,
  ): Promise<(Person & { registrations?: EmployeeRegistrations }) | undefined> {
    if (id !== undefined && id !== '') {
      const p = await this.repo.person(clientId, { id }, kinds, registrations);
      if (!p)
        errors.push({ field: `${field}_id`, code: 'not_found', message: `No ${kinds.join(' or ')} has this id.` });
      return p;
    }
    if (externalId !== undefined && externalId !== '') {
      const p = await this.repo.person(clientId, { externalId }, kinds, registrations);
      if (!p) {
        errors.push({
          field: `${field}_external_id`,
          code: 'not_found',
          message: `No ${kinds.join(' or ')} has this external id.`,
        });
      }
      return p;
    }
    return undefined;
  }

  // ------------------------------------------------------------ create

  async create(clientId: string, input: RequestCreate, actor: RequestActor): Promise<RequestView> {
    const acting = await this.checkActor(clientId, actor);
    const form = await this.forms.forRequest(clientId, input.form_id);
    const { settings } = form;
    const errors: FieldError[] = [];
    if (input.draft_id !== undefined && input.draft_id !== '') {
      errors.push({
        field: 'draft_id',
        code: 'not_found',
        message: 'No request draft has this id (drafts have no client path).',
      });
    }
    const employee = await this.namedPerson(
      clientId,
      'employee',
      input.employee_id,
      input.employee_external_id,
      ['employee'],
      errors,
      true,
    );
    let creator = await this.namedPerson(
      clientId,
      'creator',
      input.creator_id,
      input.creator_external_id,
      ['user', 'employee'],
      errors,
    );
    creator ??= acting;
    const organizationId = input.organization_id ? input.organization_id : undefined;
    if (organizationId !== undefined && !(await this.repo.organizationExists(clientId, organizationId))) {
      errors.push({ field: 'organization_id', code: 'not_found', message: 'No organization has this code.' });
    }
    if (employee && !settings.linkeable_to_employee) {
      errors.push({
        field: 'employee_id',
        code: 'not_linkeable',
        message: `Form "${form.row.id}" cannot be linked to an employee.`,
      });
    }
    if (organizationId !== undefined && !settings.linkeable_to_organization) {
      errors.push({
        field: 'organization_id',
        code: 'not_linkeable',
        message: `Form "${form.row.id}" cannot be linked to an organization.`,
      });
    }
    const mentionedEmployee = Boolean(input.employee_id || input.employee_external_id);
    const hasTarget =
      (mentionedEmployee && settings.linkeable_to_employee) ||
      (organizationId !== undefined && settings.linkeable_to_organization);
    if (settings.employee_organization_mandatory && !hasTarget) {
      const field =
        settings.linkeable_to_employee || !settings.linkeable_to_organization ? 'employee_id' : 'organization_id';
      const what = [
        settings.linkeable_to_employee ? 'an employee' : '',
        settings.linkeable_to_organization ? 'an organization' : '',
      ]
        .filter(Boolean)
        .join(' or ');
      errors.push({ field, code: 'required', message: `Form "${form.row.id}" needs ${what || 'an employee'}.` });
    }
    if (input.due_date !== undefined && !parseDate(input.due_date)) {
      errors.push({ field: 'due_date', code: 'invalid_date', message: 'Expected a date (YYYY-MM-DD).' });
    }
    let checked: { answers: FormAnswer[]; files: FileAnswer[] } | undefined;
    const datasetValues = await datasetValuesOf(this.work.read.datasets, clientId, form.definition, input.form_data);
    try {
      checked = checkAnswers(form.definition, input.form_data, {
        datasetValues,
        path: 'form_data',
        requireAll: true,
        today: dayOf(now()),
      });
    } catch (error) {
      if (!(error instanceof FieldValidationError)) throw error;
      errors.push(...error.fields);
    }
    if (errors.length || !checked) throw new FieldValidationError(errors);
    const registrations: EmployeeRegistrations = employee?.registrations ?? { organizationIds: [], numbers: [] };
    const organizationIds = organizationId !== undefined ? [organizationId] : registrations.organizationIds;
    const answers = checked.answers;
    const fileAnswers = checked.files;

    const id = randomUUID();
    return this.work.run(async (tx) => {
      const repo = tx.requests;
      const at = now();
      const consumed = await this.consumeAll(clientId, tx, id, fileAnswers, input.attachment_upload_ids ?? [], at);
      const stored = await repo.insertNext(
        {
          client_id: clientId,
          id,
          name: form.row.name,
          status: 'created',
          status_rank: 0,
          priority: Number(input.priority ?? '2'),
          employee_id: employee?.id ?? null,
          creator_id: creator?.id ?? null,
          creator_kind: creator?.kind ?? null,
          closed_by_id: null,
          organization_ids: organizationIds,
          form_id: form.row.id,
          category_id: form.row.category_id,
          form_data: answers,
          due_date: input.due_date ?? null,
          custom_status_id: null,
          origin: input.origin ?? 'API',
          read_by_employee: creator !== undefined && creator.kind === 'employee' && creator.id === employee?.id ? 1 : 0,
          visible_by_employee: input.visible_by_employee ? 1 : 0,
          public_comment_count: 0,
          internal_comment_count: 0,
          attachment_count: consumed.attachments,
          created_at: at,
          updated_at: at,
          closed_at: null,
          archived_at: null,
        },
        searchTail(form.row.name, answers, registrations.numbers),
        organizationIds,
      );
      return this.recordRequest(clientId, tx, id, 'created', stored);
    });
  }

  /** Consumes form-field files and attachments into the request's files; returns how many attachments. */
  private async consumeAll(
    clientId: string,
    tx: RequestsWork,
    requestId: string,
    files: readonly FileAnswer[],
    attachmentUploads: readonly string[],
    at: number,
    commentId: string | null = null,
    attachmentField = 'attachment_upload_ids',
  ): Promise<{ attachments: number; ids: string[] }> {
    const repo = tx.requests;
    const ids: string[] = [];
    for (const f of files) {
      const upload = await this.uploads.consume(tx.uploads, clientId, f.uploadId, {
        field: f.path,
      });
      const id = randomUUID();
      await repo.insertFile({
        client_id: clientId,
        id,
        request_id: requestId,
        kind: 'form_file',
        comment_id: null,
        field_id: f.fieldId,
        filename: upload.filename,
        sha256: upload.sha256,
        size: upload.size,
        content_type: upload.contentType,
        created_at: at,
      });
    }
    for (const [i, uploadId] of attachmentUploads.entries()) {
      const upload = await this.uploads.consume(tx.uploads, clientId, uploadId, {
        field: `${attachmentField}.${i}`,
      });
      const id = randomUUID();
      ids.push(id);
      await repo.insertFile({
        client_id: clientId,
        id,
        request_id: requestId,
        kind: 'attachment',
        comment_id: commentId,
        field_id: null,
        filename: upload.filename,
        sha256: upload.sha256,
        size: upload.size,
        content_type: upload.contentType,
        created_at: at,
      });
    }
    return { attachments: attachmentUploads.length, ids };
  }

  // ------------------------------------------------------------ change

  /** The row changes of a status move, or a 422 naming `field` when the lifecycle refuses it. */
  private statusChange(
    row: RequestRow,
    to: RequestStatus,
    actor: Person | undefined,
    at: number,
    field: string,
  ): Partial<RequestRow> {
    const refused = refusedTransition(row.status, to);
    if (refused) throw new FieldValidationError([{ field, code: 'invalid_transition', message: refused }]);
    if (to === row.status) return {};
    const changes: Partial<RequestRow> = { status: to, status_rank: STATUS_RANK[to] };
    if (to === 'closed') {
      changes.closed_at = at;
      changes.closed_by_id = actor?.id ?? null;
    } else if (to === 'archived') {
      changes.archived_at = at;
      if (row.closed_at === null) {
        changes.closed_at = at;
        changes.closed_by_id = actor?.id ?? null;
      }
    } else if (row.status === 'closed') {
      changes.closed_at = null;
      changes.closed_by_id = null;
    }
    return changes;
  }

  /** PATCH: form answers (merged field by field; file answers add form files), status, priority and due date. */
  async patch(clientId: string, id: string, input: RequestPatch, actor: RequestActor): Promise<RequestView> {
    const acting = await this.checkActor(clientId, actor);
    const current = await this.repo.find(clientId, id);
    if (!current) throw new NotFoundError('request', id);
    const form: RequestFormView | undefined =
      input.form_data !== undefined
        ? await this.forms.get(clientId, current.form_id).catch(() => undefined)
        : undefined;
    return this.work.run(async (tx) => {
      const repo = tx.requests;
      const locked = await repo.lock(clientId, id);
      if (!locked) throw new NotFoundError('request', id);
      const at = now();
      const changes: Partial<RequestRow> = {};
      if (input.form_data !== undefined) {
        if (locked.status === 'archived') {
          throw new ForbiddenError('request_read_only', 'The request is archived; its answers can no longer change.');
        }
        if (!form)
          throw new ForbiddenError('request_read_only', 'The request form no longer exists; answers cannot change.');
        if (!form.settings.request_editable_by_user) {
          throw new ForbiddenError(
            'request_not_editable',
            `Requests of form "${form.row.id}" cannot be edited after creation.`,
          );
        }
        const existingFiles = (await repo.files(clientId, [id])).filter((f) => f.kind === 'form_file');
        const filesByField = new Map<string, number>();
        for (const f of existingFiles)
          filesByField.set(f.field_id as string, (filesByField.get(f.field_id as string) ?? 0) + 1);
        const checked = checkAnswers(form.definition, input.form_data, {
          datasetValues: await datasetValuesOf(tx.datasets, clientId, form.definition, input.form_data),
          path: 'form_data',
          previous: locked.form_data,
          filesByField,
          requireAll: true,
          today: dayOf(at),
        });
        await this.consumeAll(clientId, tx, id, checked.files, [], at);
        changes.form_data = checked.answers;
        const numbers = locked.employee_id ? (await repo.registrations(clientId, locked.employee_id)).numbers : [];
        changes.search_text = searchText(locked, checked.answers, numbers);
      }
      if (input.status !== undefined)
        Object.assign(changes, this.statusChange(locked, input.status, acting, at, 'status'));
      if (input.priority !== undefined) changes.priority = Number(input.priority);
      if (input.due_date !== undefined) changes.due_date = input.due_date;
      changes.updated_at = at;
      changes.read_by_employee = 0;
      await repo.update(clientId, id, changes);
      return this.recordRequest(clientId, tx, id, 'updated');
    });
  }

  /** DELETE: the request with its comments, files, assignees and links; blobs nothing else holds are removed. */
  async delete(clientId: string, id: string): Promise<void> {
    const blobs = await this.work.run(async (tx) => {
      const repo = tx.requests;
      if (!(await repo.lock(clientId, id))) throw new NotFoundError('request', id);
      await this.recordRequest(clientId, tx, id, 'deleted');
      return repo.delete(clientId, id);
    });
    for (const sha of blobs) await this.blobs.deleteIfUnreferenced(sha);
  }

  // ------------------------------------------------------------ files

  async file(
    clientId: string,
    requestId: string,
    fileId: string,
    kind: 'attachment' | 'form_file',
  ): Promise<RequestFileRow> {
    await this.get(clientId, requestId);
    const file = await this.repo.findFile(clientId, requestId, fileId);
    if (!file || file.kind !== kind) throw new NotFoundError(kind === 'attachment' ? 'attachment' : 'file', fileId);
    return file;
  }

  async commentAttachment(
    clientId: string,
    requestId: string,
    commentId: string,
    attachmentId: string,
  ): Promise<RequestFileRow> {
    await this.get(clientId, requestId);
    const file = await this.repo.findFile(clientId, requestId, attachmentId);
    if (!file || file.comment_id !== commentId) throw new NotFoundError('attachment', attachmentId);
    return file;
  }

  async deleteFile(
    clientId: string,
    requestId: string,
    fileId: string,
    kind: 'attachment' | 'form_file',
  ): Promise<void> {
    const sha = await this.work.run(async (tx) => {
      const repo = tx.requests;
      const locked = await repo.lock(clientId, requestId);
      if (!locked) throw new NotFoundError('request', requestId);
      const file = await repo.findFile(clientId, requestId, fileId);
      if (!file || file.kind !== kind) throw new NotFoundError(kind === 'attachment' ? 'attachment' : 'file', fileId);
      if (locked.status === 'archived') {
        throw new ForbiddenError('request_read_only', 'The request is archived; its files can no longer change.');
      }
      await repo.deleteFile(clientId, fileId);
      const at = now();
      if (kind === 'attachment') await repo.bumpCounters(clientId, requestId, { attachments: -1 }, at);
      else await repo.update(clientId, requestId, { updated_at: at });
      await this.recordRequest(clientId, tx, requestId, 'updated');
      return file.sha256;
    });
    await this.blobs.deleteIfUnreferenced(sha);
  }

  // ------------------------------------------------------------ comments

  /** A page of a request's comments, newest first, each with its attachments and creator. */
  async comments(clientId: string, requestId: string, request: PageRequest): Promise<Page<CommentView>> {
    await this.get(clientId, requestId);
    const page = await this.repo.commentsPage(clientId, requestId, request);
    const rows = page.items;
    const ids = new Set(rows.map((r) => r.id));
    const files = (await this.repo.files(clientId, [requestId])).filter((f) => f.comment_id && ids.has(f.comment_id));
    const people = await this.repo.people(
      clientId,
      rows.flatMap((r) => (r.creator_id ? [r.creator_id] : [])),
    );
    return {
      ...page,
      items: rows.map((row) => ({ row, files: files.filter((f) => f.comment_id === row.id), people })),
    };
  }

  /**
   * A request with its comments, oldest first (the newest `MAX_SNAPSHOT_COMMENTS` of them): what its PDF shows.
   */
  async snapshot(clientId: string, requestId: string): Promise<{ request: RequestView; comments: CommentView[] }> {
    const request = await this.viewOf(clientId, requestId, true);
    const page = await this.comments(clientId, requestId, { limit: MAX_SNAPSHOT_COMMENTS, sort: [], at: {} });
    return {
      request,
      comments: [...page.items].sort((a, b) => a.row.created_at - b.row.created_at || a.row.pk - b.row.pk),
    };
  }

  /** POST a comment: by a user or the request's employee; its attachments become request attachments. */
  async comment(clientId: string, requestId: string, input: CommentCreate): Promise<CommentView> {
    const request = await this.repo.find(clientId, requestId);
    if (!request) throw new NotFoundError('request', requestId);
    const errors: FieldError[] = [];
    if (!input.creator_id && !input.creator_external_id) {
      errors.push({ field: 'creator_id', code: 'required', message: 'Give creator_id or creator_external_id.' });
    }
    const creator = await this.namedPerson(
      clientId,
      'creator',
      input.creator_id,
      input.creator_external_id,
      ['user', 'employee'],
      errors,
    );
    if (creator?.kind === 'employee' && creator.id !== request.employee_id) {
      errors.push({
        field: 'creator_id',
        code: 'forbidden',
        message: 'Only the request’s own employee may comment on it.',
      });
    }
    const internal = input.is_internal === true;
    if (creator?.kind === 'employee' && internal) {
      errors.push({
        field: 'is_internal',
        code: 'invalid_value',
        message: 'An employee cannot write an internal comment.',
      });
    }
    if (input.content.trim() === '' && (input.attachment_upload_ids ?? []).length === 0) {
      errors.push({ field: 'content', code: 'required', message: 'A comment needs content or attachments.' });
    }
    if (errors.length) throw new FieldValidationError(errors);
    const id = randomUUID();
    return this.work.run(async (tx) => {
      const repo = tx.requests;
      const locked = await repo.lock(clientId, requestId);
      if (!locked) throw new NotFoundError('request', requestId);
      if (locked.status === 'archived') {
        throw new ForbiddenError('request_read_only', 'The request is archived; it takes no more comments.');
      }
      const at = now();
      await repo.insertComment({
        client_id: clientId,
        id,
        request_id: requestId,
        creator_id: creator?.id ?? null,
        creator_kind: creator?.kind ?? null,
        content: input.content,
        is_internal: internal ? 1 : 0,
        is_informative: 0,
        comment_source: 'user',
        created_at: at,
      });
      const consumed = await this.consumeAll(clientId, tx, requestId, [], input.attachment_upload_ids ?? [], at, id);
      await repo.bumpCounters(
        clientId,
        requestId,
        { public: internal ? 0 : 1, internal: internal ? 1 : 0, attachments: consumed.attachments },
        at,
      );
      if (creator?.kind === 'user') await repo.update(clientId, requestId, { read_by_employee: 0 });
      const row = (await repo.findComment(clientId, requestId, id)) as CommentRow;
      const files = (await repo.files(clientId, [requestId])).filter((f) => f.comment_id === id);
      const view: CommentView = { row, files, people: await repo.people(clientId, creator ? [creator.id] : []) };
      // As the comment list (`GET /requests/{id}/comments`) shows it without `embed`; a comment has no name.
      await tx.audit.record(clientId, requestCommentEvents, 'created', {
        id,
        name: null,
        data: presentComment(view, false),
      });
      return view;
    });
  }

  // ------------------------------------------------------------ assignees and links

  async assignees(
    clientId: string,
    requestId: string,
    offset: number,
    length: number,
  ): Promise<{ people: Person[]; total: number }> {
    await this.get(clientId, requestId);
    const { ids, total } = await this.repo.assignees(clientId, requestId, offset, length);
    const people = await this.repo.people(clientId, ids);
    return { people: ids.flatMap((i) => (people.has(i) ? [people.get(i) as Person] : [])), total };
  }

  async linked(clientId: string, requestId: string, request: PageRequest): Promise<Page<RequestView>> {
    await this.get(clientId, requestId);
    const page = await this.repo.linkedPage(clientId, requestId, request);
    return { ...page, items: await this.views(clientId, page.items) };
  }

  async link(clientId: string, requestId: string, others: readonly string[]): Promise<void> {
    await this.get(clientId, requestId);
    const errors: FieldError[] = [];
    const known = await this.repo.existingIds(clientId, others);
    others.forEach((o, i) => {
      if (o === requestId)
        errors.push({ field: `uuid.${i}`, code: 'invalid_value', message: 'A request cannot be linked to itself.' });
      else if (!known.has(o))
        errors.push({ field: `uuid.${i}`, code: 'not_found', message: 'No request has this id.' });
    });
    if (errors.length) throw new FieldValidationError(errors);
    await this.work.run(async (tx) => {
      await tx.requests.link(clientId, requestId, [...new Set(others)], now());
      await this.recordRequest(clientId, tx, requestId, 'linked');
    });
  }

  // ------------------------------------------------------------ macros

  private async offeredFor(clientId: string, request: RequestRow, acting: Person | undefined): Promise<MacroView[]> {
    const roles = acting ? await this.repo.rolesOf(clientId, acting.id) : undefined;
    return this.macros.offered(clientId, request.form_id, request.custom_status_id, roles);
  }

  async availableMacros(clientId: string, requestId: string, actor: RequestActor): Promise<MacroView[]> {
    const acting = await this.checkActor(clientId, actor);
    const request = await this.repo.find(clientId, requestId);
    if (!request) throw new NotFoundError('request', requestId);
    return this.offeredFor(clientId, request, acting);
  }

  /** Runs a macro's actions on the request, in order, all or nothing. */
  async runMacro(clientId: string, requestId: string, macroId: string, actor: RequestActor): Promise<void> {
    const acting = await this.checkActor(clientId, actor);
    const request = await this.repo.find(clientId, requestId);
    if (!request) throw new NotFoundError('request', requestId);
    const macro = await this.macros.get(clientId, macroId);
    const offered = await this.offeredFor(clientId, request, acting);
    if (!offered.some((m) => m.id === macroId)) {
      throw new ForbiddenError(
        'macro_not_available',
        `Macro "${macroId}" is not available for this request (form, custom status, role or inactive).`,
      );
    }
    const errors: FieldError[] = [];
    const effects = macro.actions
      .map((a, i) => effectOf(a, `actions.${i}`, errors))
      .filter((e): e is MacroEffect => e !== undefined);
    if (errors.length) throw new FieldValidationError(errors);
    // Look up what the effects name before the transaction (one SQLite connection).
    const statuses = new Map<string, { is_active: number } | undefined>();
    const users = new Map<string, Person | undefined>();
    for (const e of effects) {
      if (e.template === 'RequestChangeCustomState' && e.customStatus !== null) {
        statuses.set(e.customStatus, await this.repo.customStatus(clientId, e.customStatus));
      }
      if (e.template === 'RequestAssignOnlyTo' || e.template === 'RequestAddAssignee') {
        users.set(e.userId, await this.repo.person(clientId, { id: e.userId }, ['user']));
      }
    }
    await this.work.run(async (tx) => {
      const repo = tx.requests;
      let row = await repo.lock(clientId, requestId);
      if (!row) throw new NotFoundError('request', requestId);
      const at = now();
      for (const [i, effect] of effects.entries()) {
        const field = `macro_id`;
        switch (effect.template) {
          case 'RequestChangeState': {
            const changes = this.statusChange(row, effect.status, acting, at, field);
            row = { ...row, ...changes };
            await repo.update(clientId, requestId, changes);
            break;
          }
          case 'RequestChangeCustomState': {
            if (effect.customStatus !== null) {
              const status = statuses.get(effect.customStatus);
              if (status?.is_active !== 1) {
                throw new FieldValidationError([
                  {
                    field,
                    code: 'invalid_value',
                    message: `Action ${i}: custom status "${effect.customStatus}" is missing or inactive.`,
                  },
                ]);
              }
            }
            if (row.status === 'archived') {
              throw new FieldValidationError([
                { field, code: 'invalid_transition', message: 'The request is archived.' },
              ]);
            }
            row = { ...row, custom_status_id: effect.customStatus };
            await repo.update(clientId, requestId, { custom_status_id: effect.customStatus });
            break;
          }
          case 'RequestChangePriority':
            await repo.update(clientId, requestId, { priority: effect.priority });
            break;
          case 'RequestAssignOnlyTo':
          case 'RequestAddAssignee': {
            if (!users.get(effect.userId)) {
              throw new FieldValidationError([
                { field, code: 'invalid_value', message: `Action ${i}: no user "${effect.userId}".` },
              ]);
            }
            await repo.assign(clientId, requestId, effect.userId, at, effect.template === 'RequestAssignOnlyTo');
            break;
          }
          case 'RequestAddComment': {
            await repo.insertComment({
              client_id: clientId,
              id: randomUUID(),
              request_id: requestId,
              creator_id: person(acting),
              creator_kind: acting ? 'user' : null,
              content: effect.content,
              is_internal: effect.isInternal ? 1 : 0,
              is_informative: 1,
              comment_source: 'macro',
              created_at: at,
            });
            await repo.bumpCounters(clientId, requestId, effect.isInternal ? { internal: 1 } : { public: 1 }, at);
            break;
          }
        }
      }
      await repo.update(clientId, requestId, { updated_at: at, read_by_employee: 0 });
      await this.recordRequest(clientId, tx, requestId, 'macro_applied');
    });
  }
}
