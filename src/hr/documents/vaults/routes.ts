import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute, getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentVault } from './present.js';
import {
  ElectronicVault,
  ElectronicVaultDocument,
  ElectronicVaultList,
  ElectronicVaultListQuery,
  ElectronicVaultOptionsUpdate,
  EmployeeParams,
} from './schemas.js';
import { VaultsService } from './service.js';

const TAGS = ['Document manager: Electronic vaults'];
const EMPLOYEE_TAGS = ['Employees'];
const EXTENSION = 'Atrium extension (not in the reference).';

/**
 * `/electronic_vault_options` and the employee actions of reference §3a.8: the vault invitation, its activation
 * (an Atrium extension), the unlinking, documents dropped into the vault, and the portal invitation.
 */
export async function vaultRoutes(app: FastifyInstance, opts: { vaults: VaultsService; paginator: Paginator }) {
  const { vaults, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(ElectronicVault);

  listRoute(
    app,
    paginator,
    {
      path: '/electronic_vault_options',
      tags: TAGS,
      summary: 'List employees’ electronic vaults',
      description:
        'Every employee, in creation order, with their vault (the defaults when nothing was set). Filters `employees_ids` (comma-separated, at most 500) and `electronic_vault_state`.',
      querystring: ElectronicVaultListQuery,
      item: full,
      list: ElectronicVaultList,
      errors: [403],
    },
    {
      page: (clientId, query, request) =>
        vaults.list(
          clientId,
          { employeeIds: VaultsService.employeeIds(query.employees_ids), state: query.electronic_vault_state },
          request,
        ),
      present: presentVault,
    },
  );

  getRoute(
    app,
    {
      path: '/electronic_vault_options/:id',
      tags: TAGS,
      summary: 'Get an employee’s electronic vault',
      params: EmployeeParams,
      item: full,
    },
    (clientId, { id }) => vaults.get(clientId, id),
    presentVault,
  );

  api.patch(
    '/electronic_vault_options/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Update an employee’s electronic vault options',
        description:
          'The options sent change; a change of `electronic_payslips_opted_out` is dated, with the origin `peopledoc`.',
        params: EmployeeParams,
        body: ElectronicVaultOptionsUpdate,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentVault(await vaults.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );

  api.post(
    '/employees/:id/electronic_vault_invite',
    {
      schema: {
        tags: EMPLOYEE_TAGS,
        summary: 'Invite an employee to their electronic vault',
        description:
          'Records the invitation mail in the outbox (kind `electronic_vault.invitation`; `electronic_vault.follow_up` when one was sent before). 400 when the employee has no e-mail address or the vault is not `not_activated` or `deleted`.',
        params: EmployeeParams,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await vaults.invite(request.hrAuth.clientId, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    '/employees/:id/electronic_vault_activate',
    {
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Activate an employee’s electronic vault',
        description: `${EXTENSION} What the employee does when they accept the invitation: the vault gets an \`electronic_vault_id\` and becomes \`activated\`. 400 unless the employee was invited and the vault is \`not_activated\` or \`deleted\`.`,
        params: EmployeeParams,
        response: { 200: full, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => presentVault(await vaults.activate(request.hrAuth.clientId, request.params.id)),
  );

  deleteRoute(
    app,
    {
      path: '/employees/:id/electronic_vault_link',
      tags: EMPLOYEE_TAGS,
      summary: 'Unlink an employee’s electronic vault',
      description:
        'The activated vault becomes `pending_deletion`, then `deleted` once the job runner has deleted it (moments later). 400 when the employee has no linked vault.',
      params: EmployeeParams,
      errors: [400, 401, 403, 404],
    },
    (clientId, { id }) => vaults.unlink(clientId, id),
  );

  api.post(
    '/employees/:id/electronic_vault_documents',
    {
      schema: {
        tags: EMPLOYEE_TAGS,
        summary: 'Drop a document into an employee’s electronic vault',
        description:
          'The upload becomes an employee document (`origin` `api`, `origin_details` `drop_in_vault`), and the employee is told by mail (the outbox, kind `electronic_vault.document`) unless `send_notification` is false. 400 when the vault is not activated, electronic distribution is disabled, or the type is a payslip type and the employee opted out of electronic payslips.',
        params: EmployeeParams,
        body: ElectronicVaultDocument,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await vaults.addDocument(request.hrAuth.clientId, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  api.post(
    '/employees/:id/portal_invite',
    {
      schema: {
        tags: EMPLOYEE_TAGS,
        summary: 'Invite an employee to the employee portal',
        description:
          'Records the invitation mail in the outbox (kind `portal.invitation`; `portal.follow_up` when one was sent before). 422 (`no_email`) when the employee has no e-mail address.',
        params: EmployeeParams,
        response: { 204: NoBody, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      await vaults.invitePortal(request.hrAuth.clientId, request.params.id);
      return reply.code(204).send();
    },
  );
}
