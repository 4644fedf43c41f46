/**
 * The Postman collection (format v2.1) of the OpenAPI document (issue 17, item 10), converted by Postman's own
 * `openapi-to-postmanv2` and then made ready to run:
 *
 * - one collection variable per credential (`clientId`, `applicationId`, `applicationSecret`; `acadId`, `apiKey`)
 *   and `baseUrl` (`http://127.0.0.1:8080`, where `npm start` listens);
 * - HR calls authenticate with a bearer `{{accessToken}}` that a collection pre-request script obtains from
 *   `POST /api/v2/client/tokens` (OAuth 2.0 client credentials: HTTP Basic with the application id and secret, and
 *   a form with `grant_type`, `scope` and `client_id`; docs/hr-api.md, "Tokens") when it is missing or expires
 *   within a minute;
 * - the token requests themselves use HTTP Basic and a filled-in form; Academy calls carry `acadId` and the API key;
 * - optional parameters and `Idempotency-Key` are present but unchecked; no random value is left in the URLs;
 * - the Admin API (/admin/v1) authenticates with the bearer `{{adminToken}}` (an operator token);
 * - one folder per product area (HR core, Document manager, People Assist, processes and tasks, Academy, Admin),
 *   holding the converter's folders (one per tag); within a folder, deletions come last;
 * - every path variable is a `{{…}}` collection variable named after the collection it is an id in (`{{employees_id}}`,
 *   `{{academy_ilt_id}}`, `{{admin_tenants_kind}}`…), filled by the test script of an earlier request (a list or a
 *   creation in the same folder or area sets it from its answer) or, for the few no request fills, an example value;
 * - every request has a test script that checks its status: the documented success statuses, or those that
 *   `EXPECTED` gives (with the reason) for a request that cannot succeed as written on a freshly seeded server.
 *   `npm run test:postman` (scripts/newman.ts) runs it with newman.
 *
 * scripts/build-openapi.ts writes it at build time; the server serves it at `/docs/postman.json`.
 */
import Converter from 'openapi-to-postmanv2';

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

interface KeyValue {
  key: string;
  value?: string;
  disabled?: boolean;
  description?: { content?: string } | string;
  [other: string]: unknown;
}

interface PostmanRequest {
  method: string;
  url: { path?: string[]; query?: KeyValue[]; variable?: KeyValue[]; [other: string]: unknown };
  header?: KeyValue[];
  body?: { mode?: string; urlencoded?: KeyValue[]; [other: string]: unknown };
  auth?: unknown;
  [other: string]: unknown;
}

export interface PostmanItem {
  name: string;
  id?: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
  response?: Array<Record<string, unknown>>;
  [other: string]: unknown;
}

export interface PostmanCollection {
  info: { name: string; schema: string; description?: unknown; [other: string]: unknown };
  item: PostmanItem[];
  auth?: unknown;
  event?: unknown[];
  variable?: KeyValue[];
}

/** The collection pre-request script: a fresh HR token when an HR call needs one. */
const TOKEN_SCRIPT = `// Atrium: an HR call (/api/v2/client/...) needs a bearer token. When {{accessToken}} is missing or expires within a
// minute, get one with the OAuth 2.0 client-credentials grant (POST /api/v2/client/tokens, HTTP Basic with the
// application id and secret). The token endpoints themselves, the Academy API (/v1) and the Admin API do not need it.
const path = pm.request.url.getPath();
const hr = path.startsWith('/api/v2/client/') && !/\\/(tokens|revoke_token)$/.test(path);
const expiresAt = Number(pm.collectionVariables.get('accessTokenExpiresAt') || 0);
if (hr && (!pm.collectionVariables.get('accessToken') || Date.now() > expiresAt - 60000)) {
  const id = pm.variables.replaceIn('{{applicationId}}');
  const secret = pm.variables.replaceIn('{{applicationSecret}}');
  pm.sendRequest(
    {
      url: pm.variables.replaceIn('{{baseUrl}}/api/v2/client/tokens'),
      method: 'POST',
      header: [
        { key: 'Authorization', value: 'Basic ' + btoa(id + ':' + secret) },
        { key: 'Content-Type', value: 'application/x-www-form-urlencoded' },
        { key: 'Accept', value: 'application/json' },
      ],
      body: {
        mode: 'urlencoded',
        urlencoded: [
          { key: 'grant_type', value: 'client_credentials' },
          { key: 'scope', value: 'client' },
          { key: 'client_id', value: pm.variables.replaceIn('{{clientId}}') },
        ],
      },
    },
    (error, response) => {
      if (error || response.code !== 200) {
        console.error('Atrium: the token request failed', error || response.code + ' ' + response.text());
        return;
      }
      const token = response.json();
      pm.collectionVariables.set('accessToken', token.access_token);
      pm.collectionVariables.set('accessTokenExpiresAt', String(Date.now() + token.expires_in * 1000));
    },
  );
}`;

/**
 * The collection pre-request script's second part: a path variable left empty would send the request to another
 * route (`/faults/` is the list), so it is a failed test instead.
 */
const PATH_CHECK = `// Atrium: every path variable must have a value (an empty one would call another route).
for (const variable of pm.request.url.variables.all()) {
  const value = pm.variables.replaceIn(String(variable.value || ''));
  if (!value) {
    pm.test('path variable ' + variable.key + ' is set (' + variable.value + ')', function () {
      pm.expect.fail('no earlier request of the run set ' + variable.value);
    });
  }
}`;

const VARIABLES: Array<[string, string, string]> = [
  ['baseUrl', 'http://127.0.0.1:8080', 'Where Atrium listens (npm start: http://127.0.0.1:8080).'],
  ['clientId', '', 'HR API: the client (tenant) id, from `atrium hr create-client` or `atrium seed`.'],
  ['applicationId', '', 'HR API: the application id, from `atrium hr create-application` or `atrium seed`.'],
  ['applicationSecret', '', 'HR API: the application secret (shown once, when the application is created).'],
  ['accessToken', '', 'HR API: the current access token; set by the collection pre-request script.'],
  ['accessTokenExpiresAt', '', 'HR API: when the access token expires (ms since the epoch); set by the script.'],
  ['acadId', '', 'Academy API: the academy id, from `atrium academy create` or `atrium seed`.'],
  ['apiKey', '', 'Academy API: the academy API key (shown once).'],
  ['adminToken', '', 'Admin API: an operator token, from `atrium admin create-token`.'],
];

/** The product areas, the top-level folders: each request goes to the first whose test its path passes. */
const AREAS: Array<[string, (path: string) => boolean]> = [
  ['Admin API', (p) => p.startsWith('/admin/v1/')],
  ['Academy API', (p) => p.startsWith('/v1/')],
  [
    'HR API: Document manager',
    (p) =>
      /^\/api\/v2\/client\/(employee_folders|employee_document_types|employee_documents|company_folders|company_document_types|company_documents|signature_processes|signature_types|signers|inbox_items|electronic_vault_options|employee_subscriptions|distribution_projects|distributions)(\/|$)/.test(
        p,
      ) || /\/electronic_vault/.test(p),
  ],
  [
    'HR API: People Assist',
    (p) =>
      /^\/api\/v2\/client\/(kb_categories|kb_articles|kb_tags|custom_status|macros|request_forms|requests)(\/|$)/.test(
        p,
      ),
  ],
  [
    'HR API: Processes and tasks',
    (p) =>
      /^\/api\/v2\/client\/(process_templates|process_pdf_templates|processes|tasks|employee_settings)(\/|$)/.test(p),
  ],
  ['HR API: core', () => true],
];

/** The areas in the order they run: the HR API's core first (the others use its ids), the Admin API last. */
const AREA_ORDER = [
  'HR API: core',
  'HR API: Document manager',
  'HR API: People Assist',
  'HR API: Processes and tasks',
  'Academy API',
  'Admin API',
];

/**
 * Statuses a request answers on a freshly seeded server (`atrium seed`, then the collection run in order) when it
 * cannot answer its documented success, keyed by `METHOD /path/{param}`, each with why (found by running it:
 * `npm run test:postman`). Each is a documented status but those marked UNDOCUMENTED, which the API answers
 * without its OpenAPI document listing them.
 */
const R400 =
  "refused as malformed: the converter's example has no file for a multipart body, or a made-up query or body";
const R404 =
  'names nothing in a freshly seeded tenant: none is seeded or made earlier in the run, so the id is an example';
const R422 = "the converter's example body breaks a rule of the API (a made-up reference, format or value)";
const RANDOM = 'the converter fills this body with random values where the document has no example: either answer';
const AFTER_RANDOM = 'exists only when the randomly filled request before it in the run created it: either answer';
const EXPECTED: Record<string, [number[], string]> = {
  'POST /api/v2/client/platform_updates': [[404], R404],
  'DELETE /api/v2/client/document_generation_templates/{id}/versions/{number}': [[404], R404],
  'DELETE /api/v2/client/document_generations/{id}': [[404], R404],
  'GET /api/v2/client/document_generation_campaigns/{id}': [[404], R404],
  'GET /api/v2/client/document_generation_campaigns/{id}/file': [[404], R404],
  'GET /api/v2/client/document_generation_requests/{id}/status': [[404], R404],
  'GET /api/v2/client/document_generation_templates/{id}/versions/{number}': [[404], R404],
  'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/doc_fields': [[404], R404],
  'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/fields': [[404], R404],
  'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/file': [[404], R404],
  'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/preview': [[404], R404],
  'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/preview/{page}': [[404], R404],
  'GET /api/v2/client/document_generations/{id}': [[404], R404],
  'GET /api/v2/client/document_generations/{id}/file': [[404], R404],
  'GET /api/v2/client/document_generations/{id}/preview': [[404], R404],
  'GET /api/v2/client/document_generations/{id}/preview/{page}': [[404], R404],
  'HEAD /api/v2/client/document_generation_templates/{id}/versions/{number}/file': [[404], R404],
  'HEAD /api/v2/client/document_generations/{id}/file': [[404], R404],
  'PATCH /api/v2/client/document_generation_templates/{id}': [[422], R422],
  'PATCH /api/v2/client/document_generation_templates/{id}/versions/{number}': [[404], R404],
  'POST /api/v2/client/document_generation_campaigns': [[422], R422],
  'POST /api/v2/client/document_generation_campaigns/{id}/cancel': [[404], R404],
  'POST /api/v2/client/document_generation_templates': [[422], R422],
  'POST /api/v2/client/document_generation_templates/{id}/file': [[422], R422],
  'POST /api/v2/client/document_generations': [[422], R422],
  'POST /api/v2/client/document_generations/async': [[422], R422],
  'POST /api/v2/client/document_generations/syntax_migration/restart': [[422], R422],
  'POST /api/v2/client/document_generations/syntax_migration/{id}': [[404], R404],
  'POST /api/v2/client/document_generations/{id}/archive': [[404], R404],
  'POST /api/v2/client/document_generations/{id}/email': [[404], R404],
  'POST /api/v2/client/document_generations/{id}/vault': [[404], R404],
  'PUT /api/v2/client/document_generation_templates/{id}': [[422], R422],
  'PUT /api/v2/client/document_generation_templates/{id}/versions/{number}': [[404], R404],
  'PUT /api/v2/client/document_generation_templates/{id}/versions/{number}/doc_fields': [[404], R404],
  'POST /api/v2/client/document_generation_campaigns/csv': [
    [501],
    'the reference marks it unavailable for now: 501 whatever the body',
  ],
  'DELETE /admin/v1/tenants/hr/{id}/applications/{application_id}': [[404], R404],
  'DELETE /admin/v1/tenants/{kind}/{id}/faults/{fault_id}': [[404], R404],
  'DELETE /api/v2/client/company_documents/trash': [
    [400],
    'UNDOCUMENTED: as the collection sends it, emptying the trash answers 400, which the document does not list',
  ],
  'DELETE /api/v2/client/company_documents/{id}': [[404], R404],
  'DELETE /api/v2/client/datasets/{id}/values/{value_id}': [[204, 404], AFTER_RANDOM],
  'DELETE /api/v2/client/employee_documents/trash': [
    [400],
    'UNDOCUMENTED: as the collection sends it, emptying the trash answers 400, which the document does not list',
  ],
  'DELETE /api/v2/client/employee_documents/{id}': [[404], R404],
  'DELETE /api/v2/client/employees/{id}/electronic_vault_link': [[400], R400],
  'DELETE /api/v2/client/kb_categories/{id}': [[400], R400],
  'DELETE /api/v2/client/requests/{id}/attachments/{attachment_id}': [[404], R404],
  'DELETE /api/v2/client/requests/{id}/files/{file_id}': [[404], R404],
  'DELETE /api/v2/client/signature_processes/{id}': [[404], R404],
  'DELETE /api/v2/client/signers/{id}': [[404], R404],
  'DELETE /api/v2/client/tasks/{id}/files/{file_id}': [[404], R404],
  'DELETE /api/v2/client/webhooks/{id}': [[404], R404],
  'GET /admin/v1/session': [[404], R404],
  'GET /admin/v1/tenants/{kind}/{id}/faults/{fault_id}': [[404], R404],
  'GET /api/v2/client/article_documents/{id}': [[404], R404],
  'GET /api/v2/client/article_resources/{id}': [[404], R404],
  'GET /api/v2/client/company_document_types/{id}': [[404], R404],
  'GET /api/v2/client/company_documents': [[400], R400],
  'GET /api/v2/client/company_documents/{id}': [[404], R404],
  'GET /api/v2/client/company_documents/{id}/duplicate': [[404], R404],
  'GET /api/v2/client/company_documents/{id}/file': [[404], R404],
  'GET /api/v2/client/company_documents/{id}/preview': [[404], R404],
  'GET /api/v2/client/company_documents/{id}/receipt': [[404], R404],
  'GET /api/v2/client/custom_fields/{id}': [[404], R404],
  'GET /api/v2/client/custom_status/{id}': [[404], R404],
  'GET /api/v2/client/dataset_imports/{id}': [[404], R404],
  'GET /api/v2/client/dataset_imports/{id}/report': [[404], R404],
  'GET /api/v2/client/dataset_imports/{id}/source': [[404], R404],
  'GET /api/v2/client/datasets/{id}': [[404], R404],
  'GET /api/v2/client/datasets/{id}/values': [[200, 404], AFTER_RANDOM],
  'GET /api/v2/client/datasets/{id}/values/{value_id}': [[404], R404],
  'GET /api/v2/client/distribution_projects/{id}': [[404], R404],
  'GET /api/v2/client/distributions/{id}': [[404], R404],
  'GET /api/v2/client/distributions/{id}/report': [[404], R404],
  'GET /api/v2/client/document_type_prediction_run/{id}': [[404], R404],
  'GET /api/v2/client/employee_documents': [[400], R400],
  'GET /api/v2/client/employee_documents/{id}': [[404], R404],
  'GET /api/v2/client/employee_documents/{id}/duplicate': [[404], R404],
  'GET /api/v2/client/employee_documents/{id}/file': [[404], R404],
  'GET /api/v2/client/employee_documents/{id}/preview': [[404], R404],
  'GET /api/v2/client/employee_documents/{id}/receipt': [[404], R404],
  'GET /api/v2/client/employees/bulk/{request_id}': [[404], R404],
  'GET /api/v2/client/file/scan/{scan_id}/status': [[404], R404],
  'GET /api/v2/client/imports/{id}': [[404], R404],
  'GET /api/v2/client/imports/{id}/errors_report': [[404], R404],
  'GET /api/v2/client/imports/{id}/report': [[404], R404],
  'GET /api/v2/client/imports/{id}/source': [[404], R404],
  'GET /api/v2/client/inbox_items/{id}': [[404], R404],
  'GET /api/v2/client/macros/{id}': [[404], R404],
  'GET /api/v2/client/requests/{id}/attachments/{attachment_id}/download': [[404], R404],
  'GET /api/v2/client/requests/{id}/attachments/{attachment_id}/preview/{page}': [[404], R404],
  'GET /api/v2/client/requests/{id}/comments/{comment_id}/attachments/{attachment_id}': [[404], R404],
  'GET /api/v2/client/requests/{id}/comments/{comment_id}/attachments/{attachment_id}/preview/{page}': [[404], R404],
  'GET /api/v2/client/requests/{id}/files/{file_id}/download': [[404], R404],
  'GET /api/v2/client/requests/{id}/files/{file_id}/preview/{page}': [[404], R404],
  'GET /api/v2/client/requests/{id}/macros': [[400], R400],
  'GET /api/v2/client/signature_processes/{id}': [[404], R404],
  'GET /api/v2/client/signature_processes/{id}/file': [[404], R404],
  'GET /api/v2/client/signature_processes/{id}/preview': [[404], R404],
  'GET /api/v2/client/signers': [[404], R404],
  'GET /api/v2/client/signers/{id}': [[404], R404],
  'GET /api/v2/client/tasks/{id}/files/{file_id}': [[404], R404],
  'GET /api/v2/client/tasks/{id}/files/{file_id}/download': [[404], R404],
  'GET /api/v2/client/users/bulk/{request_id}': [[404], R404],
  'GET /api/v2/client/webhooks/{id}': [[404], R404],
  'GET /api/v2/client/webhooks/{id}/deliveries': [[404], R404],
  'GET /v1/courses/user/{userId}': [[404], R404],
  'GET /v1/curriculum/{id}': [[404], R404],
  'GET /v1/curriculums/user/{userId}': [[404], R404],
  'GET /v1/events/ilt/{eventid}/calendar': [[404], R404],
  'GET /v1/events/vc/{eventid}/calendar': [[404], R404],
  'GET /v1/users/{eventid}/events': [[404], R404],
  'HEAD /api/v2/client/company_documents/{id}/file': [[404], R404],
  'HEAD /api/v2/client/datasets/{id}/values/{value_id}': [[404], R404],
  'HEAD /api/v2/client/employee_documents/{id}/file': [[404], R404],
  'HEAD /api/v2/client/requests/{id}/attachments/{attachment_id}/preview': [[404], R404],
  'HEAD /api/v2/client/requests/{id}/comments/{comment_id}/attachments/{attachment_id}/preview': [[404], R404],
  'HEAD /api/v2/client/requests/{id}/files/{file_id}/preview': [[404], R404],
  'PATCH /api/v2/client/company_document_types/{id}': [[404], R404],
  'PATCH /api/v2/client/company_documents/{id}': [[404], R404],
  'PATCH /api/v2/client/custom_fields/{id}': [[404], R404],
  'PATCH /api/v2/client/employee_document_types/{id}': [[422], R422],
  'PATCH /api/v2/client/employee_documents/{id}': [[404], R404],
  'PATCH /api/v2/client/employees/{id}': [[422], R422],
  'PATCH /api/v2/client/kb_articles/{id}': [[422], R422],
  'PATCH /api/v2/client/organization_groups/{id}': [[422], R422],
  'PATCH /api/v2/client/organizations/{id}': [[422], R422],
  'PATCH /api/v2/client/request_forms/{id}': [[422], R422],
  'PATCH /api/v2/client/requests/{id}': [[400], R400],
  'PATCH /api/v2/client/signature_processes/{id}': [[404], R404],
  'PATCH /api/v2/client/signers/{id}': [[404], R404],
  'PATCH /api/v2/client/tasks/{id}/files/{file_id}': [[404], R404],
  'PATCH /api/v2/client/users/{id}': [[422], R422],
  'POST /admin/v1/tenants/hr/{id}/events/trigger': [
    [201, 422],
    "a seeded client's resources may have no recorded event to take the example type's state from (422 names what to write first)",
  ],
  'POST /admin/v1/tenants/{kind}/{id}/clock/advance': [[400], R400],
  'POST /admin/v1/tenants/{kind}/{id}/snapshots/import': [
    [400],
    'the example body is not a snapshot file: 400 snapshot_corrupt',
  ],
  'POST /admin/v1/tenants/{kind}/{id}/faults': [[422], R422],
  'POST /admin/v1/tenants/{kind}/{id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': [[404], R404],
  'POST /api/v2/client/company_documents': [[400], R400],
  'POST /api/v2/client/dataset_imports': [[422], R422],
  'POST /api/v2/client/distribution_projects': [[422], R422],
  'POST /api/v2/client/distribution_projects/{id}/cancel': [[404], R404],
  'POST /api/v2/client/distribution_projects/{id}/validate': [[404], R404],
  'POST /api/v2/client/distributions': [[422], R422],
  'POST /api/v2/client/document': [[400], R400],
  'POST /api/v2/client/document/upload': [[400], R400],
  'POST /api/v2/client/document/upload/async': [[400], R400],
  'POST /api/v2/client/employee_documents': [[400], R400],
  'POST /api/v2/client/employee_documents/search': [[400], R400],
  'POST /api/v2/client/employees/search': [[400], R400],
  'POST /api/v2/client/employees/{id}/electronic_vault_activate': [[200, 400], RANDOM],
  'POST /api/v2/client/employees/{id}/electronic_vault_documents': [[400], R400],
  'POST /api/v2/client/file/upload/async': [[400], R400],
  'POST /api/v2/client/file/upload/sync': [[400], R400],
  'POST /api/v2/client/document_type_prediction_run': [[422], R422],
  'POST /api/v2/client/imports': [[422], R422],
  'POST /api/v2/client/kb_articles/images': [[422], R422],
  'POST /api/v2/client/inbox_items': [[422], R422],
  'POST /api/v2/client/processes': [[422], R422],
  'POST /api/v2/client/processes/{id}/post_process_action': [
    [201, 404, 422],
    'the example names no HR user (422 for user_inboxes, 201 for shared_inboxes), or no process is seeded (404)',
  ],
  'POST /api/v2/client/request_forms/{id}/change_group_category': [
    [403, 404, 422],
    'no seeded form belongs to a multilingual group (403), or the example names no form or no category',
  ],
  'PUT /api/v2/client/process_pdf_templates/{id}': [[422], R422],
  'GET /api/v2/client/process_pdf_templates/{id}': [[404], R404],
  'GET /api/v2/client/tasks/{id}/workingfiles/{file_id}': [[404], R404],
  'GET /api/v2/client/employee_settings/{employee_id}/process_automation': [[200, 404], R404],
  'GET /api/v2/client/employee_settings/{employee_id}/process_automation/welcome_file': [[200, 404], R404],
  'POST /api/v2/client/requests': [[400], R400],
  'POST /api/v2/client/requests/{id}/comments': [[422], R422],
  'POST /api/v2/client/requests/{id}/linked_requests': [[422], R422],
  'POST /api/v2/client/requests/{id}/macros': [[400], R400],
  'POST /api/v2/client/signature_processes': [[422], R422],
  'POST /api/v2/client/signature_processes/cancel': [[400], R400],
  'POST /api/v2/client/signature_processes/{id}/archive': [[404], R404],
  'POST /api/v2/client/signature_processes/{id}/send': [[404], R404],
  'POST /api/v2/client/signers': [[422], R422],
  'POST /api/v2/client/signers/remind': [
    [404],
    'UNDOCUMENTED: the example signer id is in no tenant, which answers 404 (not among the documented statuses)',
  ],
  'POST /api/v2/client/signers/{id}/refuse': [[404], R404],
  'POST /api/v2/client/signers/{id}/remind': [[404], R404],
  'POST /api/v2/client/signers/{id}/sign': [[404], R404],
  'POST /api/v2/client/tasks/{id}/complete': [[422], R422],
  'POST /api/v2/client/tasks/{id}/files': [[422], R422],
  'POST /api/v2/client/tasks/{id}/fill': [[422], R422],
  'POST /api/v2/client/uploads': [[400], R400],
  'POST /api/v2/client/uploads/{id}/text_occurrences': [[404], R404],
  'POST /api/v2/client/users': [[422], R422],
  'POST /api/v2/client/webhooks': [[422], R422],
  'POST /api/v2/client/webhooks/{id}/deliveries/{delivery_id}/redeliver': [[404], R404],
  'POST /api/v2/client/webhooks/{id}/refresh_signature_key': [[404], R404],
  'POST /api/v2/client/webhooks/{id}/tests': [[404], R404],
  'POST /v1/events/ilt': [[400], R400],
  'POST /v1/events/ilt/{eventid}/users': [[404], R404],
  'POST /v1/events/vc/{eventid}/users': [[404], R404],
  'PUT /admin/v1/tenants/{kind}/{id}/clock': [[400], R400],
  'PUT /api/v2/client/company_document_types/{id}': [[422], R422],
  'PUT /api/v2/client/company_documents/{id}': [[404], R404],
  'PUT /api/v2/client/company_documents/{id}/expiration/update': [[404], R404],
  'PUT /api/v2/client/company_documents/{id}/expire': [[404], R404],
  'PUT /api/v2/client/company_documents/{id}/trash': [[404], R404],
  'PUT /api/v2/client/company_documents/{id}/untrash': [[404], R404],
  'PUT /api/v2/client/custom_fields/{id}': [[422], R422],
  'PUT /api/v2/client/datasets/{id}': [[201, 422], RANDOM],
  'PUT /api/v2/client/datasets/{id}/values/{value_id}': [[201, 404, 422], RANDOM],
  'PUT /api/v2/client/employee_document_types/{id}': [[422], R422],
  'PUT /api/v2/client/employee_documents/{id}': [[404], R404],
  'PUT /api/v2/client/employee_documents/{id}/expiration/update': [[404], R404],
  'PUT /api/v2/client/employee_documents/{id}/expire': [[404], R404],
  'PUT /api/v2/client/employee_documents/{id}/trash': [[404], R404],
  'PUT /api/v2/client/employee_documents/{id}/untrash': [[404], R404],
  'PUT /api/v2/client/employees/by_external_id/{external_id}': [[422], R422],
  'PUT /api/v2/client/employees/{id}': [[422], R422],
  'PUT /api/v2/client/kb_articles/{id}': [[422], R422],
  'PUT /api/v2/client/kb_categories/{id}': [[200, 422], RANDOM],
  'PUT /api/v2/client/macros/{id}': [[422], R422],
  'PUT /api/v2/client/organization_groups/{id}': [[422], R422],
  'PUT /api/v2/client/organizations/{id}': [[422], R422],
  'PUT /api/v2/client/process_templates/{id}': [[422], R422],
  'PUT /api/v2/client/process_templates/{process_template_id}/task_templates/{id}': [[422], R422],
  'PUT /api/v2/client/processes/{id}/publish': [[422], R422],
  'PUT /api/v2/client/request_forms/{id}': [[422], R422],
  'PUT /api/v2/client/roles/{id}': [[422], R422],
  'PUT /api/v2/client/roles/{role_id}/permissions/core': [[200, 422], RANDOM],
  'PUT /api/v2/client/signature_processes/{id}': [[404], R404],
  'PUT /api/v2/client/signers/{id}': [[404], R404],
  'PUT /api/v2/client/users/{id}': [[422], R422],
  'PUT /api/v2/client/webhooks/{id}': [[422], R422],
  'PUT /v1/curriculums/{id}/completeByAdmin': [[200, 400], RANDOM],
  'PUT /v1/events/ilt/{eventid}': [[400], R400],
  'PUT /v1/events/ilt/{eventid}/addOffers': [[400], R400],
  'PUT /v1/events/ilt/{eventid}/cancel': [[404], R404],
  'PUT /v1/events/ilt/{eventid}/convertToBundle': [[400], R400],
  'PUT /v1/events/ilt/{eventid}/users/{userId}': [[404], R404],
  'PUT /v1/events/vc/{eventid}': [[400], R400],
  'PUT /v1/events/vc/{eventid}/addOffers': [[400], R400],
  'PUT /v1/events/vc/{eventid}/cancel': [[404], R404],
  'PUT /v1/events/vc/{eventid}/convertToBundle': [[400], R400],
  'PUT /v1/events/vc/{eventid}/users/{userId}': [[404], R404],
};

/**
 * The initial values of path variables: an example id (`example`; `999999` in the Academy API, whose ids are
 * numbers) that an earlier request of the run replaces when it lists or creates one; these few are values a seeded
 * server (`atrium seed`) has.
 */
const VALUES: Record<string, string> = { by_external_id_id: 'demo-1', preview_page: '1' };

function initialValue(variable: string): string {
  return VALUES[variable] ?? (variable.startsWith('academy_') ? '999999' : 'example');
}

/** The documented statuses of an operation, from the converter's examples. */
function documentedStatuses(item: PostmanItem): number[] {
  return [...new Set((item.response ?? []).map((r) => Number(r.code)).filter((c) => Number.isInteger(c)))].sort();
}

/** `/api/v2/client/employees/:id` → `GET /api/v2/client/employees/{id}`. */
function operationKey(method: string, path: string): string {
  return `${method} ${path.replace(/:([^/]+)/g, '{$1}')}`;
}

/** The API's prefix of a variable's name: none for the HR API. */
function apiPrefix(path: string): string {
  return path.startsWith('/v1/') ? 'academy_' : path.startsWith('/admin/v1/') ? 'admin_' : '';
}

/** A path parameter's field in the answers that list or create it: `id` for any id, else its own name. */
function fieldOf(param: string): string {
  return param === 'id' || /(_id|Id|eventid)$/.test(param) ? 'id' : param;
}

/**
 * The collection variable of each path parameter: the API's prefix, the last literal segment before it (the
 * collection), and its field (`employees_id`, `academy_ilt_id`, `admin_tenants_kind`, `preview_page`).
 */
export function pathVariables(path: string): Array<{ param: string; variable: string; field: string }> {
  const segments = path.split('/').filter(Boolean);
  const out: Array<{ param: string; variable: string; field: string }> = [];
  let collection = '';
  for (const segment of segments) {
    if (!segment.startsWith(':')) {
      collection = segment;
      continue;
    }
    const param = segment.slice(1);
    const field = fieldOf(param);
    out.push({ param, variable: `${apiPrefix(path)}${collection}_${field}`, field });
  }
  return out;
}

/**
 * What an answer sets: a list (`GET …/employees`) or a creation (`POST …/employees`) answers items of the collection
 * its path ends with; their first item's fields fill the variables of the paths `…/employees/:id…` that follow.
 * The last list or creation wins (later requests act on what it listed or made).
 */
function captureScript(path: string, method: string, known: Map<string, string[]>): string[] {
  const literal = path.split('/').filter(Boolean).at(-1) ?? '';
  if (literal.startsWith(':') || (method !== 'GET' && method !== 'POST')) return [];
  const targets = known.get(`${apiPrefix(path)}${literal}`);
  if (!targets) return [];
  const fields = targets.map((variable) => [variable, variable.slice(`${apiPrefix(path)}${literal}_`.length)]);
  return [
    '// Atrium: ids for the requests that follow.',
    'if (pm.response.code < 300 && /json/.test(pm.response.headers.get("Content-Type") || "")) {',
    '  const body = pm.response.json();',
    '  const list = Array.isArray(body) ? body : body && typeof body === "object" ? Object.values(body).find(Array.isArray) : undefined;',
    '  let first = list ? list[0] : body;',
    '  // A creation may wrap what it made (`{"tenant": {...}}`).',
    `  if (first && typeof first === "object" && !(${JSON.stringify(fields[0]?.[1])} in first)) first = Object.values(first).find((v) => v && typeof v === "object" && ${JSON.stringify(fields[0]?.[1])} in v) || first;`,
    `  for (const [variable, field] of ${JSON.stringify(fields)}) {`,
    '    const value = first && typeof first === "object" ? first[field] : undefined;',
    '    if (value !== undefined && value !== null) {',
    '      pm.collectionVariables.set(variable, String(value));',
    '    }',
    '  }',
    '}',
  ];
}

function requiredParam(param: KeyValue): boolean {
  const text = typeof param.description === 'string' ? param.description : param.description?.content;
  return typeof text === 'string' && text.startsWith('(Required)');
}

/** Every request of the collection (its leaves), in order. */
export function requestsOf(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => (item.item ? requestsOf(item.item) : item.request ? [item] : []));
}

/** Makes one converted request ready to run (see the module's comment). */
function finishRequest(item: PostmanItem): void {
  delete item.id;
  const request = item.request as PostmanRequest;
  const path = `/${(request.url.path ?? []).join('/')}`;
  const variables = new Map(pathVariables(path).map((v) => [v.param, v.variable]));
  for (const variable of request.url.variable ?? []) {
    variable.value = `{{${variables.get(variable.key)}}}`;
  }
  for (const param of request.url.query ?? []) {
    if (param.key === 'acadId') param.value = '{{acadId}}';
    else if (!requiredParam(param)) {
      param.disabled = true;
      param.value = '';
    }
  }
  for (const header of request.header ?? []) {
    if (header.key === 'Idempotency-Key') {
      header.value = '{{$guid}}';
      header.disabled = true;
    }
  }
  if (path === '/api/v2/client/tokens' || path === '/api/v2/client/revoke_token') {
    request.auth = {
      type: 'basic',
      basic: [
        { key: 'username', value: '{{applicationId}}', type: 'string' },
        { key: 'password', value: '{{applicationSecret}}', type: 'string' },
      ],
    };
    const form: Record<string, string> = {
      grant_type: 'client_credentials',
      scope: 'client',
      client_id: '{{clientId}}',
      token: '{{accessToken}}',
    };
    for (const field of request.body?.urlencoded ?? []) {
      if (form[field.key] !== undefined) field.value = form[field.key];
    }
  } else if (path.startsWith('/v1/')) {
    request.auth = {
      type: 'apikey',
      apikey: [
        { key: 'key', value: 'apikey', type: 'string' },
        { key: 'value', value: '{{apiKey}}', type: 'string' },
        { key: 'in', value: 'query', type: 'string' },
      ],
    };
  } else if (path.startsWith('/admin/v1/')) {
    if (path === '/admin/v1/session' && request.body?.mode === 'raw') {
      request.body.raw = JSON.stringify({ token: '{{adminToken}}' }, null, 2);
    }
    request.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{adminToken}}', type: 'string' }] };
  } else {
    // The collection's bearer token.
    delete request.auth;
  }
  // The documented answers stay as examples, without their copy of the request (half the file).
  for (const response of item.response ?? []) {
    delete response.id;
    delete response.originalRequest;
  }
}

/** Converts the OpenAPI document, then makes the collection ready to run. */
export async function postmanCollection(document: object): Promise<PostmanCollection> {
  const result = await new Promise<{ result: boolean; reason?: string; output?: Array<{ data: unknown }> }>(
    (resolve, reject) =>
      Converter.convertV2(
        // The converter changes the document it is given (it adds keys and resolves references in place).
        { type: 'json', data: structuredClone(document) },
        { folderStrategy: 'Tags', parametersResolution: 'Example', includeAuthInfoInExample: false },
        (error, answer) => (error ? reject(error) : resolve(answer as never)),
      ),
  );
  const data = result.output?.[0]?.data as PostmanCollection | undefined;
  if (!result.result || !data) throw new Error(`openapi-to-postmanv2 failed: ${result.reason ?? 'no output'}`);
  const pathOf = (item: PostmanItem) => `/${(item.request?.url.path ?? []).join('/')}`;
  for (const item of requestsOf(data.item)) finishRequest(item);
  // Every variable of a path, by the collection it follows (`employees` → `employees_id`), for the captures.
  const known = new Map<string, string[]>();
  const names = new Set<string>();
  for (const item of requestsOf(data.item)) {
    for (const { variable, field } of pathVariables(pathOf(item))) {
      names.add(variable);
      const collection = variable.slice(0, -(field.length + 1));
      const list = known.get(collection) ?? [];
      if (!list.includes(variable)) list.push(variable);
      known.set(collection, list);
    }
  }
  for (const item of requestsOf(data.item)) {
    const request = item.request as PostmanRequest;
    const path = pathOf(item);
    const key = operationKey(request.method, path);
    const documented = documentedStatuses(item);
    const expected = EXPECTED[key]?.[0] ?? documented.filter((code) => code < 300);
    const exec = [
      `pm.test(${JSON.stringify(`${key} answers ${expected.join(' or ')}`)}, function () {`,
      `  pm.expect(pm.response.code).to.be.oneOf(${JSON.stringify(expected)});`,
      '});',
      ...captureScript(path, request.method, known),
    ];
    if (path === '/api/v2/client/revoke_token') {
      // The token it revoked is the collection's: the next HR request gets a new one.
      exec.push('pm.collectionVariables.set("accessToken", "");');
    }
    const events: unknown[] = [{ listen: 'test', script: { type: 'text/javascript', exec } }];
    item.event = events;
    if (path.endsWith('/requests/tail')) {
      // A Server-Sent Events stream lasts until the client leaves, which newman never does: scripts/newman.ts sets
      // `runner` and the request is skipped there (Postman's own client reads the stream).
      events.unshift({
        listen: 'prerequest',
        script: {
          type: 'text/javascript',
          exec: ['if (pm.variables.get("runner") === "newman") pm.execution.skipRequest();'],
        },
      });
    }
  }
  // Folders by product area, each holding the converter's folders (by tag) in their order; deletions last.
  const areas = new Map<string, PostmanItem[]>(AREA_ORDER.map((name) => [name, []]));
  for (const folder of data.item) {
    for (const item of folder.item ?? [folder]) {
      const area = (AREAS.find(([, test]) => test(pathOf(item))) as [string, unknown])[0];
      const folders = areas.get(area) as PostmanItem[];
      let target = folders.find((f) => f.name === folder.name);
      if (!target) {
        target = { name: folder.name, item: [] };
        if (folder.description) target.description = folder.description;
        folders.push(target);
      }
      (target.item as PostmanItem[]).push(item);
    }
  }
  for (const [area, folders] of areas) {
    // The extensions act on what the area's other folders listed or made.
    const extensions = folders.findIndex((f) => f.name === 'Atrium extensions');
    if (extensions >= 0)
      areas.set(area, [...folders.filter((f) => f.name !== 'Atrium extensions'), folders[extensions] as PostmanItem]);
  }
  for (const folders of areas.values()) {
    for (const folder of folders) {
      const items = folder.item as PostmanItem[];
      folder.item = [
        ...items.filter((i) => i.request?.method !== 'DELETE'),
        ...items.filter((i) => i.request?.method === 'DELETE'),
      ];
    }
  }
  const collection: PostmanCollection = {
    info: { ...data.info, name: 'Atrium', schema: POSTMAN_SCHEMA },
    item: [...areas].filter(([, folders]) => folders.length > 0).map(([name, item]) => ({ name, item })),
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] },
    event: [
      { listen: 'prerequest', script: { type: 'text/javascript', exec: TOKEN_SCRIPT.split('\n') } },
      { listen: 'prerequest', script: { type: 'text/javascript', exec: PATH_CHECK.split('\n') } },
    ],
    variable: [
      ...VARIABLES.map(([key, value, description]) => ({ key, value, type: 'string', description })),
      ...[...names].sort().map((key) => ({
        key,
        value: initialValue(key),
        type: 'string',
        description:
          'A path variable: an example, replaced by an earlier request of the run that lists or creates one.',
      })),
    ],
  };
  delete collection.info._postman_id;
  return collection;
}
