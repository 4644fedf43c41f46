/**
 * Document generation (`/document_generation_templates`, `/document_generations`, `/document_generation_requests`,
 * `/document_generation_campaigns`): DOCX templates and their versions, documents generated from them (at once or
 * in the background), what is done with them, campaigns (a document per row of a dataset), and the V1 → V2 syntax
 * migration (docs/hr-api.md, "Document generation").
 */

import { AtriumError, AtriumTimeoutError } from '../errors.js';
import { type RequestOptions, sleep } from '../http.js';
import type {
  Campaign,
  CampaignDetails,
  CampaignListQuery,
  CampaignPayload,
} from '../schemas/hr/document-generation/campaigns.js';
import type {
  EmailPayload,
  Generation,
  GenerationPayload,
  GenerationQuery,
  GenerationRequest,
  GenerationWithErrors,
  RequestListQuery,
} from '../schemas/hr/document-generation/generations.js';
import type {
  MigrationCampaign,
  MigrationListQuery,
  MigrationStart,
  MigrationStatus,
} from '../schemas/hr/document-generation/syntax-migration.js';
import type {
  Template,
  TemplateListQuery,
  TemplatePatch,
  TemplatePayload,
} from '../schemas/hr/document-generation/templates.js';
import type {
  DocFields,
  DocFieldsPut,
  FieldSet,
  TemplateVersion,
  VersionPatch,
} from '../schemas/hr/document-generation/versions.js';
import { type DownloadResponse, enc, formOf, type HrCore, type Id, type UploadInput, type Verbs } from './core.js';

/** A template document to upload: the file, and its placeholders' syntax (default `V2`). */
export interface TemplateUpload extends UploadInput {
  syntaxVersion?: 'V1' | 'V2';
}

/** The size of a preview. */
export interface DocgenPreviewParams {
  size?: 'small' | 'normal' | 'large';
}

/** How `waitFor` polls. */
export interface DocgenWaitOptions extends RequestOptions {
  /** Between two polls, in ms (default 500). */
  intervalMs?: number;
  /** Gives up after this long, in ms, with `AtriumTimeoutError` (default 10 minutes). */
  timeoutMs?: number;
}

/** Polls `read` until `done` says the answer is final; throws `AtriumTimeoutError` past the deadline. @internal */
export async function pollUntil<T>(
  read: (options: RequestOptions) => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  options: DocgenWaitOptions,
): Promise<T> {
  const { intervalMs = 500, timeoutMs = 600_000, ...request } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read(request);
    // An answer without a status is not the object polled (a proxy's page, another API): say so, do not poll on.
    if (typeof (value as { status?: unknown } | null)?.status !== 'string') {
      throw new AtriumError(`${what} answered no status.`);
    }
    if (done(value)) return value;
    if (Date.now() + intervalMs > deadline)
      throw new AtriumTimeoutError(`${what} was not finished after ${timeoutMs} ms.`);
    await sleep(intervalMs, request.signal);
  }
}

/** `hr.documentGenerationTemplates`: templates, their documents (versions) and what was read from them. */
export function documentGenerationTemplates(core: HrCore, v: Verbs) {
  const path = '/document_generation_templates';
  const of = (id: Id) => `${path}/${enc(id)}`;
  const version = (id: Id, ref: number | string) => `${of(id)}/versions/${enc(String(ref))}`;
  const preview = (
    base: string,
    page: number | string | undefined,
    params: DocgenPreviewParams,
    options?: RequestOptions,
  ) =>
    core.download(page === undefined ? `${base}/preview` : `${base}/preview/${enc(String(page))}`, options, {
      ...params,
    });
  return {
    /** Lists templates (`q`, `enabled`, `locale`, `is_injectable`), in creation order. */
    list: v.list<Template, TemplateListQuery>(path),
    /** Creates a template's metadata; upload its document with `upload`. */
    create: v.create<TemplatePayload, Template>(path),
    /** Gets a template. */
    retrieve: v.retrieve<Template>(path),
    /** Creates (201) or replaces (200) a template at a UUID of your choosing. */
    upsert: v.upsert<TemplatePayload, Template>(path),
    /** Changes some attributes. */
    update: v.update<TemplatePatch, Template>(path),
    /** Deletes a template and its versions (409 while another template inserts it as a fragment). */
    del: v.del(path),
    /** Uploads a DOCX: the next version, with its placeholders and problems read at once. */
    upload: (id: Id, input: TemplateUpload, options?: RequestOptions): Promise<TemplateVersion> => {
      const form = formOf(input, 'template');
      form.append('format', 'DOCX');
      form.append('syntax_version', input.syntaxVersion ?? 'V2');
      return core.json<TemplateVersion>('POST', `${of(id)}/file`, { form }, options);
    },
    /** The ids of the templates that insert this one as a fragment. */
    fragmentUsages: (id: Id, options?: RequestOptions): Promise<string[]> =>
      core.json<string[]>('GET', `${of(id)}/fragment_usages`, {}, options),
    versions: {
      /** Lists a template's versions. */
      list: (id: Id, params?: { per_page?: number }, options?: RequestOptions) =>
        core.pager<TemplateVersion>(`${of(id)}/versions`, params, options),
      retrieve: (id: Id, n: number, options?: RequestOptions): Promise<TemplateVersion> =>
        core.json<TemplateVersion>('GET', version(id, n), {}, options),
      /** `PUT`: the output formats and the fragment mapping (201). */
      upsert: (id: Id, n: number, body: VersionPatch, options?: RequestOptions): Promise<TemplateVersion> =>
        core.json<TemplateVersion>('PUT', version(id, n), { body }, options),
      /** `PATCH`: the output formats or the fragment mapping. */
      update: (id: Id, n: number, body: VersionPatch, options?: RequestOptions): Promise<TemplateVersion> =>
        core.json<TemplateVersion>('PATCH', version(id, n), { body }, options),
      del: async (id: Id, n: number, options?: RequestOptions): Promise<void> => {
        await core.call('DELETE', version(id, n), {}, options);
      },
      /** The placeholders as form fields (`includeFragments`: each fragment's own inside it). */
      docFields: (id: Id, n: number, params: { includeFragments?: boolean } = {}, options?: RequestOptions) =>
        core.json<DocFields>('GET', `${version(id, n)}/doc_fields`, { query: params }, options),
      /** Types placeholders (`date` writes the value as a date). */
      setDocFields: (id: Id, n: number, body: DocFieldsPut, options?: RequestOptions): Promise<DocFields> =>
        core.json<DocFields>('PUT', `${version(id, n)}/doc_fields`, { body }, options),
      fileInfo: (id: Id, n: number, options?: RequestOptions) => core.head(`${version(id, n)}/file`, options),
      download: (id: Id, n: number, options?: RequestOptions): Promise<DownloadResponse> =>
        core.download(`${version(id, n)}/file`, options),
      activeFileInfo: (id: Id, options?: RequestOptions) => core.head(`${version(id, 'active')}/file`, options),
      downloadActive: (id: Id, options?: RequestOptions) => core.download(`${version(id, 'active')}/file`, options),
      latestFileInfo: (id: Id, options?: RequestOptions) => core.head(`${version(id, 'latest')}/file`, options),
      downloadLatest: (id: Id, options?: RequestOptions) => core.download(`${version(id, 'latest')}/file`, options),
      /** Deprecated: use `docFields`. */
      fields: (id: Id, n: number, options?: RequestOptions) =>
        core.json<FieldSet>('GET', `${version(id, n)}/fields`, {}, options),
      /** Deprecated: use `docFields`. */
      activeFields: (id: Id, options?: RequestOptions) =>
        core.json<FieldSet>('GET', `${version(id, 'active')}/fields`, {}, options),
      /** Deprecated: use `docFields`. */
      latestFields: (id: Id, options?: RequestOptions) =>
        core.json<FieldSet>('GET', `${version(id, 'latest')}/fields`, {}, options),
      /** The first page as a PNG (raw `Response`). */
      preview: (id: Id, n: number, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
        preview(version(id, n), undefined, params, options),
      /** Page `page` (from 1) as a PNG. */
      previewPage: (id: Id, n: number, page: number, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
        preview(version(id, n), page, params, options),
      previewActive: (id: Id, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
        preview(version(id, 'active'), undefined, params, options),
      previewActivePage: (id: Id, page: number, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
        preview(version(id, 'active'), page, params, options),
      previewLatest: (id: Id, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
        preview(version(id, 'latest'), undefined, params, options),
      previewLatestPage: (id: Id, page: number, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
        preview(version(id, 'latest'), page, params, options),
    },
  };
}

const FINAL_REQUESTS = new Set(['PROCESSED', 'FAILED', 'NOT_PROCESSED']);

/** `hr.documentGenerations`: generating documents, and their files, previews, archive, vault and mails. */
export function documentGenerations(core: HrCore, v: Verbs) {
  const path = '/document_generations';
  const of = (id: Id) => `${path}/${enc(id)}`;
  const migration = `${path}/syntax_migration`;
  const status = (requestId: Id, options?: RequestOptions) =>
    core.json<GenerationRequest>('GET', `/document_generation_requests/${enc(requestId)}/status`, {}, options);
  return {
    /** Generates a document now (201, with the differences permissive mode let through; `strict` refuses them). */
    create: (body: GenerationPayload, query: GenerationQuery = {}, options?: RequestOptions) =>
      core.json<GenerationWithErrors>('POST', path, { body, query }, options),
    /** Generates in the background: the request (202); `waitFor` polls it. */
    createAsync: (body: GenerationPayload, query: GenerationQuery = {}, options?: RequestOptions) =>
      core.json<GenerationRequest>('POST', `${path}/async`, { body, query }, options),
    retrieve: v.retrieve<Generation>(path),
    del: v.del(path),
    fileInfo: (id: Id, options?: RequestOptions) => core.head(`${of(id)}/file`, options),
    /** The generated file (raw `Response`, with `Crc-32` and `Page-Count`). */
    download: (id: Id, options?: RequestOptions): Promise<DownloadResponse> => core.download(`${of(id)}/file`, options),
    preview: (id: Id, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
      core.download(`${of(id)}/preview`, options, { ...params }),
    previewPage: (id: Id, page: number, params: DocgenPreviewParams = {}, options?: RequestOptions) =>
      core.download(`${of(id)}/preview/${enc(String(page))}`, options, { ...params }),
    /** Files the document as an employee document (an async generation with `employee_id` and `document_type_id`). */
    archive: (id: Id, options?: RequestOptions) => core.json<Generation>('POST', `${of(id)}/archive`, {}, options),
    /** Drops it in the employee's electronic vault (the same precondition). */
    vault: (id: Id, options?: RequestOptions) => core.json<Generation>('POST', `${of(id)}/vault`, {}, options),
    /** Mails it to 1 to 5 recipients (the outbox). */
    email: (id: Id, body: EmailPayload, options?: RequestOptions) =>
      core.json<GenerationWithErrors>('POST', `${of(id)}/email`, { body }, options),
    requests: {
      /** Lists requests, newest first (`status` in lower case). */
      list: v.list<GenerationRequest, RequestListQuery>('/document_generation_requests'),
      status,
    },
    /** The V1 → V2 syntax migration of the templates. */
    syntaxMigration: {
      /** Its status, and whether some template's latest version is still V1. */
      status: (options?: RequestOptions) => core.json<MigrationStatus>('GET', `${migration}/status`, {}, options),
      /** Starts it (`not_started` → `in_progress` only): a job converts every V1 template. */
      start: (body: MigrationStart, options?: RequestOptions) =>
        core.json<MigrationStatus>('PUT', `${migration}/status`, { body }, options),
      /** Runs it again (from any status but `in_progress`). */
      restart: (options?: RequestOptions) => core.json<MigrationCampaign>('POST', `${migration}/restart`, {}, options),
      /** Lists the templates whose latest version is V1 (`q`). */
      list: v.list<Template, MigrationListQuery>(`${migration}/list`),
      /** Converts a template's latest version to V2: its new version (201). */
      convert: (templateId: Id, options?: RequestOptions) =>
        core.json<TemplateVersion>('POST', `${migration}/${enc(templateId)}`, {}, options),
    },
    /**
     * Polls a request's status until it is final (`PROCESSED`, `FAILED`), and answers the generated document;
     * throws `AtriumError` when it failed, `AtriumTimeoutError` after `timeoutMs`.
     */
    waitFor: async (requestId: Id, options: DocgenWaitOptions = {}): Promise<Generation> => {
      const final = await pollUntil(
        (request) => status(requestId, request),
        (s) => FINAL_REQUESTS.has(s.status),
        `The generation request ${String(requestId)}`,
        options,
      );
      if (final.status !== 'PROCESSED') {
        throw new AtriumError(`The generation request ${String(requestId)} is ${final.status}: ${final.failure ?? ''}`);
      }
      return core.json<Generation>('GET', of(final.document_generation_id), {}, options);
    },
  };
}

const FINAL_CAMPAIGNS = new Set(['completed', 'failed', 'canceled']);

/** `hr.documentGenerationCampaigns`: a document per row of a dataset, as one zip, one PDF, or employee documents. */
export function documentGenerationCampaigns(core: HrCore, v: Verbs) {
  const path = '/document_generation_campaigns';
  const of = (id: Id) => `${path}/${enc(id)}`;
  const retrieve = (id: Id, options?: RequestOptions) => core.json<CampaignDetails>('GET', of(id), {}, options);
  return {
    /** Creates a campaign and starts its job (201, `created`); `waitFor` polls it. */
    create: v.create<CampaignPayload, Campaign>(path),
    /** Lists campaigns, newest first (`status`, `document_generation_template_id`). */
    list: v.list<Campaign, CampaignListQuery>(path),
    /** A campaign, its per-row counts and each row's outcome. */
    retrieve,
    /** The zip or the PDF of a completed campaign (raw `Response`, with `Crc-32`); 404 before, and for `archive`. */
    download: (id: Id, options?: RequestOptions): Promise<DownloadResponse> => core.download(`${of(id)}/file`, options),
    /** Not available (the reference marks it so): always throws the server's 501 `not_implemented`. */
    parseCsv: (input: UploadInput, options?: RequestOptions) =>
      core.json<unknown>('POST', `${path}/csv`, { form: formOf(input) }, options),
    /** Atrium extension: cancels a `created` or `in_progress` campaign. */
    cancel: (id: Id, options?: RequestOptions) => core.json<Campaign>('POST', `${of(id)}/cancel`, {}, options),
    /**
     * Polls a campaign until it is `completed`, `failed` or `canceled`, and answers it with its rows; throws
     * `AtriumTimeoutError` after `timeoutMs`.
     */
    waitFor: (id: Id, options: DocgenWaitOptions = {}): Promise<CampaignDetails> =>
      pollUntil(
        (request) => retrieve(id, request),
        (c) => FINAL_CAMPAIGNS.has(c.status),
        `The document generation campaign ${String(id)}`,
        options,
      ),
  };
}
