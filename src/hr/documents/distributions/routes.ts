import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { csvText } from '../../../platform/csv-write.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { pageRanges } from './mapping.js';
import { presentDistribution, presentDistributionProject } from './present.js';
import {
  Distribution,
  DistributionCreate,
  DistributionList,
  DistributionListQuery,
  DistributionParams,
  DistributionProject,
  DistributionProjectCreate,
  DistributionProjectList,
  DistributionProjectListQuery,
  DistributionProjectParams,
} from './schemas.js';
import type { DistributionsService } from './service.js';

const TAGS = ['Document manager: Distributions'];
const EXTENSION = 'Atrium extension (not in the reference).';

/** The report's columns (docs/hr-api.md, "Distributions"). */
export const REPORT_COLUMNS = [
  'external_id',
  'pages',
  'status',
  'error_code',
  'error_message',
  'employee_document_id',
] as const;
/**
 * `/distribution_projects` (reference §5.6): create, list and read; and the Atrium extensions that validate and
 * cancel a project.
 */
export async function distributionProjectRoutes(
  app: FastifyInstance,
  opts: { distributions: DistributionsService; paginator: Paginator },
): Promise<void> {
  const { distributions, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const project = Type.Ref(DistributionProject);

  listRoute(
    app,
    paginator,
    {
      path: '/distribution_projects',
      tags: TAGS,
      summary: 'List distribution projects',
      description: 'Newest first; `status` filters. Pages with `per_page` and the `cursor` of Link / Next-Cursor.',
      querystring: DistributionProjectListQuery,
      item: project,
      list: DistributionProjectList,
      errors: [403],
    },
    {
      page: (clientId, query, request) => distributions.listProjects(clientId, { status: query.status }, request),
      present: presentDistributionProject,
    },
  );

  api.post(
    '/distribution_projects',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a distribution project',
        description: 'Its status is `new` until a distribution is added (`POST /distributions`).',
        body: DistributionProjectCreate,
        response: { 200: project, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) =>
      presentDistributionProject(await distributions.createProject(request.hrAuth.clientId, request.body)),
  );

  getRoute(
    app,
    {
      path: '/distribution_projects/:id',
      tags: TAGS,
      summary: 'Get a distribution project',
      params: DistributionProjectParams,
      item: project,
    },
    (clientId, { id }) => distributions.getProject(clientId, id),
    presentDistributionProject,
  );

  api.post(
    '/distribution_projects/:id/validate',
    {
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Validate a distribution project',
        description: `${EXTENSION} What an HR user does in the web application once the documents are integrated: the project's distributions leave \`waiting_for_validation\` and go on to \`completed\`. 400 unless the project is \`waiting_for_validation\` (a project with \`automatic_validation\` never is).`,
        params: DistributionProjectParams,
        response: { 200: project, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      presentDistributionProject(await distributions.validate(request.hrAuth.clientId, request.params.id)),
  );

  api.post(
    '/distribution_projects/:id/cancel',
    {
      schema: {
        tags: ['Atrium extensions'],
        summary: 'Cancel a distribution project',
        description: `${EXTENSION} Every distribution of the project that has not ended is \`canceled\` (documents already filed stay), and so is the project. 400 once the project is \`completed\`, \`error\` or \`canceled\`.`,
        params: DistributionProjectParams,
        response: { 200: project, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      presentDistributionProject(await distributions.cancel(request.hrAuth.clientId, request.params.id)),
  );
}

/**
 * `/distributions` (reference §5.6): create, list and read; a distribution's CSV report. Registered after the
 * projects' routes.
 */
export async function distributionRoutes(
  app: FastifyInstance,
  opts: { distributions: DistributionsService; paginator: Paginator },
): Promise<void> {
  const { distributions, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const distribution = Type.Ref(Distribution);

  listRoute(
    app,
    paginator,
    {
      path: '/distributions',
      tags: TAGS,
      summary: 'List distributions',
      description:
        'Newest first; `distribution_project_id` filters. Pages with `per_page` and the `cursor` of Link / Next-Cursor.',
      querystring: DistributionListQuery,
      item: distribution,
      list: DistributionList,
      errors: [403],
    },
    {
      page: (clientId, query, request) =>
        distributions.listDistributions(clientId, { projectId: query.distribution_project_id }, request),
      present: presentDistribution,
    },
  );

  api.post(
    '/distributions',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a distribution in a project',
        description:
          'A PDF (`file_id`, an upload, used up) split between the employees its pages name, each part filed as a document of theirs of type `distribution_type_id`, in the background: follow `status` (docs/hr-api.md, "Distributions").',
        body: DistributionCreate,
        response: { 200: distribution, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request) =>
      presentDistribution(await distributions.createDistribution(request.hrAuth.clientId, request.body)),
  );

  getRoute(
    app,
    {
      path: '/distributions/:id',
      tags: TAGS,
      summary: 'Get a distribution',
      params: DistributionParams,
      item: distribution,
    },
    (clientId, { id }) => distributions.getDistribution(clientId, id),
    presentDistribution,
  );

  api.get(
    '/distributions/:id/report',
    {
      schema: {
        tags: TAGS,
        summary: 'Download the report of a distribution',
        description: `CSV (RFC 4180, CRLF; \`${REPORT_COLUMNS.join(',')}\`): one row per employee (their pages as ranges, \`1-2,5\`) and per page range that could not be given to anyone; \`status\` is \`pending\`, \`delivered\` or \`error\`. Only the header before the file is read. A cell that a spreadsheet would take for a formula starts with \`'\`.`,
        params: DistributionParams,
        response: {
          200: { type: 'string', description: 'The report, text/csv.' },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const rows = await distributions.report(request.hrAuth.clientId, request.params.id);
      const csv = csvText(
        rows.map((r) => [
          r.externalId ?? '',
          pageRanges(r.pages),
          r.status,
          r.errorCode ?? '',
          r.errorMessage ?? '',
          r.documentId ?? '',
        ]),
        { header: true, columns: [...REPORT_COLUMNS], record_delimiter: 'windows' },
      );
      return reply.type('text/csv; charset=utf-8').send(csv);
    },
  );
}
