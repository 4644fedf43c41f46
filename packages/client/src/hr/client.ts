/**
 * The HR service delivery client API (`/api/v2/client`) client: {@link HrClient}, one namespace per resource, each
 * built in its own file of this folder from the verbs of `core.ts`.
 *
 * Parameter and result types come from the server's TypeBox schemas through type-only imports (erased at build
 * time), so this module loads nothing of the server at run time.
 */
import { AtriumUsageError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import { type HrClientOptions, HrCore, isBrowser, Verbs } from './core.js';
import { customFields } from './custom-fields.js';
import { customStatuses } from './custom-statuses.js';
import { datasetImports } from './dataset-imports.js';
import { datasets } from './datasets.js';
import { distributionProjects, distributions } from './distributions.js';
import { documentTypePredictionRuns } from './document-classification.js';
import {
  documentGenerationCampaigns,
  documentGenerations,
  documentGenerationTemplates,
} from './document-generation.js';
import { companyDocumentTypes, employeeDocumentTypes } from './document-types.js';
import { companyDocuments, employeeDocuments, redirectionUrls } from './documents.js';
import { employeeSettings } from './employee-settings.js';
import { employees } from './employees.js';
import { events } from './events.js';
import { folders } from './folders.js';
import { imports } from './imports.js';
import { inboxItems } from './inbox.js';
import { articleDocuments, articleResources, kbArticles, kbTags } from './kb-articles.js';
import { kbCategories } from './kb-categories.js';
import { macros } from './macros.js';
import { organizationGroups, organizations } from './organizations.js';
import { platform } from './platform.js';
import { processPdfTemplates } from './process-pdf-templates.js';
import { processTemplates } from './process-templates.js';
import { processes } from './processes.js';
import { requestForms } from './request-forms.js';
import { requests } from './requests.js';
import { roles } from './roles.js';
import { samlIdentityProviders } from './saml-identity-providers.js';
import { outbox, signatureProcesses, signatureTypes, signers } from './signatures.js';
import { tasks } from './tasks.js';
import { scans, uploads } from './uploads.js';
import { users } from './users.js';
import { electronicVaults, employeeSubscriptions } from './vaults.js';
import { webhooks } from './webhooks.js';

/** A request of {@link HrClient.request}, the escape hatch for calls the typed resources do not cover. */
export interface HrRawRequest {
  /** Query parameters (arrays sent comma-separated). */
  query?: Record<string, unknown>;
  /** A JSON body. */
  body?: unknown;
  /** Whether repeating the call is harmless (default: by method). */
  idempotent?: boolean;
}

/**
 * A client of the HR service delivery client API, modelled on stripe-node: one namespace per resource
 * (`hr.organizations`, `hr.requests`, …) with `list`, `retrieve`, `create`, `update`, `upsert`, `del` and the
 * resource's own actions.
 *
 * Tokens: fetched on the first call, cached, refreshed `tokenRefreshMarginSeconds` before expiry; concurrent calls
 * share one refresh; a `401 invalid_token` (revoked token) refreshes once and repeats the call once.
 *
 * For trusted server-to-server use only: constructing it in a browser throws, because its token must never reach a
 * user's device.
 *
 * @example
 * ```ts
 * const hr = new HrClient({ baseUrl, applicationId, applicationSecret, clientId });
 * for await (const r of hr.requests.list({ status: ['opened'] })) console.log(r.request_number);
 * ```
 */
export class HrClient {
  private readonly core: HrCore;

  /** Organizations (`/organizations`): the tree of the client's organizations; PUT upserts by code. */
  readonly organizations: ReturnType<typeof organizations>;
  /** Organization groups (`/organization_groups`). */
  readonly organizationGroups: ReturnType<typeof organizationGroups>;
  /** Temporary files (`/uploads`, `/document`) that documents, requests and tasks consume. */
  readonly uploads: ReturnType<typeof uploads>;
  /** Antivirus-scanned uploads (`/document/upload*`, `/file/upload/*`) and their status. */
  readonly scans: ReturnType<typeof scans>;
  /** The URLs to redirect to (`/redirection_urls`): `retrieve`. */
  readonly redirectionUrls: ReturnType<typeof redirectionUrls>;
  /** HR roles (`/roles`) and their permissions per module. */
  readonly roles: ReturnType<typeof roles>;
  /** HR users (`/users`). */
  readonly users: ReturnType<typeof users>;
  /** Custom fields of employees (`/custom_fields`). */
  readonly customFields: ReturnType<typeof customFields>;
  /** Employees (`/employees`), with search, upsert by external id and bulk calls. */
  readonly employees: ReturnType<typeof employees>;
  /** Datasets (`/datasets`): hierarchical value lists, and their values. */
  readonly datasets: ReturnType<typeof datasets>;
  /** Dataset imports (`/dataset_imports`): a CSV that replaces a dataset's values. */
  readonly datasetImports: ReturnType<typeof datasetImports>;
  /** Imports (`/imports`): CSV files of employees, managers or organizations. */
  readonly imports: ReturnType<typeof imports>;
  /** Folders of employee documents (`/employee_folders`). */
  readonly employeeFolders: ReturnType<typeof folders>;
  /** Folders of company documents (`/company_folders`). */
  readonly companyFolders: ReturnType<typeof folders>;
  /** Employee document types (`/employee_document_types`). */
  readonly employeeDocumentTypes: ReturnType<typeof employeeDocumentTypes>;
  /** Company document types (`/company_document_types`). */
  readonly companyDocumentTypes: ReturnType<typeof companyDocumentTypes>;
  /** Employee documents (`/employee_documents`): files, trash, expiry, search, downloads. */
  readonly employeeDocuments: ReturnType<typeof employeeDocuments>;
  /** Company documents (`/company_documents`). */
  readonly companyDocuments: ReturnType<typeof companyDocuments>;
  /** Process templates (`/process_templates`) and their task templates. */
  readonly processTemplates: ReturnType<typeof processTemplates>;
  /** PDF templates of process automation (`/process_pdf_templates`). */
  readonly processPdfTemplates: ReturnType<typeof processPdfTemplates>;
  /** Processes (`/processes`): create, publish, delete, post-process actions. */
  readonly processes: ReturnType<typeof processes>;
  /** Employee settings: process automation (the onboarding welcome and its file). */
  readonly employeeSettings: ReturnType<typeof employeeSettings>;
  /** Tasks of processes (`/tasks`): fill, complete, files. */
  readonly tasks: ReturnType<typeof tasks>;
  /** Knowledge-base categories (`/kb_categories`). */
  readonly kbCategories: ReturnType<typeof kbCategories>;
  /** Knowledge-base articles (`/kb_articles`). */
  readonly kbArticles: ReturnType<typeof kbArticles>;
  /** Knowledge-base tags (`/kb_tags`). */
  readonly kbTags: ReturnType<typeof kbTags>;
  /** Images embedded in articles (`/article_resources/{id}`): download. */
  readonly articleResources: ReturnType<typeof articleResources>;
  /** Files of the knowledge base's "Media" page (`/article_documents/{id}`): download. */
  readonly articleDocuments: ReturnType<typeof articleDocuments>;
  /** Document classification (`/document_type_prediction_run`): create, retrieve. */
  readonly documentTypePredictionRuns: ReturnType<typeof documentTypePredictionRuns>;
  /** Custom statuses of requests (`/custom_status`). */
  readonly customStatuses: ReturnType<typeof customStatuses>;
  /** Macros (`/macros`). */
  readonly macros: ReturnType<typeof macros>;
  /** Request forms (`/request_forms`). */
  readonly requestForms: ReturnType<typeof requestForms>;
  /** People Assist requests (`/requests`) with comments, attachments, files, assignees, links and macros. */
  readonly requests: ReturnType<typeof requests>;
  /** The audit trail (`/events`): list, retrieve, export (JSON or CSV), the actions per resource type. */
  readonly events: ReturnType<typeof events>;
  /**
   * Webhooks (`/webhooks`): CRUD (`update` is a PUT), `refreshSignatureKey`, `test`, and `deliveries` (`list`,
   * `redeliver`). Verify the callbacks with `verifyWebhookSignature`.
   */
  readonly webhooks: ReturnType<typeof webhooks>;
  /** Signature processes: `list`, `create`, `cancel`, `retrieve`, `upsert`, `update`, `del`, `download`, `archive`, `send`. */
  readonly signatureProcesses: ReturnType<typeof signatureProcesses>;
  /** Document generation templates: CRUD, `upload` (a new version), and `versions` (metadata, files, previews, fields). */
  readonly documentGenerationTemplates: ReturnType<typeof documentGenerationTemplates>;
  /** Generated documents: `create`, `createAsync` and `waitFor`, files, previews, `archive`, `vault`, `email`, `requests`. */
  readonly documentGenerations: ReturnType<typeof documentGenerations>;
  /** Document generation campaigns: `create`, `list`, `retrieve`, `download`, `cancel`, `waitFor` (and `parseCsv`, not available). */
  readonly documentGenerationCampaigns: ReturnType<typeof documentGenerationCampaigns>;
  /** Signature types: `list`, `retrieve`. */
  readonly signatureTypes: ReturnType<typeof signatureTypes>;
  /** Signers: CRUD in a draft, `remind`, `remindMany`, and the extensions `sign` and `refuse`. */
  readonly signers: ReturnType<typeof signers>;
  /** Inbox items: `list`, `create`, `retrieve`. */
  readonly inboxItems: ReturnType<typeof inboxItems>;
  /** Distribution projects: `list`, `create`, `retrieve`, and the extensions `validate` and `cancel`. */
  readonly distributionProjects: ReturnType<typeof distributionProjects>;
  /** Distributions: `list`, `create`, `retrieve`, `report`. */
  readonly distributions: ReturnType<typeof distributions>;
  /** SAML identity providers: `list`, `create`, `retrieve`, `exists`, `upsert`, `update`, `del`. */
  readonly samlIdentityProviders: ReturnType<typeof samlIdentityProviders>;
  /** The mail Atrium would have sent (Atrium extension): `list`. */
  readonly outbox: ReturnType<typeof outbox>;
  /** Electronic vaults: `list`, `retrieve`, `update`, `invite`, `unlink`, `addDocument`, and the extension `activate`. */
  readonly electronicVaults: ReturnType<typeof electronicVaults>;
  /** Employee subscriptions: `list`, `retrieve`. */
  readonly employeeSubscriptions: ReturnType<typeof employeeSubscriptions>;
  /** The client platform and its settings: `client`, `settings.core` (and the other modules), `applyUpdate`. */
  readonly platform: ReturnType<typeof platform>;

  /** @throws {AtriumUsageError} in a browser, or without the credentials. */
  constructor(options: HrClientOptions) {
    if (isBrowser()) {
      throw new AtriumUsageError(
        'HrClient must not run in a browser: HR access tokens are for trusted server-to-server use only and must never reach a user device. Call your own server, which uses HrClient.',
      );
    }
    for (const name of ['baseUrl', 'applicationId', 'applicationSecret', 'clientId'] as const) {
      if (typeof options?.[name] !== 'string' || options[name] === '') {
        throw new AtriumUsageError(`HrClient needs the option "${name}".`);
      }
    }
    const core = new HrCore(options);
    const v = new Verbs(core);
    this.core = core;
    this.organizations = organizations(v);
    this.organizationGroups = organizationGroups(v);
    this.platform = platform(core);
    this.uploads = uploads(core);
    this.scans = scans(core);
    this.redirectionUrls = redirectionUrls(core);
    this.roles = roles(core, v);
    this.users = users(core, v);
    this.customFields = customFields(v);
    this.employees = employees(core, v);
    this.datasets = datasets(core, v);
    this.datasetImports = datasetImports(core, v);
    this.imports = imports(core, v);
    this.employeeFolders = folders(v, '/employee_folders');
    this.companyFolders = folders(v, '/company_folders');
    this.employeeDocumentTypes = employeeDocumentTypes(v);
    this.companyDocumentTypes = companyDocumentTypes(v);
    this.employeeDocuments = employeeDocuments(core, v);
    this.companyDocuments = companyDocuments(core, v);
    this.processTemplates = processTemplates(core, v);
    this.processes = processes(core, v);
    this.processPdfTemplates = processPdfTemplates(v);
    this.employeeSettings = employeeSettings(core);
    this.tasks = tasks(core, v);
    this.kbCategories = kbCategories(v);
    this.kbArticles = kbArticles(core, v);
    this.kbTags = kbTags(v);
    this.articleResources = articleResources(core);
    this.articleDocuments = articleDocuments(core);
    this.documentTypePredictionRuns = documentTypePredictionRuns(v);
    this.customStatuses = customStatuses(v);
    this.macros = macros(v);
    this.requestForms = requestForms(core, v);
    this.requests = requests(core, v);
    this.events = events(core, v);
    this.webhooks = webhooks(core, v);
    this.signatureProcesses = signatureProcesses(core, v);
    this.signatureTypes = signatureTypes(v);
    this.documentGenerationTemplates = documentGenerationTemplates(core, v);
    this.documentGenerations = documentGenerations(core, v);
    this.documentGenerationCampaigns = documentGenerationCampaigns(core, v);
    this.signers = signers(core, v);
    this.outbox = outbox(core);
    this.inboxItems = inboxItems(v);
    this.electronicVaults = electronicVaults(core, v);
    this.employeeSubscriptions = employeeSubscriptions(v);
    this.distributionProjects = distributionProjects(core, v);
    this.distributions = distributions(core, v);
    this.samlIdentityProviders = samlIdentityProviders(core, v);
  }

  /** The API root the client calls, `…/api/v2/client`. */
  get apiRoot(): string {
    return this.core.root;
  }

  /** How many token requests this client has made (each refresh counts once, however many callers shared it). */
  get tokenRequests(): number {
    return this.core.tokens.requests;
  }

  /**
   * Any call of the API, authenticated like the others, for what the typed resources do not cover. `path` is
   * relative to the API root (`/organizations`). Resolves with the parsed JSON body (undefined when empty).
   */
  request<T = unknown>(method: string, path: string, init: HrRawRequest = {}, options?: RequestOptions): Promise<T> {
    return this.core.json<T>(method.toUpperCase(), path.startsWith('/') ? path : `/${path}`, init, options);
  }

  /** Like {@link HrClient.request}, but resolves with the raw `Response` (status checked) without reading it. */
  async rawRequest(method: string, path: string, init: HrRawRequest = {}, options?: RequestOptions): Promise<Response> {
    return (await this.core.send(method.toUpperCase(), path.startsWith('/') ? path : `/${path}`, init, options, true))
      .response;
  }

  /** Fetches a token now (normally done lazily by the first call) and returns it. */
  async getAccessToken(options: RequestOptions = {}): Promise<string> {
    return this.core.tokens.get(options.signal);
  }

  /** Revokes the cached token (`POST /revoke_token`) and forgets it; the next call fetches a new one. */
  async revokeToken(options?: RequestOptions): Promise<void> {
    await this.core.revokeToken(options);
  }
}
