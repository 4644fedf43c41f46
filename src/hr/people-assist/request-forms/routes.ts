import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { NoBody } from '../../../platform/http/no-body.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { getRoute } from '../../item-route.js';
import { countRoute } from '../../lists/count.js';
import { listCall, sendPage } from '../../lists/list.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import { presentRequestForm } from './present.js';
import {
  ChangeGroupCategory,
  DetailError,
  RequestForm,
  RequestFormCountQuery,
  RequestFormGetQuery,
  RequestFormList,
  RequestFormListQuery,
  RequestFormParams,
  RequestFormPatch,
  RequestFormPut,
} from './schemas.js';
import type { RequestFormsService } from './service.js';

const TAG = ['People Assist: Request forms'];

/** `/request_forms`: count, list, GET, PUT upsert at the slug, PATCH of the settings (reference §3d.9). */
export async function requestFormRoutes(
  app: FastifyInstance,
  opts: { requestForms: RequestFormsService; paginator: Paginator },
): Promise<void> {
  const { requestForms, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const full = Type.Ref(RequestForm);

  countRoute(
    app,
    { path: '/request_forms', tags: TAG, summary: 'Count request forms', querystring: RequestFormCountQuery },
    (clientId, query) => requestForms.count(clientId, query),
  );

  api.get(
    '/request_forms',
    {
      schema: {
        tags: TAG,
        summary: 'List request forms',
        description: 'Sorted by `sort` (default `+title`, the name). `q` needs `language_code` (400 without).',
        querystring: RequestFormListQuery,
        response: { 200: { ...Type.Array(full), headers: PaginationHeaders }, ...errorResponses(400, 401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { clientId } = request.hrAuth;
      const call = listCall(paginator, RequestFormList, clientId, request.query);
      const { per_page: _pp, cursor: _c, sort: _s, f: _f, ...filters } = request.query;
      const page = await requestForms.list(clientId, filters, call.request);
      return sendPage(paginator, request, reply, page, call.scope).map(presentRequestForm);
    },
  );

  getRoute(
    app,
    {
      path: '/request_forms/:id',
      tags: TAG,
      summary: 'Get a request form',
      params: RequestFormParams,
      querystring: RequestFormGetQuery,
      item: full,
      errors: [400, 401, 403, 404],
    },
    (clientId, { id }) => requestForms.get(clientId, id),
    presentRequestForm,
  );

  api.put(
    '/request_forms/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Replace a request form, or create it at the slug',
        description:
          'Answers 200 in both cases, as the reference does. A new form needs `category_id`. `form_definition` is read-only and ignored.',
        params: RequestFormParams,
        querystring: RequestFormGetQuery,
        body: RequestFormPut,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { form } = await requestForms.put(request.hrAuth.clientId, request.params.id, request.body);
      return presentRequestForm(form);
    },
  );

  api.patch(
    '/request_forms/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Change some settings of a request form',
        description:
          '`category_id` moves the form to another category (422 `in_form_group` for a form of a multilingual group).',
        params: RequestFormParams,
        body: RequestFormPatch,
        response: { 200: full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentRequestForm(await requestForms.patch(request.hrAuth.clientId, request.params.id, request.body)),
  );

  const DETAILS = {
    not_in_group: [400, 'not_in_form_group', 'This form does not belong to a group.'],
    feature_disabled: [403, 'multilingual_forms_disabled', 'Multilingual form feature is not enabled.'],
  } as const;
  const detail = Type.Ref(DetailError);
  api.post(
    '/request_forms/:id/change_group_category',
    {
      schema: {
        tags: TAG,
        summary: 'Move a multilingual group of forms to another category',
        description:
          'Every form of the form’s group (`form_group_id`) moves to `category_slug` (a `/kb_categories` id; 422 `not_found` otherwise). 403 `{detail: "Multilingual form feature is not enabled."}` while no form of the client belongs to a group; 400 `{detail: "This form does not belong to a group."}`. Both bodies also carry `code` and `message`.',
        params: RequestFormParams,
        body: ChangeGroupCategory,
        response: { 204: NoBody, 400: detail, 403: detail, ...errorResponses(401, 404, 422) },
      },
    },
    async (request, reply) => {
      const refused = await requestForms.changeGroupCategory(
        request.hrAuth.clientId,
        request.params.id,
        request.body.category_slug,
      );
      if (refused === undefined) return reply.status(204).send();
      const [status, code, message] = DETAILS[refused];
      return reply.status(status).send({ code, message, detail: message });
    },
  );
}
