import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, NotFoundError } from '../../../platform/errors.js';
import { commaList } from '../../../platform/lists.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { DEFAULT_FOLDER_ID, type FoldersService } from '../folders/service.js';
import type { DocumentKind } from '../folders/tables.js';
import { documentTypeEvents } from './events.js';
import { presentDocumentType } from './present.js';
import type {
  DocumentTypeRecord,
  DocumentTypeSettings,
  DocumentTypesRepository,
  DocumentTypeView,
} from './repository.js';
import type { DocumentTypeInput, DocumentTypeListQuery, MetaDataDefinition } from './schemas.js';

export type { DocumentTypeSettings, DocumentTypeView } from './repository.js';

const SETTING_KEYS: Record<DocumentKind, (keyof DocumentTypeSettings)[]> = {
  employee: [
    'file_type_restrictions',
    'metadata',
    'user_access_permissions',
    'update_documents_on_employee_transfer',
    'policies',
    'employee_access_permissions',
    'templates',
    'synchronized_custom_fields',
  ],
  company: [
    'file_type_restrictions',
    'metadata',
    'user_access_permissions',
    'expiry_date_policy_type',
    'expiry_date_policy_options',
  ],
};

const DEFAULTS: Record<DocumentKind, DocumentTypeSettings> = {
  employee: {
    file_type_restrictions: [],
    metadata: [],
    user_access_permissions: [],
    update_documents_on_employee_transfer: 'add',
    policies: [],
    employee_access_permissions: [],
    templates: [],
    synchronized_custom_fields: [],
  },
  company: {
    file_type_restrictions: [],
    metadata: [],
    user_access_permissions: [],
    expiry_date_policy_type: 'no_limit',
  },
};

export function typeView(row: DocumentTypeRecord): DocumentTypeView {
  return { row, settings: row.settings };
}

/** The repositories document types work with. */
export interface DocumentTypesWork {
  documentTypes: DocumentTypesRepository;
}

/** Employee and company document types (reference §3c.4). */
export class DocumentTypesService {
  private readonly repo: DocumentTypesRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<DocumentTypesWork>>,
    private readonly folders: FoldersService,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.documentTypes;
  }

  async get(clientId: HrTenantId, kind: DocumentKind, id: string): Promise<DocumentTypeView> {
    const row = await this.repo.find(clientId, kind, id);
    if (!row) throw new NotFoundError('document type', id);
    return typeView(row);
  }

  async list(
    clientId: HrTenantId,
    kind: DocumentKind,
    query: DocumentTypeListQuery,
    request: PageRequest,
  ): Promise<Page<DocumentTypeView>> {
    const filtered =
      query.folder_id !== undefined ||
      query.q !== undefined ||
      query.with_mandatory_metadata !== undefined ||
      query.employee_access_permissions !== undefined ||
      query.with_document_templates !== undefined ||
      query.document_template_id !== undefined;
    let ids: string[] | undefined;
    if (filtered) {
      const wanted = commaList(query.employee_access_permissions);
      const q = query.q?.toLowerCase();
      ids = (await this.repo.all(clientId, kind))
        .map(typeView)
        .filter(({ row, settings }) => {
          if (query.folder_id !== undefined && row.folderId !== query.folder_id) return false;
          if (q !== undefined) {
            const names = [row.id, row.label, ...row.localizedLabels.map((l) => l.value)];
            if (!names.some((n: string) => n.toLowerCase().includes(q))) return false;
          }
          if (query.with_mandatory_metadata !== undefined) {
            const mandatory = (settings.metadata ?? []).some((m) => m.is_required);
            if (mandatory !== query.with_mandatory_metadata) return false;
          }
          if (
            wanted &&
            !wanted.every((p) => (settings.employee_access_permissions as string[] | undefined)?.includes(p))
          )
            return false;
          const templates = settings.templates ?? [];
          if (query.with_document_templates !== undefined && templates.length > 0 !== query.with_document_templates)
            return false;
          if (query.document_template_id !== undefined && !templates.includes(query.document_template_id)) return false;
          return true;
        })
        .map(({ row }) => row.id);
    }
    const page = await this.repo.page(clientId, kind, ids, request);
    return { ...page, items: page.items.map(typeView) };
  }

  /** PUT: creates (201) or replaces every attribute but the label (200). */
  async put(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    input: DocumentTypeInput,
  ): Promise<{ type: DocumentTypeView; created: boolean }> {
    await this.folders.ensureDefaults(clientId, kind);
    return this.work.run(async ({ documentTypes: repo, audit }) => {
      const existing = await repo.find(clientId, kind, id);
      const settings = { ...DEFAULTS[kind] };
      for (const key of SETTING_KEYS[kind])
        if (input[key] !== undefined) Object.assign(settings, { [key]: input[key] });
      const folderId = input.folder_id ?? DEFAULT_FOLDER_ID;
      await this.check(repo, clientId, kind, folderId, settings);
      const localized = input.localized_labels ?? [];
      const values = {
        label: input.label ?? localized[0]?.value ?? id,
        localizedLabels: localized,
        folderId,
        settings,
      };
      const at = this.clock.now();
      let created = false;
      if (!existing) created = await repo.insertIfAbsent(clientId, kind, id, values, at);
      if (!created) {
        const { label: _unchanged, ...rest } = values;
        await repo.update(clientId, kind, id, rest, at);
      }
      const type = typeView((await repo.find(clientId, kind, id)) as DocumentTypeRecord);
      await audit.record(clientId, documentTypeEvents[kind], created ? 'created' : 'updated', {
        id,
        name: type.row.label,
        data: presentDocumentType(type),
      });
      return { type, created };
    });
  }

  /** PATCH: only the attributes sent; the label never changes; templates can be added or removed. */
  async patch(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    input: DocumentTypeInput,
  ): Promise<DocumentTypeView> {
    await this.folders.ensureDefaults(clientId, kind);
    return this.work.run(async ({ documentTypes: repo, audit }) => {
      const row = await repo.find(clientId, kind, id);
      if (!row) throw new NotFoundError('document type', id);
      const settings = { ...row.settings };
      for (const key of SETTING_KEYS[kind])
        if (input[key] !== undefined) Object.assign(settings, { [key]: input[key] });
      if (kind === 'employee' && (input.add_templates || input.remove_templates)) {
        const templates = new Set(settings.templates ?? []);
        for (const t of input.add_templates ?? []) templates.add(t);
        for (const t of input.remove_templates ?? []) templates.delete(t);
        settings.templates = [...templates];
      }
      const folderId = input.folder_id ?? row.folderId;
      await this.check(repo, clientId, kind, folderId, settings);
      await repo.update(
        clientId,
        kind,
        id,
        {
          localizedLabels: input.localized_labels ?? row.localizedLabels,
          folderId,
          settings,
        },
        this.clock.now(),
      );
      const type = typeView((await repo.find(clientId, kind, id)) as DocumentTypeRecord);
      await audit.record(clientId, documentTypeEvents[kind], 'updated', {
        id,
        name: type.row.label,
        data: presentDocumentType(type),
      });
      return type;
    });
  }

  /**
   * The references a type holds must exist in the client: folder, roles, custom fields; metadata must be coherent.
   * Reads through `repo` (the transaction's): on SQLite a query outside a running transaction would wait for it.
   */
  private async check(
    repo: DocumentTypesRepository,
    clientId: HrTenantId,
    kind: DocumentKind,
    folderId: string,
    settings: DocumentTypeSettings,
  ): Promise<void> {
    const errors: FieldError[] = [];
    if (!(await repo.folderExists(clientId, kind, folderId))) {
      errors.push({ field: 'folder_id', code: 'not_found', message: `No ${kind} folder has this id.` });
    }
    const permissions = settings.user_access_permissions ?? [];
    const roles = await repo.existingRoles(
      clientId,
      permissions.map((p) => p.role_id),
    );
    permissions.forEach((p, i) => {
      if (!roles.has(p.role_id)) {
        errors.push({
          field: `user_access_permissions.${i}.role_id`,
          code: 'not_found',
          message: 'No role has this id.',
        });
      }
    });
    const synced = settings.synchronized_custom_fields ?? [];
    const fields = await repo.existingCustomFields(clientId, synced);
    synced.forEach((code, i) => {
      if (!fields.has(code)) {
        errors.push({
          field: `synchronized_custom_fields.${i}`,
          code: 'not_found',
          message: 'No custom field has this id.',
        });
      }
    });
    errors.push(...metadataDefinitionErrors(settings.metadata ?? []));
    const options = settings.expiry_date_policy_options;
    if (settings.expiry_date_policy_type === 'specific_date' && !options?.date) {
      errors.push({
        field: 'expiry_date_policy_options.date',
        code: 'required',
        message: 'A specific_date policy needs a date.',
      });
    }
    if (settings.expiry_date_policy_type === 'document_metadata') {
      const code = options?.metadata;
      if (!code || !(settings.metadata ?? []).some((m) => m.code === code && m.type === 'date')) {
        errors.push({
          field: 'expiry_date_policy_options.metadata',
          code: 'invalid',
          message: 'A document_metadata policy needs the code of a date metadata of this type.',
        });
      }
    }
    if (errors.length) throw new FieldValidationError(errors);
  }
}

function metadataDefinitionErrors(definitions: MetaDataDefinition[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  definitions.forEach((m, i) => {
    if (seen.has(m.code)) errors.push({ field: `metadata.${i}.code`, code: 'duplicate', message: 'Codes are unique.' });
    seen.add(m.code);
    if (m.type === 'list' && !(m.authorized_values && m.authorized_values.length > 0)) {
      errors.push({
        field: `metadata.${i}.authorized_values`,
        code: 'required',
        message: 'A list metadata needs its authorized values.',
      });
    }
  });
  return errors;
}
