import type { Page } from '../../../platform/db/keyset.js';
import type { PageRequest } from '../../../platform/db/listing.js';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { FieldValidationError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { FolderRecord, FoldersRepository, NewFolder } from './repository.js';
import type { DocumentKind } from './tables.js';

/** The folder a document type without one is filed in. */
export const DEFAULT_FOLDER_ID = 'default';

const folder = (id: string, label: string, fr: string): NewFolder => {
  const dot = id.lastIndexOf('.');
  return {
    id,
    parentFolderId: dot > 0 ? id.slice(0, dot) : null,
    label,
    localizedLabels: [
      { language_code: 'en-us', value: label },
      { language_code: 'fr-fr', value: fr },
    ],
  };
};

/** The tree every client starts with (parents before children). Folders are read-only in the API. */
export const DEFAULT_FOLDERS: Record<DocumentKind, NewFolder[]> = {
  employee: [
    folder(DEFAULT_FOLDER_ID, 'Documents', 'Documents'),
    folder('contracts', 'Contracts', 'Contrats'),
    folder('contracts.amendments', 'Amendments', 'Avenants'),
    folder('payroll', 'Payroll', 'Paie'),
    folder('payroll.payslips', 'Payslips', 'Bulletins de paie'),
    folder('certificates', 'Certificates', 'Attestations'),
    folder('certificates.employment-certificates', 'Employment certificates', 'Attestations employeur'),
  ],
  company: [
    folder(DEFAULT_FOLDER_ID, 'Documents', 'Documents'),
    folder('policies', 'Policies', 'Politiques'),
    folder('policies.handbooks', 'Handbooks', 'Livrets'),
    folder('announcements', 'Announcements', 'Annonces'),
  ],
};

export interface FolderFilterInput {
  q?: string;
  parent_folder_id?: string;
  child_folder_id?: string;
  recursive?: boolean;
}

/** The repositories this service's writes touch, bound to one transaction in `work.run`. */
export interface FoldersWork {
  folders: FoldersRepository;
}

/** Employee and company folders (reference §3c.5): a default tree per client, read-only. */
export class FoldersService {
  /** Clients whose default tree this process has already made sure of. */
  private readonly ready = new Set<string>();

  private readonly repo: FoldersRepository;

  constructor(
    work: UnitOfWork<Tables, FoldersWork>,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.folders;
  }

  /** Creates the client's default folders of the kind if they are missing (once per process and client). */
  async ensureDefaults(clientId: HrTenantId, kind: DocumentKind): Promise<void> {
    const key = `${kind}:${clientId}`;
    if (this.ready.has(key)) return;
    await this.repo.insertMissing(clientId, kind, DEFAULT_FOLDERS[kind], this.clock.now());
    this.ready.add(key);
  }

  async list(
    clientId: HrTenantId,
    kind: DocumentKind,
    input: FolderFilterInput,
    request: PageRequest,
  ): Promise<Page<FolderRecord>> {
    await this.ensureDefaults(clientId, kind);
    const { parent_folder_id: parent, child_folder_id: child } = input;
    if (parent !== undefined && child !== undefined) {
      throw new InvalidRequestError('Use parent_folder_id or child_folder_id, not both.');
    }
    let ids: string[] | undefined;
    if (parent !== undefined || child !== undefined) {
      const all = await this.repo.all(clientId, kind);
      const byId = new Map(all.map((f) => [f.id, f]));
      const missing = [
        ...(parent !== undefined && !byId.has(parent) ? ['parent_folder_id'] : []),
        ...(child !== undefined && !byId.has(child) ? ['child_folder_id'] : []),
      ];
      if (missing.length) {
        throw new FieldValidationError(
          missing.map((field) => ({ field, code: 'not_found', message: 'No folder has this id.' })),
        );
      }
      const recursive = input.recursive === true;
      const selected = new Set<string>();
      if (parent !== undefined) {
        let frontier = [parent];
        while (frontier.length) {
          const children = all.filter((f) => f.parentFolderId !== null && frontier.includes(f.parentFolderId));
          frontier = [];
          for (const c of children) {
            if (!selected.has(c.id)) {
              selected.add(c.id);
              frontier.push(c.id);
            }
          }
          if (!recursive) break;
        }
      }
      if (child !== undefined) {
        const chain = new Set<string>();
        let up = byId.get(child)?.parentFolderId ?? null;
        while (up !== null && !chain.has(up)) {
          chain.add(up);
          if (!recursive) break;
          up = byId.get(up)?.parentFolderId ?? null;
        }
        for (const id of chain) selected.add(id);
      }
      ids = [...selected];
    } else if (input.recursive === false) {
      ids = (await this.repo.all(clientId, kind)).filter((f) => f.parentFolderId === null).map((f) => f.id);
    }
    return this.repo.page(
      clientId,
      kind,
      { ...(input.q !== undefined ? { q: input.q } : {}), ...(ids ? { ids } : {}) },
      request,
    );
  }

  async get(clientId: HrTenantId, kind: DocumentKind, id: string): Promise<FolderRecord> {
    await this.ensureDefaults(clientId, kind);
    const row = await this.repo.find(clientId, kind, id);
    if (!row) throw new NotFoundError('folder', id);
    return row;
  }
}
