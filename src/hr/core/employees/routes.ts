import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '../../../platform/db/keyset.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { formatDateTime } from '../../../platform/time.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import { EmployeesRepository } from './repository.js';
import {
  Employee,
  EmployeeByExternalId,
  EmployeeCreate,
  EmployeeListQuery,
  EmployeeParams,
  EmployeePatch,
  EmployeeSearchBody,
  ExternalIdParams,
} from './schemas.js';
import { EmployeesService, type EmployeeView } from './service.js';

export function presentEmployee(v: EmployeeView): Employee {
  const r = v.row;
  return {
    id: r.id,
    external_id: r.external_id,
    firstname: r.firstname,
    lastname: r.lastname,
    email: r.email,
    language: r.language,
    maidenname: r.maidenname,
    middlename: r.middlename,
    country: r.country,
    starting_date: r.starting_date,
    mobile_phone_number: r.mobile_phone_number,
    birth_date: r.birth_date,
    address1: r.address1,
    address2: r.address2,
    address3: r.address3,
    zip_code: r.zip_code,
    city: r.city,
    state: r.state,
    registration_references: v.registrations.map((g) => ({
      organization_id: g.organization_id,
      employee_number: g.employee_number,
      active: g.active === 1,
      departure_date: g.departure_date,
      created_at: formatDateTime(g.created_at),
      updated_at: formatDateTime(g.updated_at),
    })),
    custom_fields: v.customFields,
    status: v.status,
    terminated: v.terminated,
    departure_date: v.departureDate,
    created_at: formatDateTime(r.created_at),
    updated_at: formatDateTime(r.updated_at),
  };
}

const TAG = ['Employees'];

export async function employeeRoutes(
  app: FastifyInstance,
  opts: { employees: EmployeesService; paginator: Paginator },
): Promise<void> {
  const { employees, paginator } = opts;
  app.addSchema(Employee);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const Full = Type.Ref(Employee);
  const listScope = (request: FastifyRequest, sort: string | undefined) => {
    const { field } = EmployeesService.sort(sort);
    return {
      clientId: request.hrAuth.clientId,
      list: `employees:${sort ?? '+created_at'}`,
      keyCount: EmployeesRepository.keyCount(field),
    };
  };
  const present = (request: FastifyRequest, reply: FastifyReply, page: Page<EmployeeView>, sort: string | undefined) =>
    paginator.present(request, reply, page, listScope(request, sort)).map(presentEmployee);

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
      const { limit, position } = paginator.params(
        { ...(per_page ? { per_page } : {}), ...(cursor ? { cursor } : {}) },
        listScope(request, filters.sort),
      );
      const page = await employees.search(request.hrAuth.clientId, filters, true, limit, position);
      return present(request, reply, page, filters.sort);
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
      const { limit, position } = paginator.params(
        { ...(per_page ? { per_page } : {}), ...(cursor ? { cursor } : {}) },
        listScope(request, filters.sort),
      );
      const page = await employees.search(request.hrAuth.clientId, filters, false, limit, position);
      return present(request, reply, page, filters.sort);
    },
  );

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
        summary: 'Update an employee (every attribute)',
        description:
          'Custom fields missing from `custom_fields` are reset to their default; without the key they are untouched.',
        params: EmployeeParams,
        body: EmployeeCreate,
        response: { 200: Full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentEmployee(await employees.replace(request.hrAuth.clientId, request.params.id, request.body)),
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
