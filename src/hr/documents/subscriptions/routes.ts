import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentEmployeeSubscription } from './present.js';
import {
  EmployeeParams,
  EmployeeSubscription,
  EmployeeSubscriptionList,
  EmployeeSubscriptionListQuery,
  EmployeeSubscriptionQuery,
} from './schemas.js';
import type { SubscriptionsService } from './service.js';

const TAGS = ['Employee subscriptions'];

/** `/employee_subscriptions` (reference §3a.8): how each employee receives each type of document. */
export async function subscriptionRoutes(
  app: FastifyInstance,
  opts: { subscriptions: SubscriptionsService; paginator: Paginator },
) {
  const { subscriptions, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(EmployeeSubscription);

  listRoute(
    app,
    paginator,
    {
      path: '/employee_subscriptions',
      tags: TAGS,
      summary: 'List employees and their document subscriptions',
      description:
        'Every employee, in creation order, up to 250 a page, each with one subscription per employee document type. Filters `external_id`, `electronic_vault_activated`, `electronic_payslips_opted_out`, `employee_document_type_id` (only that subscription).',
      querystring: EmployeeSubscriptionListQuery,
      item: full,
      list: EmployeeSubscriptionList,
      errors: [403],
    },
    {
      page: (clientId, query, request) =>
        subscriptions.list(
          clientId,
          {
            externalId: query.external_id,
            activated: query.electronic_vault_activated,
            optedOut: query.electronic_payslips_opted_out,
          },
          query.employee_document_type_id,
          request,
        ),
      present: presentEmployeeSubscription,
    },
  );

  api.get(
    '/employee_subscriptions/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Get an employee’s document subscriptions',
        params: EmployeeParams,
        querystring: EmployeeSubscriptionQuery,
        response: { 200: full, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      presentEmployeeSubscription(
        await subscriptions.get(request.hrAuth.clientId, request.params.id, request.query.employee_document_type_id),
      ),
  );
}
