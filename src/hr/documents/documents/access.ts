/**
 * Who may do what with a document: the actor of a call (the application, or an HR user it acts for) and the
 * permission decisions the documents' services share (`DocumentPermissions`).
 */

import type { HrTenantId } from '../../../platform/db/tenant.js';
import { ForbiddenError, InvalidRequestError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { DocumentAccessQuery } from '../../core/users/service.js';
import { typeView } from '../document-types/service.js';
import type { DocumentKind } from '../folders/tables.js';
import { documentRow, documentViews } from './records.js';
import type { DocumentsRepository, DocumentView } from './repository.js';

/**
 * Who is asking: the application itself (its token's scope already decides reads and writes), or an HR user it
 * acts for (the Atrium extension header `X-Atrium-User-Id`), whose roles and perimeters decide per document.
 */
export type DocumentActor = { kind: 'application' } | { kind: 'user'; userId: string };
export const APPLICATION: DocumentActor = { kind: 'application' };

/** The decisions the documents need from the HR users (UsersService). */
export interface DocumentAccess {
  /** Throws NotFoundError when the client has no such user. */
  get(clientId: HrTenantId, userId: string): Promise<unknown>;
  mayActOnDocuments(clientId: HrTenantId, query: DocumentAccessQuery): Promise<boolean>;
}

export type Action = 'view' | 'upload' | 'update' | 'delete';

/** What a permission decision needs to know of a document, existing or about to be. */
export interface AccessSubject {
  kind: DocumentKind;
  documentTypeId: string;
  employeeId: string | null;
  organizationIds: readonly string[];
  expired: boolean;
}

/** The permission decisions on documents, read outside any transaction (`repo` is the unit of work's `read`). */
export class DocumentPermissions {
  constructor(
    private readonly repo: DocumentsRepository,
    private readonly access: DocumentAccess,
    private readonly clock: Clock,
  ) {}

  /** Checks that the acting user exists in the client (an unknown one is a 400 naming the header). */
  async checkActor(clientId: HrTenantId, actor: DocumentActor): Promise<void> {
    if (actor.kind === 'application') return;
    try {
      await this.access.get(clientId, actor.userId);
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw new InvalidRequestError('Invalid header "X-Atrium-User-Id": no HR user of this client has this id.');
      }
      throw error;
    }
  }

  /**
   * Whether the actor may act on the document. The application may (its scope was checked by the bearer
   * guard); a user needs a role the type grants the action to, on a perimeter covering one of the document's
   * organizations (and the employee's custom fields), plus `view_expired` to see an expired document.
   */
  async may(clientId: HrTenantId, actor: DocumentActor, action: Action, subject: AccessSubject): Promise<boolean> {
    if (actor.kind === 'application') return true;
    const type = await this.repo.documentType(clientId, subject.kind, subject.documentTypeId);
    const grants = type ? (typeView(type).settings.user_access_permissions ?? []) : [];
    const employeeCustomFields =
      subject.kind === 'employee' && subject.employeeId
        ? await this.repo.employeeCustomValues(clientId, subject.employeeId)
        : null;
    const query = (a: DocumentAccessQuery['action']): DocumentAccessQuery => ({
      actor,
      action: a,
      userAccessPermissions: grants,
      organizationIds: subject.organizationIds,
      employeeCustomFields,
    });
    if (!(await this.access.mayActOnDocuments(clientId, query(action)))) return false;
    return !subject.expired || (await this.access.mayActOnDocuments(clientId, query('view_expired')));
  }

  async mustMay(clientId: HrTenantId, actor: DocumentActor, action: Action, view: DocumentView): Promise<void> {
    if (!(await this.may(clientId, actor, action, subjectOf(view)))) {
      throw new ForbiddenError('forbidden', `This user may not ${action} this document.`);
    }
  }

  /** The document, after checking that the actor may do `action` with it. */
  async authorized(
    clientId: HrTenantId,
    kind: DocumentKind,
    id: string,
    actor: DocumentActor,
    action: Action,
  ): Promise<DocumentView> {
    await this.checkActor(clientId, actor);
    const view = (
      await documentViews(this.clock, this.repo, clientId, [await documentRow(this.repo, clientId, kind, id)])
    )[0] as DocumentView;
    await this.mustMay(clientId, actor, action, view);
    return view;
  }
}

export function subjectOf({ row, organizationIds, expired }: DocumentView): AccessSubject {
  return {
    kind: row.kind,
    documentTypeId: row.documentTypeId,
    employeeId: row.employeeId,
    organizationIds,
    expired,
  };
}
