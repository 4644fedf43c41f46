import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';

/** A request's status (the requests' table declares it; macros set it without importing requests). */
type RequestStatus = Tables['pa_requests']['status'];

import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { WorkflowSortField } from '../custom-statuses/schemas.js';
import { macroEvents } from './events.js';
import { presentMacroDetail } from './present.js';
import type { MacroFilter, MacroRecord, MacrosRepository } from './repository.js';
import type { MacroAction, MacroPut, MacroTemplate } from './schemas.js';

export const REQUEST_STATUSES: readonly RequestStatus[] = ['created', 'opened', 'pending', 'closed', 'archived'];

/** A macro action after checking: what it does to a request. */
export type MacroEffect =
  | { template: 'RequestChangeState'; status: RequestStatus }
  | { template: 'RequestChangeCustomState'; customStatus: string | null }
  | { template: 'RequestChangePriority'; priority: number }
  | { template: 'RequestAssignOnlyTo'; userId: string }
  | { template: 'RequestAddAssignee'; userId: string }
  | { template: 'RequestAddComment'; content: string; isInternal: boolean };

const DEFAULT_LABELS: Record<MacroTemplate, string> = {
  RequestChangeState: 'Change status',
  RequestChangeCustomState: 'Set custom status',
  RequestChangePriority: 'Change priority',
  RequestAssignOnlyTo: 'Assign only to',
  RequestAddAssignee: 'Add assignee',
  RequestAddComment: 'Add comment',
};

/** A macro as services use it (its record: lists and actions decoded). */
export type MacroView = MacroRecord;

/** The repositories macros work with. */
export interface MacrosWork {
  macros: MacrosRepository;
}

/** Reads an action's data into its effect; a missing or wrong datum is a field error at `path`. */
export function effectOf(action: MacroAction, path: string, errors: FieldError[]): MacroEffect | undefined {
  const data = action.data;
  const bad = (key: string, message: string): undefined => {
    errors.push({ field: `${path}.data.${key}`, code: 'invalid_value', message });
    return undefined;
  };
  switch (action.template) {
    case 'RequestChangeState':
      return REQUEST_STATUSES.includes(data.status as RequestStatus)
        ? { template: action.template, status: data.status as RequestStatus }
        : bad('status', `Expected one of ${REQUEST_STATUSES.join(', ')}.`);
    case 'RequestChangeCustomState':
      return data.custom_status === null || (typeof data.custom_status === 'string' && data.custom_status !== '')
        ? { template: action.template, customStatus: data.custom_status as string | null }
        : bad('custom_status', 'Expected a custom status id, or null.');
    case 'RequestChangePriority':
      return ['1', '2', '3', 1, 2, 3].includes(data.priority as string)
        ? { template: action.template, priority: Number(data.priority) }
        : bad('priority', 'Expected "1", "2" or "3".');
    case 'RequestAssignOnlyTo':
      return typeof data.manager_id === 'string' && data.manager_id !== ''
        ? { template: action.template, userId: data.manager_id }
        : bad('manager_id', 'Expected a user id.');
    case 'RequestAddAssignee':
      return typeof data.user_id === 'string' && data.user_id !== ''
        ? { template: action.template, userId: data.user_id }
        : bad('user_id', 'Expected a user id.');
    case 'RequestAddComment':
      if (typeof data.content !== 'string' || data.content.trim() === '' || data.content.length > 20000) {
        return bad('content', 'Expected the comment text (at most 20000 characters).');
      }
      if (data.is_internal !== undefined && typeof data.is_internal !== 'boolean') {
        return bad('is_internal', 'Expected true or false.');
      }
      return { template: action.template, content: data.content, isInternal: data.is_internal === true };
  }
}

/** Macros (reference §3d.8): named actions HR runs on a request, offered by form, role and custom status. */
export class MacrosService {
  private readonly repo: MacrosRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<MacrosWork>>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.macros;
  }

  list(clientId: HrTenantId, filter: MacroFilter, request: PageRequest<WorkflowSortField>): Promise<Page<MacroRecord>> {
    return this.repo.page(clientId, filter, request);
  }

  count(clientId: HrTenantId, filter: MacroFilter): Promise<number> {
    return this.repo.count(clientId, filter);
  }

  async get(clientId: HrTenantId, id: string): Promise<MacroView> {
    const macro = await this.repo.find(clientId, id);
    if (!macro) throw new NotFoundError('macro', id);
    return macro;
  }

  /** Active macros offered on a request of `formId` in `customStatus`, to a caller with `roles` (undefined: the application, any role). */
  async offered(
    clientId: HrTenantId,
    formId: string,
    customStatus: string | null,
    roles?: readonly string[],
  ): Promise<MacroView[]> {
    const macros = await this.repo.active(clientId);
    return macros.filter(({ forms, customStatuses: statuses, roles: allowed }) => {
      if (forms.length > 0 && !forms.includes(formId)) return false;
      if (statuses.length > 0 && (customStatus === null || !statuses.includes(customStatus))) return false;
      if (roles !== undefined && allowed.length > 0 && !allowed.some((r) => roles.includes(r))) return false;
      return true;
    });
  }

  /** PUT: creates the macro at `id` or replaces it; every id it names must exist (422 otherwise). */
  async put(clientId: HrTenantId, id: string, input: MacroPut): Promise<{ macro: MacroView; created: boolean }> {
    const errors: FieldError[] = [];
    const effects = input.actions.map((a, i) => effectOf(a, `actions.${i}`, errors));
    const missing = async (
      table: 'pa_request_forms' | 'hr_roles' | 'pa_custom_statuses' | 'hr_users',
      ids: { value: string; field: string }[],
      what: string,
    ) => {
      const known = await this.repo.existing(
        clientId,
        table,
        ids.map((i) => i.value),
      );
      for (const i of ids) {
        if (!known.has(i.value))
          errors.push({ field: i.field, code: 'not_found', message: `No ${what} "${i.value}".` });
      }
    };
    await missing(
      'pa_request_forms',
      input.forms.map((f, i) => ({ value: f, field: `forms.${i}` })),
      'request form',
    );
    await missing(
      'hr_roles',
      (input.roles ?? []).map((r, i) => ({ value: r, field: `roles.${i}` })),
      'role',
    );
    const statusRefs = (input.custom_status ?? []).map((s, i) => ({ value: s, field: `custom_status.${i}` }));
    const userRefs: { value: string; field: string }[] = [];
    effects.forEach((e, i) => {
      if (e?.template === 'RequestChangeCustomState' && e.customStatus !== null) {
        statusRefs.push({ value: e.customStatus, field: `actions.${i}.data.custom_status` });
      }
      if (e?.template === 'RequestAssignOnlyTo')
        userRefs.push({ value: e.userId, field: `actions.${i}.data.manager_id` });
      if (e?.template === 'RequestAddAssignee') userRefs.push({ value: e.userId, field: `actions.${i}.data.user_id` });
    });
    await missing('pa_custom_statuses', statusRefs, 'custom status');
    await missing('hr_users', userRefs, 'user');
    if (errors.length) throw new FieldValidationError(errors);

    const attrs = {
      name: input.name,
      label: input.label,
      description: input.description ?? '',
      active: input.active !== false,
      forms: input.forms,
      roles: input.roles ?? [],
      customStatuses: input.custom_status ?? [],
      actions: input.actions.map((a) => ({
        label: a.label ?? DEFAULT_LABELS[a.template],
        template: a.template,
        data: a.data,
      })),
    };
    return this.work.run(async ({ macros, audit }) => {
      const at = this.clock.now();
      const created = await macros.insertIfAbsent(clientId, id, attrs, at);
      if (!created) await macros.update(clientId, id, attrs, at);
      const macro = (await macros.find(clientId, id)) as MacroRecord;
      // As `GET /macros/{id}` answers without `embed=actions`.
      await audit.record(clientId, macroEvents, created ? 'created' : 'updated', {
        id,
        name: macro.name,
        data: presentMacroDetail(macro, false),
      });
      return { macro, created };
    });
  }
}
