import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import type { DocumentKind } from '../folders/tables.js';
import { presentDocumentType } from './present.js';
import {
  CompanyDocumentType,
  CompanyDocumentTypeInput,
  CompanyDocumentTypeListQuery,
  CompanyDocumentTypePatch,
  DOCUMENT_TYPE_LISTS,
  DocumentTypeParams,
  EmployeeDocumentType,
  EmployeeDocumentTypeInput,
  EmployeeDocumentTypeListQuery,
  EmployeeDocumentTypePatch,
} from './schemas.js';
import type { DocumentTypesService } from './service.js';

const SCHEMAS = {
  employee: {
    full: EmployeeDocumentType,
    put: EmployeeDocumentTypeInput,
    patch: EmployeeDocumentTypePatch,
    list: EmployeeDocumentTypeListQuery,
  },
  company: {
    full: CompanyDocumentType,
    put: CompanyDocumentTypeInput,
    patch: CompanyDocumentTypePatch,
    list: CompanyDocumentTypeListQuery,
  },
};

/** `/{employee|company}_document_types`: list, PUT upsert, GET and PATCH (reference §3c.4). */
export async function documentTypeRoutes(
  app: FastifyInstance,
  opts: { documentTypes: DocumentTypesService; paginator: Paginator; kind: DocumentKind },
): Promise<void> {
  const { documentTypes, paginator, kind } = opts;
  const schemas = SCHEMAS[kind];
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = `/${kind}_document_types`;
  const tags = [kind === 'employee' ? 'Employee document types' : 'Company document types'];
  const aKind = kind === 'employee' ? 'an employee' : 'a company';
  const full = Type.Ref(schemas.full);

  listRoute(
    app,
    paginator,
    {
      path: base,
      tags,
      summary: `List ${kind} document types`,
      querystring: schemas.list,
      item: full,
      list: DOCUMENT_TYPE_LISTS[kind],
      errors: [403],
    },
    {
      page: (clientId, query, request) => documentTypes.list(clientId, kind, query, request),
      present: presentDocumentType,
    },
  );

  api.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Get ${aKind} document type`,
        params: DocumentTypeParams,
        response: { 200: full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentDocumentType(await documentTypes.get(request.hrAuth.clientId, kind, request.params.id)),
  );

  api.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Create or update ${aKind} document type`,
        description:
          'An upsert at the client-chosen id: 201 when created, 200 when updated. An update replaces every attribute except `label`, which keeps its first value.',
        params: DocumentTypeParams,
        body: schemas.put,
        response: { 200: full, 201: full, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { type, created } = await documentTypes.put(request.hrAuth.clientId, kind, request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(presentDocumentType(type));
    },
  );

  api.patch(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Update some attributes of ${aKind} document type`,
        description: 'Only the attributes sent change; `label` never changes.',
        params: DocumentTypeParams,
        body: schemas.patch,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentDocumentType(
        await documentTypes.patch(request.hrAuth.clientId, kind, request.params.id, request.body ?? {}),
      ),
  );
}
