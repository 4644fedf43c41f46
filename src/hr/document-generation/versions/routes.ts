import { type TObject, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../../platform/blobs/store.js';
import type { HrTenantId } from '../../../platform/db/tenant.js';
import { FieldValidationError } from '../../../platform/errors.js';
import { sendBlob } from '../../../platform/http/send-blob.js';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { PNG_RESPONSE, previewDownload, previewOptions } from '../../../platform/renditions/http.js';
import type { Renditions } from '../../../platform/renditions/renditions.js';
import { receiveForm, uploadContext } from '../../core/uploads/receive.js';
import { errorResponses } from '../../errors.js';
import { deleteRoute } from '../../item-route.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { CONTENT_TYPES, fileRoutes, sendDocgenFile } from '../downloads.js';
import { TAG_TEMPLATES } from '../tags.js';
import { TemplateParams } from '../templates/schemas.js';
import { presentFieldSet, presentVersion } from './present.js';
import {
  AliasPageParams,
  AliasParams,
  DocFields,
  DocFieldsPut,
  DocFieldsQuery,
  FieldSet,
  PreviewQuery,
  TemplateUploadDoc,
  TemplateVersion,
  VersionList,
  VersionListQuery,
  VersionPageParams,
  VersionParams,
  VersionPatch,
} from './schemas.js';
import type { VersionRef, VersionsService } from './service.js';

/** The largest template document accepted (bytes): it is read whole, in memory, to be inspected. */
export const TEMPLATE_LIMIT_BYTES = 20 * 1024 * 1024;

const BASE = '/document_generation_templates/:id/versions';

/** The three ways a path names a version, with what each says in a summary. */
const REFS: { segment: string; params: TObject; pageParams: TObject; what: string }[] = [
  { segment: ':number', params: VersionParams, pageParams: VersionPageParams, what: 'a template version' },
  { segment: 'active', params: AliasParams, pageParams: AliasPageParams, what: 'the active template version' },
  { segment: 'latest', params: AliasParams, pageParams: AliasPageParams, what: 'the latest template version' },
];

/** The version a request's path names. */
function refOf(request: FastifyRequest): VersionRef {
  const url = request.routeOptions.url ?? '';
  if (url.includes('/versions/active')) return 'active';
  if (url.includes('/versions/latest')) return 'latest';
  return Number((request.params as { number: string }).number);
}

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** `POST /document_generation_templates/{id}/file`: in an upload context of its own (multipart, streamed). */
export async function templateUploadRoutes(app: FastifyInstance, opts: { versions: VersionsService }): Promise<void> {
  const { versions } = opts;
  await uploadContext(app, TEMPLATE_LIMIT_BYTES);
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/document_generation_templates/:id/file',
    {
      config: {
        swaggerTransform: ({ schema, url }: { schema: object; url: string }) => ({
          schema: { ...schema, consumes: ['multipart/form-data'], body: TemplateUploadDoc },
          url,
        }),
      },
      schema: {
        tags: TAG_TEMPLATES,
        summary: 'Upload a template document (a new version)',
        description: `Multipart: \`template\` (a DOCX, at most ${TEMPLATE_LIMIT_BYTES / 1024 / 1024} MiB), \`format\` (\`DOCX\`) and \`syntax_version\` (\`V1\` or \`V2\`, default \`V2\`). The document's placeholders and problems are read at once: the new version lists them in \`template_information\`, and becomes the active version when none is an ERROR. A file that is not a DOCX (or is damaged, or unpacks past 50 MiB) is 422.`,
        params: TemplateParams,
        response: { 201: Type.Ref(TemplateVersion), ...errorResponses(400, 401, 403, 404, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const form = await receiveForm(request, { fileField: 'template', limitBytes: TEMPLATE_LIMIT_BYTES });
      const format = form.fields.format ?? 'DOCX';
      const syntax = form.fields.syntax_version ?? 'V2';
      const errors = [];
      if (!form.file) errors.push({ field: 'template', code: 'required', message: 'Send the document as `template`.' });
      if (format.toUpperCase() !== 'DOCX') {
        errors.push({ field: 'format', code: 'invalid_choice', message: 'Templates are DOCX documents.' });
      }
      if (syntax !== 'V1' && syntax !== 'V2') {
        errors.push({ field: 'syntax_version', code: 'invalid_choice', message: 'V1 or V2.' });
      }
      if (errors.length > 0 || !form.file || (syntax !== 'V1' && syntax !== 'V2'))
        throw new FieldValidationError(errors);
      const version = await versions.upload(request.hrAuth.clientId, request.params.id, {
        filename: form.file.filename ?? 'template.docx',
        bytes: form.file.bytes,
        syntaxVersion: syntax,
      });
      return reply.status(201).send(presentVersion(version));
    },
  );
}

/** The versions of a template: list, metadata, doc_fields, fragment usages (reference §5.5). */
export async function versionRoutes(
  app: FastifyInstance,
  opts: { versions: VersionsService; paginator: Paginator },
): Promise<void> {
  const { versions, paginator } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const Full = Type.Ref(TemplateVersion);
  const tags = TAG_TEMPLATES;
  const clientOf = (request: FastifyRequest): HrTenantId => request.hrAuth.clientId;

  listRoute(
    app,
    paginator,
    {
      path: BASE,
      tags,
      summary: 'List the versions of a template',
      params: TemplateParams,
      querystring: VersionListQuery,
      item: Full,
      list: VersionList,
      errors: [404],
      qualifier: (request) => idOf(request).toLowerCase(),
    },
    { page: (clientId, _q, request, http) => versions.list(clientId, idOf(http), request), present: presentVersion },
  );

  api.get(
    '/document_generation_templates/:id/fragment_usages',
    {
      schema: {
        tags,
        summary: 'The templates that insert this one as a fragment',
        params: TemplateParams,
        response: { 200: Type.Array(Type.String({ format: 'uuid' })), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => versions.fragmentUsages(clientOf(request), request.params.id),
  );

  const one = `${BASE}/:number`;
  api.get(
    one,
    {
      schema: {
        tags,
        summary: 'Get a template version',
        params: VersionParams,
        response: { 200: Full, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => presentVersion(await versions.get(clientOf(request), request.params.id, refOf(request))),
  );
  api.put(
    one,
    {
      schema: {
        tags,
        summary: 'Update a template version’s metadata',
        description: 'The output formats and the fragment mapping. Answers 201, as the reference has it.',
        params: VersionParams,
        body: VersionPatch,
        response: { 201: Full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          presentVersion(await versions.update(clientOf(request), request.params.id, refOf(request), request.body)),
        ),
  );
  api.patch(
    one,
    {
      schema: {
        tags,
        summary: 'Change a template version’s output formats or fragment mapping',
        description: 'A format left out keeps its value; a fragment mapping given replaces the previous one.',
        params: VersionParams,
        body: VersionPatch,
        response: { 200: Full, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      presentVersion(await versions.update(clientOf(request), request.params.id, refOf(request), request.body)),
  );
  deleteRoute(
    app,
    {
      path: one,
      tags,
      summary: 'Delete a template version',
      description:
        'When it was the active version, the newest remaining version without an ERROR becomes active (none: 0); `latest_version` becomes the highest remaining number.',
      params: VersionParams,
    },
    (clientId, { id, number }) => versions.remove(clientId, id, Number(number)),
  );

  api.get(
    `${one}/doc_fields`,
    {
      schema: {
        tags,
        summary: 'The placeholders of a template version, as form fields',
        querystring: DocFieldsQuery,
        params: VersionParams,
        response: { 200: Type.Ref(DocFields), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      versions.docFields(clientOf(request), request.params.id, refOf(request), request.query.includeFragments === true),
  );
  api.put(
    `${one}/doc_fields`,
    {
      schema: {
        tags,
        summary: 'Type the placeholders of a template version',
        description:
          'Each slug must be a value placeholder of the document; `date` makes generation write it as a date.',
        params: VersionParams,
        body: DocFieldsPut,
        response: { 200: Type.Ref(DocFields), ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => {
      await versions.setTypings(clientOf(request), request.params.id, refOf(request), request.body);
      return versions.docFields(clientOf(request), request.params.id, refOf(request), false);
    },
  );
}

/** The document of a version, by number or alias: file, deprecated fields, previews. */
export async function versionFileRoutes(
  app: FastifyInstance,
  opts: { versions: VersionsService; blobs: BlobStore; renditions: Renditions },
): Promise<void> {
  const { versions, blobs, renditions } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = TAG_TEMPLATES;
  const clientOf = (request: FastifyRequest): HrTenantId => request.hrAuth.clientId;

  for (const ref of REFS) {
    const base = `${BASE}/${ref.segment}`;
    fileRoutes(app, { path: `${base}/file`, tags, what: ref.what, params: ref.params }, async (request, reply) => {
      const { version } = await versions.resolve(clientOf(request), idOf(request), refOf(request));
      return sendDocgenFile(reply, request, blobs, {
        sha256: version.sha256,
        size: version.size,
        contentType: CONTENT_TYPES.DOCX,
        filename: version.filename,
      });
    });
    api.get(
      `${base}/fields`,
      {
        schema: {
          tags,
          deprecated: true,
          summary: `The placeholders of ${ref.what} (deprecated: use doc_fields)`,
          params: ref.params,
          response: { 200: Type.Ref(FieldSet), ...errorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { version } = await versions.resolve(clientOf(request), idOf(request), refOf(request));
        reply.header('Deprecation', 'true');
        return presentFieldSet(version);
      },
    );
    const preview = async (request: FastifyRequest, page: number) => {
      const options = previewOptions(request, page);
      const { version } = await versions.resolve(clientOf(request), idOf(request), refOf(request));
      const source = {
        sha256: await versions.previewSource(clientOf(request), version),
        contentType: 'application/pdf',
      };
      const rendition = await renditions.preview(source, { ...options, missingPage: 'not_found' });
      return previewDownload(rendition, version.filename, page);
    };
    api.get(
      `${base}/preview`,
      {
        attachValidation: true,
        schema: {
          tags,
          summary: `Preview the first page of ${ref.what}`,
          description: 'A PNG of the document as laid out, placeholders as written.',
          params: ref.params,
          querystring: PreviewQuery,
          response: { 200: PNG_RESPONSE, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => sendBlob(reply, request, blobs, await preview(request, 1)),
    );
    api.get(
      `${base}/preview/:page`,
      {
        attachValidation: true,
        schema: {
          tags,
          summary: `Preview a page of ${ref.what}`,
          description: 'A PNG of the page; 404 past the last page.',
          params: ref.pageParams,
          querystring: PreviewQuery,
          response: { 200: PNG_RESPONSE, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) =>
        sendBlob(reply, request, blobs, await preview(request, Number((request.params as { page: string }).page))),
    );
  }
}
