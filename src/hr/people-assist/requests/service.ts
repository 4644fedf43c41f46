/** People Assist requests themselves: the list and its filters, a request's GET, creation, PATCH and deletion. */
import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import {
  type FieldError,
  FieldValidationError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
} from '../../../platform/errors.js';
import { type Clock, dayOf, parseDate } from '../../../platform/time.js';
import { checkAnswers, datasetValuesOf, type FileAnswer } from '../../core/forms/rules.js';
import type { FormAnswer } from '../../core/forms/schemas.js';
import type { UploadsService } from '../../core/uploads/service.js';
import type { Audited } from '../../module.js';
import type { RequestFormsService, RequestFormView } from '../request-forms/service.js';
import { checkActor, namedPerson, type RequestActor } from './actors.js';
import { consumeAll } from './consume.js';
import { STATUS_RANK, statusChange } from './lifecycle.js';
import type { Embed, RequestView } from './present.js';
import type {
  EmployeeRegistrations,
  RequestChanges,
  RequestFilter,
  RequestSort,
  RequestsRepository,
} from './repository.js';
import type { RequestCreate, RequestListQuery, RequestPatch } from './schemas.js';
import type { RequestStatus } from './tables.js';
import { type RequestsWork, recordRequest, viewOf, views } from './views.js';

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
  row: { requestNumber: number; name: string },
  answers: readonly FormAnswer[],
  numbers: readonly string[],
): string {
  return `${row.requestNumber} ${searchTail(row.name, answers, numbers)}`;
}

/**
 * People Assist requests (reference §3d): employee cases created from a
 * request form, listed, read, updated along their lifecycle and deleted.
 * Their comments, files, assignees and links, and macros have services of
 * their own (comments-service.ts, files-service.ts, links-service.ts,
 * macros-service.ts). Every call is scoped to one client.
 */
export class RequestsService {
  private readonly repo: RequestsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RequestsWork>>,
    private readonly forms: RequestFormsService,
    private readonly uploads: UploadsService,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.requests;
  }

  // ------------------------------------------------------------ reading

  /** The request `id`; with its people when `embeds` names any (`presentRequest` embeds them). */
  async get(clientId: HrTenantId, id: string, embeds: ReadonlySet<Embed> = new Set()): Promise<RequestView> {
    return viewOf(this.repo, clientId, id, embeds.size > 0);
  }

  private async filter(clientId: HrTenantId, q: RequestListQuery): Promise<RequestFilter | 'empty'> {
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
    clientId: HrTenantId,
    query: RequestListQuery,
    request: PageRequest<RequestSort['field']>,
  ): Promise<Page<RequestView>> {
    const filter = await this.filter(clientId, query);
    if (filter === 'empty') return { items: [] };
    const page = await this.repo.page(clientId, filter, request);
    return { ...page, items: await views(this.repo, clientId, page.items) };
  }

  /**
   * The same page as `list`, each item already its wire JSON without embeds (`presentRequest` with none), built
   * by the database in the statement that reads the page: the list's read path when no `embed` is asked for.
   */
  async listJson(
    clientId: HrTenantId,
    query: RequestListQuery,
    request: PageRequest<RequestSort['field']>,
  ): Promise<Page<string>> {
    const filter = await this.filter(clientId, query);
    if (filter === 'empty') return { items: [] };
    return this.repo.jsonPage(clientId, filter, request);
  }

  // ------------------------------------------------------------ create

  async create(clientId: HrTenantId, input: RequestCreate, actor: RequestActor): Promise<RequestView> {
    const acting = await checkActor(this.repo, clientId, actor);
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
    const employee = await namedPerson(
      this.repo,
      clientId,
      'employee',
      input.employee_id,
      input.employee_external_id,
      ['employee'],
      errors,
      true,
    );
    let creator = await namedPerson(
      this.repo,
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
        today: dayOf(this.clock.now()),
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
      const at = this.clock.now();
      const consumed = await consumeAll(
        this.uploads,
        clientId,
        tx,
        id,
        fileAnswers,
        input.attachment_upload_ids ?? [],
        at,
      );
      const stored = await repo.insertNext(
        {
          clientId,
          id,
          name: form.row.name,
          status: 'created',
          statusRank: 0,
          priority: Number(input.priority ?? '2'),
          employeeId: employee?.id ?? null,
          creatorId: creator?.id ?? null,
          creatorKind: creator?.kind ?? null,
          closedById: null,
          organizationIds,
          formId: form.row.id,
          categoryId: form.row.categoryId,
          formData: answers,
          dueDate: input.due_date ?? null,
          customStatusId: null,
          origin: input.origin ?? 'API',
          readByEmployee: creator !== undefined && creator.kind === 'employee' && creator.id === employee?.id,
          visibleByEmployee: input.visible_by_employee === true,
          publicCommentCount: 0,
          internalCommentCount: 0,
          attachmentCount: consumed.attachments,
          createdAt: at,
          updatedAt: at,
          closedAt: null,
          archivedAt: null,
        },
        searchTail(form.row.name, answers, registrations.numbers),
        organizationIds,
      );
      return recordRequest(clientId, tx, id, 'created', stored);
    });
  }

  // ------------------------------------------------------------ change

  /** PATCH: form answers (merged field by field; file answers add form files), status, priority and due date. */
  async patch(clientId: HrTenantId, id: string, input: RequestPatch, actor: RequestActor): Promise<RequestView> {
    const acting = await checkActor(this.repo, clientId, actor);
    const current = await this.repo.find(clientId, id);
    if (!current) throw new NotFoundError('request', id);
    const form: RequestFormView | undefined =
      input.form_data !== undefined ? await this.forms.get(clientId, current.formId).catch(() => undefined) : undefined;
    return this.work.run(async (tx) => {
      const repo = tx.requests;
      const locked = await repo.lock(clientId, id);
      if (!locked) throw new NotFoundError('request', id);
      const at = this.clock.now();
      const changes: RequestChanges = {};
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
          filesByField.set(f.fieldId as string, (filesByField.get(f.fieldId as string) ?? 0) + 1);
        const checked = checkAnswers(form.definition, input.form_data, {
          datasetValues: await datasetValuesOf(tx.datasets, clientId, form.definition, input.form_data),
          path: 'form_data',
          previous: locked.formData,
          filesByField,
          requireAll: true,
          today: dayOf(at),
        });
        await consumeAll(this.uploads, clientId, tx, id, checked.files, [], at);
        changes.formData = checked.answers;
        const numbers = locked.employeeId ? (await repo.registrations(clientId, locked.employeeId)).numbers : [];
        changes.searchText = searchText(locked, checked.answers, numbers);
      }
      if (input.status !== undefined) Object.assign(changes, statusChange(locked, input.status, acting, at, 'status'));
      if (input.priority !== undefined) changes.priority = Number(input.priority);
      if (input.due_date !== undefined) changes.dueDate = input.due_date;
      changes.updatedAt = at;
      changes.readByEmployee = false;
      await repo.update(clientId, id, changes);
      return recordRequest(clientId, tx, id, 'updated');
    });
  }

  /** DELETE: the request with its comments, files, assignees and links; blobs nothing else holds are removed. */
  async delete(clientId: HrTenantId, id: string): Promise<void> {
    const blobs = await this.work.run(async (tx) => {
      const repo = tx.requests;
      if (!(await repo.lock(clientId, id))) throw new NotFoundError('request', id);
      await recordRequest(clientId, tx, id, 'deleted');
      return repo.delete(clientId, id);
    });
    for (const sha of blobs) await this.blobs.deleteIfUnreferenced(sha);
  }
}
