import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import { checkDefinition } from '../../core/forms/rules.js';
import type { FormDefinition } from '../../core/forms/schemas.js';
import type { EmployeesPerimeter, PerimeterInput } from '../../core/perimeters/rules.js';
import type { PerimetersService } from '../../core/perimeters/service.js';
import type { Audited } from '../../module.js';
import { requestFormEvents } from './events.js';
import { presentRequestForm, type RequestFormView } from './present.js';
import type {
  RequestFormFilter,
  RequestFormRecord,
  RequestFormSettings,
  RequestFormsRepository,
} from './repository.js';
import { type RequestFormPatch, type RequestFormPut, SETTING_DEFAULTS } from './schemas.js';

export type { RequestFormView } from './present.js';
export type { RequestFormSettings } from './repository.js';

export function viewOf(row: RequestFormRecord): RequestFormView {
  return { row, settings: row.settings, definition: row.formidable };
}

const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as (keyof typeof SETTING_DEFAULTS)[];

/** The repositories request-form writes touch. */
export interface RequestFormsWork {
  requestForms: RequestFormsRepository;
}

/** Request forms (reference §3d.9): the request types, each with a category, settings and a form definition. */
export class RequestFormsService {
  private readonly repo: RequestFormsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RequestFormsWork>>,
    private readonly perimeters: PerimetersService,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.requestForms;
  }

  private async filter(
    clientId: HrTenantId,
    input: {
      category_id?: string;
      is_default?: boolean;
      language_code?: string;
      featured?: boolean;
      q?: string;
      employee_id?: string;
    },
  ): Promise<RequestFormFilter> {
    if (input.q !== undefined && input.language_code === undefined) {
      throw new InvalidRequestError('Query parameter "q" needs "language_code".');
    }
    const filter: RequestFormFilter = {};
    if (input.category_id !== undefined) filter.categoryId = input.category_id;
    if (input.is_default !== undefined) filter.isDefault = input.is_default;
    if (input.language_code !== undefined) filter.languageCode = input.language_code;
    if (input.featured !== undefined) filter.featured = input.featured;
    if (input.q !== undefined) filter.q = input.q;
    if (input.employee_id !== undefined) {
      const ids: string[] = [];
      for (const row of await this.repo.all(clientId)) {
        const { settings } = viewOf(row);
        if (!settings.visible_by_employee) continue;
        const covered = await this.perimeters.covers(clientId, input.employee_id, settings.employee_restrictions);
        if (covered === undefined) {
          throw new FieldValidationError([
            { field: 'employee_id', code: 'not_found', message: 'No employee has this id.' },
          ]);
        }
        if (covered) ids.push(row.id);
      }
      filter.ids = ids;
    }
    return filter;
  }

  async list(
    clientId: HrTenantId,
    input: Parameters<RequestFormsService['filter']>[1],
    request: PageRequest<'title' | 'last_hits'>,
  ): Promise<Page<RequestFormView>> {
    const page = await this.repo.page(clientId, await this.filter(clientId, input), request);
    return { ...page, items: page.items.map(viewOf) };
  }

  async count(clientId: HrTenantId, input: Parameters<RequestFormsService['filter']>[1]): Promise<number> {
    return this.repo.count(clientId, await this.filter(clientId, input));
  }

  async get(clientId: HrTenantId, id: string): Promise<RequestFormView> {
    const row = await this.repo.find(clientId, id);
    if (!row) throw new NotFoundError('request form', id);
    return viewOf(row);
  }

  /** The form a request names; an unknown one is a field error on `form_id`. */
  async forRequest(clientId: HrTenantId, id: string): Promise<RequestFormView> {
    const row = await this.repo.find(clientId, id);
    if (!row)
      throw new FieldValidationError([{ field: 'form_id', code: 'not_found', message: `No request form "${id}".` }]);
    return viewOf(row);
  }

  private async checkReferences(
    clientId: HrTenantId,
    input: {
      category_id?: string;
      employee_restrictions?: PerimeterInput[];
      user_restrictions?: { roles: { id: string }[] };
    },
    errors: FieldError[],
  ): Promise<EmployeesPerimeter[] | undefined> {
    if (input.category_id !== undefined && !(await this.repo.existingCategories(clientId, [input.category_id])).size) {
      errors.push({ field: 'category_id', code: 'not_found', message: 'No knowledge-base category has this id.' });
    }
    const roles = input.user_restrictions?.roles ?? [];
    const knownRoles = await this.repo.existingRoles(
      clientId,
      roles.map((r) => r.id),
    );
    roles.forEach((r, i) => {
      if (!knownRoles.has(r.id))
        errors.push({ field: `user_restrictions.roles.${i}.id`, code: 'not_found', message: 'No role has this id.' });
    });
    if (input.employee_restrictions === undefined) return undefined;
    const checked = await this.perimeters.check(clientId, 'employee_restrictions', input.employee_restrictions);
    errors.push(...checked.errors);
    return checked.perimeters;
  }

  /** PUT: replaces the form, or creates it at the slug (201). */
  async put(
    clientId: HrTenantId,
    id: string,
    input: RequestFormPut,
  ): Promise<{ form: RequestFormView; created: boolean }> {
    const errors: FieldError[] = [];
    let definition: FormDefinition | undefined;
    try {
      definition = checkDefinition(input.formidable, 'formidable');
    } catch (error) {
      if (!(error instanceof FieldValidationError)) throw error;
      errors.push(...error.fields);
    }
    const perimeters = await this.checkReferences(clientId, input, errors);
    const existing = await this.repo.find(clientId, id);
    if (!existing && input.category_id === undefined) {
      errors.push({ field: 'category_id', code: 'required', message: 'A new form needs a category.' });
    }
    if (errors.length) throw new FieldValidationError(errors);
    const settings: RequestFormSettings = {
      ...SETTING_DEFAULTS,
      employee_restrictions: [],
      user_restrictions: { roles: [] },
      form_group_id: null,
      is_default_language: null,
    };
    for (const key of SETTING_KEYS) {
      if (input[key] !== undefined) (settings as unknown as Record<string, unknown>)[key] = input[key];
    }
    if (perimeters) settings.employee_restrictions = perimeters;
    if (input.user_restrictions) settings.user_restrictions = input.user_restrictions;
    if (input.form_group_id !== undefined) settings.form_group_id = input.form_group_id;
    if (input.is_default_language !== undefined) settings.is_default_language = input.is_default_language;
    const categoryId = input.category_id ?? (existing?.categoryId as string);
    const isDefault = input.is_default ?? existing?.isDefault ?? false;
    const attrs = {
      name: input.name,
      categoryId,
      languageCode: input.language_code ?? existing?.languageCode ?? 'en-us',
      isDefault,
      featured: settings.featured,
      keywords: settings.keywords,
      settings,
      // Defined here: a definition that failed its check was reported with the other errors above.
      formidable: definition as FormDefinition,
    };
    return this.work.run(async ({ requestForms: repo, audit }) => {
      const at = this.clock.now();
      const created = await repo.insertIfAbsent(clientId, id, attrs, at);
      if (!created) await repo.update(clientId, id, attrs, at);
      if (isDefault) await repo.clearOtherDefaults(clientId, categoryId, id);
      const form = viewOf((await repo.find(clientId, id)) as RequestFormRecord);
      await audit.record(clientId, requestFormEvents, created ? 'created' : 'updated', {
        id,
        name: form.row.name,
        data: presentRequestForm(form),
      });
      return { form, created };
    });
  }

  /** PATCH: changes only the settings sent (and the category). */
  async patch(clientId: HrTenantId, id: string, input: RequestFormPatch): Promise<RequestFormView> {
    const errors: FieldError[] = [];
    await this.checkReferences(clientId, input, errors);
    if (errors.length) throw new FieldValidationError(errors);
    return this.work.run(async ({ requestForms: repo, audit }) => {
      const row = await repo.find(clientId, id);
      if (!row) throw new NotFoundError('request form', id);
      const { settings } = viewOf(row);
      if (input.category_id !== undefined && settings.form_group_id !== null) {
        throw new FieldValidationError([
          {
            field: 'category_id',
            code: 'in_form_group',
            message: 'The form belongs to a multilingual group; change the group category instead.',
          },
        ]);
      }
      for (const key of SETTING_KEYS) {
        if (input[key] !== undefined) (settings as unknown as Record<string, unknown>)[key] = input[key];
      }
      await repo.update(
        clientId,
        id,
        {
          ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
          featured: settings.featured,
          keywords: settings.keywords,
          settings,
        },
        this.clock.now(),
      );
      const form = viewOf((await repo.find(clientId, id)) as RequestFormRecord);
      await audit.record(clientId, requestFormEvents, 'updated', {
        id,
        name: form.row.name,
        data: presentRequestForm(form),
      });
      return form;
    });
  }

  /**
   * `POST /request_forms/{slug}/change_group_category`: moves every form of the form's multilingual group to the
   * category. Answers the refusal the reference words as `{detail}` (403 before 400), or undefined once moved.
   * Atrium has no feature switches: the multilingual feature counts as enabled once a form of the client belongs
   * to a group.
   */
  async changeGroupCategory(
    clientId: HrTenantId,
    id: string,
    categoryId: string,
  ): Promise<'feature_disabled' | 'not_in_group' | undefined> {
    return this.work.run(async ({ requestForms: repo, audit }) => {
      const forms = await repo.all(clientId);
      const form = forms.find((f) => f.id === id);
      if (!form) throw new NotFoundError('request form', id);
      if (!forms.some((f) => viewOf(f).settings.form_group_id !== null)) return 'feature_disabled';
      const group = viewOf(form).settings.form_group_id;
      if (group === null) return 'not_in_group';
      if (!(await repo.existingCategories(clientId, [categoryId])).has(categoryId)) {
        throw new FieldValidationError([
          { field: 'category_slug', code: 'not_found', message: 'No knowledge-base category has this id.' },
        ]);
      }
      const at = this.clock.now();
      for (const member of forms.filter((f) => viewOf(f).settings.form_group_id === group)) {
        if (member.categoryId === categoryId) continue;
        await repo.update(clientId, member.id, { categoryId }, at);
        const moved = viewOf((await repo.find(clientId, member.id)) as RequestFormRecord);
        await audit.record(clientId, requestFormEvents, 'updated', {
          id: member.id,
          name: moved.row.name,
          data: presentRequestForm(moved),
        });
      }
      return undefined;
    });
  }
}
