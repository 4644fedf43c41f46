/** Macros on a request: those offered to the caller, and a macro's actions run on the request. */
import { randomUUID } from 'node:crypto';
import type { Tables } from '../../../platform/db/schema.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import type { UnitOfWork } from '../../../platform/db/unit-of-work.js';
import { type FieldError, FieldValidationError, ForbiddenError, NotFoundError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/time.js';
import type { Audited } from '../../module.js';
import { effectOf, type MacroEffect, type MacrosService, type MacroView } from '../macros/service.js';
import { checkActor, type RequestActor } from './actors.js';
import { statusChange } from './lifecycle.js';
import type { PersonRecord, RequestCustomStatusRecord, RequestRecord, RequestsRepository } from './repository.js';
import { type RequestsWork, recordRequest } from './views.js';

function person(p: PersonRecord | undefined): string | null {
  return p ? p.id : null;
}

/** The macros a request offers, and their runs (the request's lifecycle applies to their actions). */
export class RequestMacrosService {
  private readonly repo: RequestsRepository;

  constructor(
    private readonly work: UnitOfWork<Tables, Audited<RequestsWork>>,
    private readonly macros: MacrosService,
    private readonly clock: Clock,
  ) {
    this.repo = work.read.requests;
  }

  private async offeredFor(
    clientId: HrTenantId,
    request: RequestRecord,
    acting: PersonRecord | undefined,
  ): Promise<MacroView[]> {
    const roles = acting ? await this.repo.rolesOf(clientId, acting.id) : undefined;
    return this.macros.offered(clientId, request.formId, request.customStatusId, roles);
  }

  async availableMacros(clientId: HrTenantId, requestId: string, actor: RequestActor): Promise<MacroView[]> {
    const acting = await checkActor(this.repo, clientId, actor);
    const request = await this.repo.find(clientId, requestId);
    if (!request) throw new NotFoundError('request', requestId);
    return this.offeredFor(clientId, request, acting);
  }

  /** Runs a macro's actions on the request, in order, all or nothing. */
  async runMacro(clientId: HrTenantId, requestId: string, macroId: string, actor: RequestActor): Promise<void> {
    const acting = await checkActor(this.repo, clientId, actor);
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
    const statuses = new Map<string, RequestCustomStatusRecord | undefined>();
    const users = new Map<string, PersonRecord | undefined>();
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
      const at = this.clock.now();
      for (const [i, effect] of effects.entries()) {
        const field = `macro_id`;
        switch (effect.template) {
          case 'RequestChangeState': {
            const changes = statusChange(row, effect.status, acting, at, field);
            row = { ...row, ...changes };
            await repo.update(clientId, requestId, changes);
            break;
          }
          case 'RequestChangeCustomState': {
            if (effect.customStatus !== null) {
              const status = statuses.get(effect.customStatus);
              if (!status?.isActive) {
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
            row = { ...row, customStatusId: effect.customStatus };
            await repo.update(clientId, requestId, { customStatusId: effect.customStatus });
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
              clientId,
              id: randomUUID(),
              requestId,
              creatorId: person(acting),
              creatorKind: acting ? 'user' : null,
              content: effect.content,
              isInternal: effect.isInternal,
              isInformative: true,
              commentSource: 'macro',
              createdAt: at,
            });
            await repo.bumpCounters(clientId, requestId, effect.isInternal ? { internal: 1 } : { public: 1 }, at);
            break;
          }
        }
      }
      await repo.update(clientId, requestId, { updatedAt: at, readByEmployee: false });
      await recordRequest(clientId, tx, requestId, 'macro_applied');
    });
  }
}
