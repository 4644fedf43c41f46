import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listCall, sendPage } from '../../lists/list.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import { presentEmployee } from './present.js';
import {
  Employee,
  EmployeeByExternalId,
  EmployeeCreate,
  type EmployeeFilters,
  EmployeeList,
  EmployeeListQuery,
  EmployeeParams,
  EmployeePatch,
  EmployeeSearchBody,
  ExternalIdParams,
} from './schemas.js';
import type { EmployeesService } from './service.js';

const TAG = ['Employees'];

/** `/employees`: create, search (POST and the deprecated GET). */
export async function employeeCollectionRoutes(
  app: FastifyInstance,
  opts: { employees: EmployeesService; paginator: Paginator },
): Promise<void> {
  const { employees, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const Full = Type.Ref(Employee);
  // One list, read through GET (deprecated) and POST /employees/search; a cursor serves the sort it was made for.
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    filters: EmployeeFilters,
    inBody: boolean,
    query: { per_page?: number | undefined; cursor?: string | undefined },
  ) => {
    const { clientId } = request.hrAuth;
    const call = listCall(paginator, EmployeeList, clientId, { ...query, sort: filters.sort });
    const result = await employees.search(clientId, filters, inBody, call.request);
    return sendPage(paginator, request, reply, result, call.scope).map(presentEmployee);
  };

  api.post(
    '/employees',
    {
      schema: {
        tags: TAG,
        summary: 'Create an employee',
        description:
          'Answers 201 with the employee (the reference declares 200 with an array, which Atrium reads as a documentation slip; see docs/hr-api.md). Prefer PUT /employees/by_external_id/{external_id}.',
        body: EmployeeCreate,
        response: { 201: Full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(presentEmployee(await employees.create(request.hrAuth.clientId, request.body))),
  );

  api.post(
    '/employees/search',
    {
      config: { readOnlySafe: true },
      schema: {
        tags: TAG,
        summary: 'Search employees',
        description:
          'Filters in the JSON body; the cursor of the next page goes in `next_cursor` (from the Next-Cursor header).',
        body: EmployeeSearchBody,
        response: { 200: { ...Type.Array(Full), headers: PaginationHeaders }, ...errorResponses(400, 401, 422) },
      },
    },
    async (request, reply) => {
      const { next_cursor, per_page, ...filters } = request.body ?? {};
      const query = (request.query ?? {}) as { cursor?: string };
      const cursor = next_cursor ?? query.cursor;
      return page(request, reply, filters, true, { per_page, cursor });
    },
  );

  api.get(
    '/employees',
    {
      schema: {
        tags: TAG,
        summary: 'List employees (deprecated: use POST /employees/search)',
        deprecated: true,
        querystring: EmployeeListQuery,
        response: { 200: { ...Type.Array(Full), headers: PaginationHeaders }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const { per_page, cursor, ...filters } = request.query;
      return page(request, reply, filters, false, { per_page, cursor });
    },
  );
}

/** `/employees/{id}` (read, replace or create, update) and the upsert by external id. */
export async function employeeItemRoutes(app: FastifyInstance, opts: { employees: EmployeesService }): Promise<void> {
  const { employees } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const Full = Type.Ref(Employee);

  api.get(
    '/employees/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get an employee',
        description:
          'With `X-Synchronization-Application: case`, the employee is marked as synchronized with that application now.',
        params: EmployeeParams,
        headers: Type.Object({
          'x-synchronization-event-id': Type.Optional(Type.String({ format: 'uuid' })),
          'x-synchronization-application': Type.Optional(Type.Literal('case')),
        }),
        response: { 200: Full, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const application = request.headers['x-synchronization-application'];
      return presentEmployee(
        await employees.get(request.hrAuth.clientId, request.params.id, application ? { application } : undefined),
      );
    },
  );

  api.put(
    '/employees/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update an employee (every attribute), or create it at this id',
        description:
          'Custom fields missing from `custom_fields` are reset to their default; without the key they are untouched. ' +
          'An id the client has no employee at is created there when it is a UUID (201); any other id is 404.',
        params: EmployeeParams,
        body: EmployeeCreate,
        response: { 200: Full, 201: Full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const { view, created } = await employees.put(request.hrAuth.clientId, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentEmployee(view));
    },
  );

  api.patch(
    '/employees/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Update some attributes of an employee',
        params: EmployeeParams,
        body: EmployeePatch,
        response: { 200: Full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => presentEmployee(await employees.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );

  api.put(
    '/employees/by_external_id/:external_id',
    {
      schema: {
        tags: TAG,
        summary: 'Create or update an employee by external_id',
        description: 'The idempotent upsert HRIS syncs rely on: 201 when created, 200 when updated.',
        params: ExternalIdParams,
        body: EmployeeByExternalId,
        response: { 200: Full, 201: Full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { view, created } = await employees.upsertByExternalId(
        request.hrAuth.clientId,
        request.params.external_id,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(presentEmployee(view));
    },
  );
}
