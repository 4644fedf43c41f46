import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { compilePendingSchemas } from '../../src/platform/http/validation.js';
import {
  createCredentials,
  dialects,
  getToken,
  hrCaller,
  sleep,
  startServer,
  type TestServer,
} from '../support/harness.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what a server wrote on one connection into responses (each with a Content-Length). */
function parseResponses(data: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    assert.ok(end > 0, `incomplete response head: ${rest.toString()}`);
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? '0');
    const start = end + 4;
    out.push({
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine as string)?.[1]),
      headers,
      body: rest.subarray(start, start + length).toString('utf8'),
    });
    rest = rest.subarray(start + length);
  }
  return out;
}

/** A raw connection: what is written goes as is (pipelining included); `closed` gives all it received. */
function connect(url: string): { socket: net.Socket; closed: Promise<Buffer> } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  const closed = new Promise<Buffer>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks))));
  return { socket, closed };
}

for (const dialect of dialects()) {
  describe(`operational endpoints (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('every route’s validators and response serializers compile (they compile lazily, on first use)', async () => {
      const compiled = await compilePendingSchemas();
      assert.ok(compiled > 300, `compiled ${compiled} schemas`);
      assert.equal(await compilePendingSchemas(), 0, 'nothing is left to compile');
      const res = await fetch(`${server.url}/api/v2/client/organizations`, { headers: { authorization: 'Bearer x' } });
      assert.equal(res.status, 401, 'the server still answers after the warm-up');
    });

    it('GET /healthz and /readyz', async () => {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ok', database: dialect });
    });

    it('GET /openapi.json is OpenAPI 3.1 and documents every route, explicit HEADs included', async () => {
      const res = await fetch(`${server.url}/openapi.json`);
      assert.equal(res.status, 200);
      const doc = (await res.json()) as {
        openapi: string;
        paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>>;
        components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
      };
      assert.equal(doc.openapi, '3.1.0');
      const all = Object.entries(doc.paths).flatMap(([p, v]) => Object.keys(v).map((m) => `${m.toUpperCase()} ${p}`));
      const ops = all.filter((o) => o.includes('/api/v2/client'));
      for (const kind of ['ilt', 'vc']) {
        for (const op of [
          `GET /v1/events/${kind}`,
          `POST /v1/events/${kind}`,
          `GET /v1/events/${kind}/{eventid}`,
          `PUT /v1/events/${kind}/{eventid}`,
          `DELETE /v1/events/${kind}/{eventid}`,
          `GET /v1/events/${kind}/{eventid}/offers`,
          `GET /v1/events/${kind}/{eventid}/users`,
          `GET /v1/events/${kind}/{eventid}/users-attendance-data`,
          `GET /v1/events/${kind}/{eventid}/usersAttendanceData`,
          `PUT /v1/events/${kind}/{eventid}/convertToBundle`,
          `PUT /v1/events/${kind}/{eventid}/addOffers`,
          `GET /v1/events/${kind}/{eventid}/addOffers`,
        ]) {
          assert.ok(all.includes(op), op);
        }
      }
      const create = doc.paths['/v1/events/ilt']?.post as unknown as {
        requestBody: {
          content: { 'application/json': { schema: { properties: Record<string, { description?: string }> } } };
        };
      };
      const props = create.requestBody.content['application/json'].schema.properties;
      assert.match(props.registrationDeadline?.description ?? '', /Hours before the event/);
      assert.match(props.venueSeats?.description ?? '', /required with venue/);
      const extensions = Object.values(doc.paths)
        .flatMap((v) => Object.values(v) as unknown as { tags?: string[] }[])
        .filter((o) => o.tags?.includes('Atrium extensions'));
      assert.equal(
        extensions.length,
        19,
        'register, update registration, cancel and calendar, for both kinds; GET /users/{eventid}/events; POST /tasks/{id}/complete; a webhook’s deliveries and redeliver; a signer’s sign and refuse; the outbox; an employee’s vault activation; a distribution project’s validate and cancel; a document generation campaign’s cancel',
      );
      assert.ok(doc.components.schemas.AcademyEventDetail, 'AcademyEventDetail schema');
      assert.deepEqual(ops.sort(), [
        'DELETE /api/v2/client/company_documents/trash',
        'DELETE /api/v2/client/company_documents/{id}',
        'DELETE /api/v2/client/datasets/{id}/values/{value_id}',
        'DELETE /api/v2/client/document_generation_templates/{id}',
        'DELETE /api/v2/client/document_generation_templates/{id}/versions/{number}',
        'DELETE /api/v2/client/document_generations/{id}',
        'DELETE /api/v2/client/employee_documents/trash',
        'DELETE /api/v2/client/employee_documents/{id}',
        'DELETE /api/v2/client/employees/{id}/electronic_vault_link',
        'DELETE /api/v2/client/kb_articles/{id}',
        'DELETE /api/v2/client/kb_categories/{id}',
        'DELETE /api/v2/client/process_templates/{process_template_id}/task_templates/{id}',
        'DELETE /api/v2/client/processes/{id}',
        'DELETE /api/v2/client/requests/{id}',
        'DELETE /api/v2/client/requests/{id}/attachments/{attachment_id}',
        'DELETE /api/v2/client/requests/{id}/files/{file_id}',
        'DELETE /api/v2/client/saml/identity_providers/{id}',
        'DELETE /api/v2/client/signature_processes/{id}',
        'DELETE /api/v2/client/signers/{id}',
        'DELETE /api/v2/client/tasks/{id}/files/{file_id}',
        'DELETE /api/v2/client/webhooks/{id}',
        'GET /api/v2/client/article_documents/{id}',
        'GET /api/v2/client/article_resources/{id}',
        'GET /api/v2/client/client',
        'GET /api/v2/client/company_document_types',
        'GET /api/v2/client/company_document_types/{id}',
        'GET /api/v2/client/company_documents',
        'GET /api/v2/client/company_documents/{id}',
        'GET /api/v2/client/company_documents/{id}/duplicate',
        'GET /api/v2/client/company_documents/{id}/file',
        'GET /api/v2/client/company_documents/{id}/preview',
        'GET /api/v2/client/company_documents/{id}/receipt',
        'GET /api/v2/client/company_folders',
        'GET /api/v2/client/company_folders/{id}',
        'GET /api/v2/client/custom_fields',
        'GET /api/v2/client/custom_fields/{id}',
        'GET /api/v2/client/custom_status',
        'GET /api/v2/client/custom_status/{id}',
        'GET /api/v2/client/dataset_imports',
        'GET /api/v2/client/dataset_imports/{id}',
        'GET /api/v2/client/dataset_imports/{id}/report',
        'GET /api/v2/client/dataset_imports/{id}/source',
        'GET /api/v2/client/datasets',
        'GET /api/v2/client/datasets/{id}',
        'GET /api/v2/client/datasets/{id}/values',
        'GET /api/v2/client/datasets/{id}/values/{value_id}',
        'GET /api/v2/client/distribution_projects',
        'GET /api/v2/client/distribution_projects/{id}',
        'GET /api/v2/client/distributions',
        'GET /api/v2/client/distributions/{id}',
        'GET /api/v2/client/distributions/{id}/report',
        'GET /api/v2/client/document_generation_campaigns',
        'GET /api/v2/client/document_generation_campaigns/{id}',
        'GET /api/v2/client/document_generation_campaigns/{id}/file',
        'GET /api/v2/client/document_generation_requests',
        'GET /api/v2/client/document_generation_requests/{id}/status',
        'GET /api/v2/client/document_generation_templates',
        'GET /api/v2/client/document_generation_templates/{id}',
        'GET /api/v2/client/document_generation_templates/{id}/fragment_usages',
        'GET /api/v2/client/document_generation_templates/{id}/versions',
        'GET /api/v2/client/document_generation_templates/{id}/versions/active/fields',
        'GET /api/v2/client/document_generation_templates/{id}/versions/active/file',
        'GET /api/v2/client/document_generation_templates/{id}/versions/active/preview',
        'GET /api/v2/client/document_generation_templates/{id}/versions/active/preview/{page}',
        'GET /api/v2/client/document_generation_templates/{id}/versions/latest/fields',
        'GET /api/v2/client/document_generation_templates/{id}/versions/latest/file',
        'GET /api/v2/client/document_generation_templates/{id}/versions/latest/preview',
        'GET /api/v2/client/document_generation_templates/{id}/versions/latest/preview/{page}',
        'GET /api/v2/client/document_generation_templates/{id}/versions/{number}',
        'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/doc_fields',
        'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/fields',
        'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/file',
        'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/preview',
        'GET /api/v2/client/document_generation_templates/{id}/versions/{number}/preview/{page}',
        'GET /api/v2/client/document_generations/syntax_migration/list',
        'GET /api/v2/client/document_generations/syntax_migration/status',
        'GET /api/v2/client/document_generations/{id}',
        'GET /api/v2/client/document_generations/{id}/file',
        'GET /api/v2/client/document_generations/{id}/preview',
        'GET /api/v2/client/document_generations/{id}/preview/{page}',
        'GET /api/v2/client/document_type_prediction_run/{id}',
        'GET /api/v2/client/electronic_vault_options',
        'GET /api/v2/client/electronic_vault_options/{id}',
        'GET /api/v2/client/employee_document_types',
        'GET /api/v2/client/employee_document_types/{id}',
        'GET /api/v2/client/employee_documents',
        'GET /api/v2/client/employee_documents/{id}',
        'GET /api/v2/client/employee_documents/{id}/duplicate',
        'GET /api/v2/client/employee_documents/{id}/file',
        'GET /api/v2/client/employee_documents/{id}/preview',
        'GET /api/v2/client/employee_documents/{id}/receipt',
        'GET /api/v2/client/employee_folders',
        'GET /api/v2/client/employee_folders/{id}',
        'GET /api/v2/client/employee_settings/{employee_id}/process_automation',
        'GET /api/v2/client/employee_settings/{employee_id}/process_automation/welcome_file',
        'GET /api/v2/client/employee_subscriptions',
        'GET /api/v2/client/employee_subscriptions/{id}',
        'GET /api/v2/client/employees',
        'GET /api/v2/client/employees/bulk/{request_id}',
        'GET /api/v2/client/employees/{id}',
        'GET /api/v2/client/events',
        'GET /api/v2/client/events/export',
        'GET /api/v2/client/events/filters/actions',
        'GET /api/v2/client/events/{id}',
        'GET /api/v2/client/file/scan/{scan_id}/status',
        'GET /api/v2/client/imports',
        'GET /api/v2/client/imports/{id}',
        'GET /api/v2/client/imports/{id}/errors_report',
        'GET /api/v2/client/imports/{id}/report',
        'GET /api/v2/client/imports/{id}/source',
        'GET /api/v2/client/inbox_items',
        'GET /api/v2/client/inbox_items/{id}',
        'GET /api/v2/client/kb_articles',
        'GET /api/v2/client/kb_articles/{id}',
        'GET /api/v2/client/kb_categories',
        'GET /api/v2/client/kb_categories/{id}',
        'GET /api/v2/client/kb_tags',
        'GET /api/v2/client/macros',
        'GET /api/v2/client/macros/{id}',
        'GET /api/v2/client/organization_groups',
        'GET /api/v2/client/organization_groups/{id}',
        'GET /api/v2/client/organizations',
        'GET /api/v2/client/organizations/{id}',
        'GET /api/v2/client/outbox',
        'GET /api/v2/client/process_pdf_templates',
        'GET /api/v2/client/process_pdf_templates/{id}',
        'GET /api/v2/client/process_templates',
        'GET /api/v2/client/process_templates/{id}',
        'GET /api/v2/client/process_templates/{process_template_id}/task_templates',
        'GET /api/v2/client/process_templates/{process_template_id}/task_templates/{id}',
        'GET /api/v2/client/processes',
        'GET /api/v2/client/processes/{id}',
        'GET /api/v2/client/redirection_urls',
        'GET /api/v2/client/request_forms',
        'GET /api/v2/client/request_forms/{id}',
        'GET /api/v2/client/requests',
        'GET /api/v2/client/requests/{id}',
        'GET /api/v2/client/requests/{id}/assignees',
        'GET /api/v2/client/requests/{id}/attachments/{attachment_id}/download',
        'GET /api/v2/client/requests/{id}/attachments/{attachment_id}/preview/{page}',
        'GET /api/v2/client/requests/{id}/comments',
        'GET /api/v2/client/requests/{id}/comments/{comment_id}/attachments/{attachment_id}',
        'GET /api/v2/client/requests/{id}/comments/{comment_id}/attachments/{attachment_id}/preview/{page}',
        'GET /api/v2/client/requests/{id}/files/{file_id}/download',
        'GET /api/v2/client/requests/{id}/files/{file_id}/preview/{page}',
        'GET /api/v2/client/requests/{id}/linked_requests',
        'GET /api/v2/client/requests/{id}/macros',
        'GET /api/v2/client/requests/{id}/pdf',
        'GET /api/v2/client/roles',
        'GET /api/v2/client/roles/{id}',
        'GET /api/v2/client/roles/{role_id}/permissions/audit',
        'GET /api/v2/client/roles/{role_id}/permissions/core',
        'GET /api/v2/client/roles/{role_id}/permissions/efm',
        'GET /api/v2/client/roles/{role_id}/permissions/webhook',
        'GET /api/v2/client/saml/identity_providers',
        'GET /api/v2/client/saml/identity_providers/{id}',
        'GET /api/v2/client/settings/case_management',
        'GET /api/v2/client/settings/core',
        'GET /api/v2/client/settings/knowledge_base',
        'GET /api/v2/client/settings/process_automation',
        'GET /api/v2/client/signature_processes',
        'GET /api/v2/client/signature_processes/{id}',
        'GET /api/v2/client/signature_processes/{id}/file',
        'GET /api/v2/client/signature_processes/{id}/preview',
        'GET /api/v2/client/signature_types',
        'GET /api/v2/client/signature_types/{id}',
        'GET /api/v2/client/signers',
        'GET /api/v2/client/signers/{id}',
        'GET /api/v2/client/tasks',
        'GET /api/v2/client/tasks/{id}',
        'GET /api/v2/client/tasks/{id}/files/{file_id}',
        'GET /api/v2/client/tasks/{id}/files/{file_id}/download',
        'GET /api/v2/client/tasks/{id}/workingfiles/{file_id}',
        'GET /api/v2/client/users',
        'GET /api/v2/client/users/bulk/{request_id}',
        'GET /api/v2/client/users/{id}',
        'GET /api/v2/client/webhooks',
        'GET /api/v2/client/webhooks/{id}',
        'GET /api/v2/client/webhooks/{id}/deliveries',
        'HEAD /api/v2/client/company_documents/{id}/file',
        'HEAD /api/v2/client/custom_status',
        'HEAD /api/v2/client/datasets/{id}/values/{value_id}',
        'HEAD /api/v2/client/document_generation_templates/{id}/versions/active/file',
        'HEAD /api/v2/client/document_generation_templates/{id}/versions/latest/file',
        'HEAD /api/v2/client/document_generation_templates/{id}/versions/{number}/file',
        'HEAD /api/v2/client/document_generations/{id}/file',
        'HEAD /api/v2/client/employee_documents/{id}/file',
        'HEAD /api/v2/client/macros',
        'HEAD /api/v2/client/organizations',
        'HEAD /api/v2/client/process_pdf_templates',
        'HEAD /api/v2/client/process_templates',
        'HEAD /api/v2/client/request_forms',
        'HEAD /api/v2/client/requests/{id}/attachments/{attachment_id}/preview',
        'HEAD /api/v2/client/requests/{id}/comments/{comment_id}/attachments/{attachment_id}/preview',
        'HEAD /api/v2/client/requests/{id}/files/{file_id}/preview',
        'HEAD /api/v2/client/saml/identity_providers/{id}',
        'HEAD /api/v2/client/users',
        'PATCH /api/v2/client/company_document_types/{id}',
        'PATCH /api/v2/client/company_documents/{id}',
        'PATCH /api/v2/client/custom_fields/{id}',
        'PATCH /api/v2/client/document_generation_templates/{id}',
        'PATCH /api/v2/client/document_generation_templates/{id}/versions/{number}',
        'PATCH /api/v2/client/electronic_vault_options/{id}',
        'PATCH /api/v2/client/employee_document_types/{id}',
        'PATCH /api/v2/client/employee_documents/{id}',
        'PATCH /api/v2/client/employees/bulk',
        'PATCH /api/v2/client/employees/{id}',
        'PATCH /api/v2/client/kb_articles/{id}',
        'PATCH /api/v2/client/kb_categories/{id}',
        'PATCH /api/v2/client/organization_groups/{id}',
        'PATCH /api/v2/client/organizations/{id}',
        'PATCH /api/v2/client/request_forms/{id}',
        'PATCH /api/v2/client/requests/{id}',
        'PATCH /api/v2/client/saml/identity_providers/{id}',
        'PATCH /api/v2/client/signature_processes/{id}',
        'PATCH /api/v2/client/signers/{id}',
        'PATCH /api/v2/client/tasks/{id}',
        'PATCH /api/v2/client/tasks/{id}/files/{file_id}',
        'PATCH /api/v2/client/users/bulk',
        'PATCH /api/v2/client/users/{id}',
        'POST /api/v2/client/company_documents',
        'POST /api/v2/client/dataset_imports',
        'POST /api/v2/client/distribution_projects',
        'POST /api/v2/client/distribution_projects/{id}/cancel',
        'POST /api/v2/client/distribution_projects/{id}/validate',
        'POST /api/v2/client/distributions',
        'POST /api/v2/client/document',
        'POST /api/v2/client/document/upload',
        'POST /api/v2/client/document/upload/async',
        'POST /api/v2/client/document_generation_campaigns',
        'POST /api/v2/client/document_generation_campaigns/csv',
        'POST /api/v2/client/document_generation_campaigns/{id}/cancel',
        'POST /api/v2/client/document_generation_templates',
        'POST /api/v2/client/document_generation_templates/{id}/file',
        'POST /api/v2/client/document_generations',
        'POST /api/v2/client/document_generations/async',
        'POST /api/v2/client/document_generations/syntax_migration/restart',
        'POST /api/v2/client/document_generations/syntax_migration/{id}',
        'POST /api/v2/client/document_generations/{id}/archive',
        'POST /api/v2/client/document_generations/{id}/email',
        'POST /api/v2/client/document_generations/{id}/vault',
        'POST /api/v2/client/document_type_prediction_run',
        'POST /api/v2/client/employee_documents',
        'POST /api/v2/client/employee_documents/search',
        'POST /api/v2/client/employees',
        'POST /api/v2/client/employees/bulk',
        'POST /api/v2/client/employees/search',
        'POST /api/v2/client/employees/{id}/electronic_vault_activate',
        'POST /api/v2/client/employees/{id}/electronic_vault_documents',
        'POST /api/v2/client/employees/{id}/electronic_vault_invite',
        'POST /api/v2/client/employees/{id}/portal_invite',
        'POST /api/v2/client/file/upload/async',
        'POST /api/v2/client/file/upload/sync',
        'POST /api/v2/client/imports',
        'POST /api/v2/client/inbox_items',
        'POST /api/v2/client/kb_articles/images',
        'POST /api/v2/client/platform_updates',
        'POST /api/v2/client/processes',
        'POST /api/v2/client/processes/{id}/post_process_action',
        'POST /api/v2/client/request_forms/{id}/change_group_category',
        'POST /api/v2/client/requests',
        'POST /api/v2/client/requests/{id}/comments',
        'POST /api/v2/client/requests/{id}/linked_requests',
        'POST /api/v2/client/requests/{id}/macros',
        'POST /api/v2/client/revoke_token',
        'POST /api/v2/client/saml/identity_providers',
        'POST /api/v2/client/signature_processes',
        'POST /api/v2/client/signature_processes/cancel',
        'POST /api/v2/client/signature_processes/{id}/archive',
        'POST /api/v2/client/signature_processes/{id}/send',
        'POST /api/v2/client/signers',
        'POST /api/v2/client/signers/remind',
        'POST /api/v2/client/signers/{id}/refuse',
        'POST /api/v2/client/signers/{id}/remind',
        'POST /api/v2/client/signers/{id}/sign',
        'POST /api/v2/client/tasks/{id}/complete',
        'POST /api/v2/client/tasks/{id}/files',
        'POST /api/v2/client/tasks/{id}/fill',
        'POST /api/v2/client/tokens',
        'POST /api/v2/client/uploads',
        'POST /api/v2/client/uploads/{id}/text_occurrences',
        'POST /api/v2/client/users',
        'POST /api/v2/client/users/bulk',
        'POST /api/v2/client/users/{id}/invite',
        'POST /api/v2/client/webhooks',
        'POST /api/v2/client/webhooks/{id}/deliveries/{delivery_id}/redeliver',
        'POST /api/v2/client/webhooks/{id}/refresh_signature_key',
        'POST /api/v2/client/webhooks/{id}/tests',
        'PUT /api/v2/client/company_document_types/{id}',
        'PUT /api/v2/client/company_documents/{id}',
        'PUT /api/v2/client/company_documents/{id}/expiration/update',
        'PUT /api/v2/client/company_documents/{id}/expire',
        'PUT /api/v2/client/company_documents/{id}/trash',
        'PUT /api/v2/client/company_documents/{id}/untrash',
        'PUT /api/v2/client/custom_fields/{id}',
        'PUT /api/v2/client/custom_status/{id}',
        'PUT /api/v2/client/datasets/{id}',
        'PUT /api/v2/client/datasets/{id}/values/{value_id}',
        'PUT /api/v2/client/document_generation_templates/{id}',
        'PUT /api/v2/client/document_generation_templates/{id}/versions/{number}',
        'PUT /api/v2/client/document_generation_templates/{id}/versions/{number}/doc_fields',
        'PUT /api/v2/client/document_generations/syntax_migration/status',
        'PUT /api/v2/client/employee_document_types/{id}',
        'PUT /api/v2/client/employee_documents/{id}',
        'PUT /api/v2/client/employee_documents/{id}/expiration/update',
        'PUT /api/v2/client/employee_documents/{id}/expire',
        'PUT /api/v2/client/employee_documents/{id}/trash',
        'PUT /api/v2/client/employee_documents/{id}/untrash',
        'PUT /api/v2/client/employees/bulk',
        'PUT /api/v2/client/employees/by_external_id/{external_id}',
        'PUT /api/v2/client/employees/{id}',
        'PUT /api/v2/client/kb_articles/{id}',
        'PUT /api/v2/client/kb_categories/{id}',
        'PUT /api/v2/client/macros/{id}',
        'PUT /api/v2/client/organization_groups/{id}',
        'PUT /api/v2/client/organizations/{id}',
        'PUT /api/v2/client/process_pdf_templates/{id}',
        'PUT /api/v2/client/process_templates/{id}',
        'PUT /api/v2/client/process_templates/{process_template_id}/task_templates/{id}',
        'PUT /api/v2/client/processes/{id}/publish',
        'PUT /api/v2/client/request_forms/{id}',
        'PUT /api/v2/client/roles/{id}',
        'PUT /api/v2/client/roles/{role_id}/permissions/audit',
        'PUT /api/v2/client/roles/{role_id}/permissions/core',
        'PUT /api/v2/client/roles/{role_id}/permissions/efm',
        'PUT /api/v2/client/roles/{role_id}/permissions/webhook',
        'PUT /api/v2/client/saml/identity_providers/{id}',
        'PUT /api/v2/client/signature_processes/{id}',
        'PUT /api/v2/client/signers/{id}',
        'PUT /api/v2/client/users/bulk',
        'PUT /api/v2/client/users/{id}',
        'PUT /api/v2/client/webhooks/{id}',
      ]);
      const list = doc.paths['/api/v2/client/organizations']?.get;
      assert.deepEqual(list?.parameters?.map((p) => p.name).sort(), [
        'child_organization_id',
        'cursor',
        'organization_group_id',
        'parent_organization_id',
        'per_page',
        'q',
        'recursive',
      ]);
      assert.ok(doc.components.schemas.OrganizationFull, 'OrganizationFull schema');
      assert.ok(doc.components.schemas.HrError, 'HrError schema');
      assert.ok(doc.components.securitySchemes.bearerAuth, 'bearerAuth scheme');
      assert.ok(doc.paths['/api/v2/client/organizations/{id}']?.put?.responses['201'], 'PUT documents 201');
      assert.ok(doc.paths['/api/v2/client/organizations/{id}']?.put?.responses['422'], 'PUT documents 422');
    });

    it('GET /docs serves the reference page and its assets from the installed packages', async () => {
      for (const [from, to] of [
        ['/docs', 'docs/static/index.html'],
        ['/docs/', 'static/index.html'],
      ] as const) {
        const hop = await fetch(`${server.url}${from}`, { redirect: 'manual' });
        assert.equal(hop.status, 302, from);
        assert.equal(hop.headers.get('location'), to, `${from}: a relative redirect, so a path prefix keeps working`);
      }
      const page = await fetch(`${server.url}/docs`);
      assert.equal(page.status, 200);
      assert.equal(new URL(page.url).pathname, '/docs/static/index.html');
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/, 'no inline or foreign script');
      const html = await page.text();
      assert.match(html, /swagger-ui/);
      assert.doesNotMatch(html, /(src|href)="https?:/, 'no asset comes from another host');
      // Atrium's, not Swagger's: the title, the icon (a data: URL), no top bar (the standalone preset).
      assert.match(html, /<title>Atrium API reference<\/title>/);
      assert.match(html, /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/);
      assert.doesNotMatch(html, /standalone-preset|favicon-\d/);
      const types: Record<string, RegExp> = {
        'swagger-ui-bundle.js': /^application\/javascript/,
        'swagger-ui.css': /^text\/css/,
        'index.css': /^text\/css/,
        'swagger-initializer.js': /^application\/javascript/,
      };
      for (const [asset, type] of Object.entries(types)) {
        const res = await fetch(`${server.url}/docs/static/${asset}`);
        assert.equal(res.status, 200, asset);
        assert.match(res.headers.get('content-type') ?? '', type, asset);
        assert.ok((await res.arrayBuffer()).byteLength > 100, 'asset is not empty');
      }
      const init = await (await fetch(`${server.url}/docs/static/swagger-initializer.js`)).text();
      assert.match(init, /url: '\.\.\/\.\.\/openapi\.json'/, 'the document of this server');
      assert.match(init, /validatorUrl: null/, 'no call to validator.swagger.io');
      assert.match(init, /layout: 'BaseLayout'/, 'no top bar with the Swagger logo');
      assert.doesNotMatch(init, /Standalone/);
      // Only the listed files of swagger-ui-dist: not its package.json, not a path out of the folder.
      for (const other of [
        'package.json',
        'README.md',
        '..%2Fpackage.json',
        'oauth2-redirect.html',
        'swagger-ui-standalone-preset.js',
        'favicon-32x32.png',
      ]) {
        assert.equal((await fetch(`${server.url}/docs/static/${other}`)).status, 404, other);
      }
      const json = (await (await fetch(`${server.url}/docs/json`)).json()) as { openapi: string };
      assert.equal(json.openapi, '3.1.0');
      const yaml = await fetch(`${server.url}/docs/yaml`);
      assert.match(yaml.headers.get('content-type') ?? '', /yaml/);
      assert.match(await yaml.text(), /^openapi: 3\.1\.0/m);
    });

    it('the Academy API has no CORS by default and answers unknown paths with a JSON 404', async () => {
      const res = await fetch(`${server.url}/v1/nothing`, { headers: { origin: 'https://app.example' } });
      assert.equal(res.status, 404);
      assert.equal(res.headers.get('access-control-allow-origin'), null);
      const body = (await res.json()) as { status: number; message: string };
      assert.equal(body.status, 404);
    });

    it('framework errors get the HR error body and X-Request-Id under /api/v2/client', async () => {
      const hr = await hrCaller(server);
      const cases: [string, number, string][] = [
        ['/api/v2/client/organizations/%ZZ', 400, 'invalid_request'],
        ['/api/v2/client/organizations/%C3%28', 400, 'invalid_request'],
        ['/api/v2/client/nothing/%ZZ?per_page=1', 400, 'invalid_request'],
        ['/api/v2/client/tokens/%ZZ', 400, 'invalid_request'],
        [`/api/v2/client/organizations/${'x'.repeat(1001)}`, 404, 'not_found'],
        [`/api/v2/client/organizations/${'x'.repeat(1001)}?per_page=1`, 404, 'not_found'],
      ];
      for (const [path, status, code] of cases) {
        for (const headers of [{}, { authorization: `Bearer ${hr.token}` }] as Record<string, string>[]) {
          const res = await fetch(`${server.url}${path}`, { headers: { ...headers, 'x-request-id': 'fw-hr-1' } });
          const text = await res.text();
          assert.equal(res.status, status, `${path.slice(0, 60)}: ${text}`);
          assert.equal(res.headers.get('x-request-id'), 'fw-hr-1', path.slice(0, 60));
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
          const body = JSON.parse(text) as Record<string, unknown>;
          assert.deepEqual(Object.keys(body).sort(), ['code', 'message'], text);
          assert.equal(body.code, code, path.slice(0, 60));
          assert.doesNotMatch(text, /FST_ERR|statusCode/, 'no framework body');
        }
      }
      const made = await fetch(`${server.url}/api/v2/client/organizations/%ZZ`);
      assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      await made.body?.cancel();
      // The real URL, not the rerouted one, reaches the access log.
      const lines = server.logs.map((l) => JSON.parse(l) as { msg: string; reqId?: string; req?: { url: string } });
      const logged = lines.filter((l) => l.msg === 'request completed' && l.reqId === 'fw-hr-1').map((l) => l.req?.url);
      assert.ok(logged.includes('/api/v2/client/organizations/%ZZ'), `logged: ${logged.join(' ').slice(0, 300)}`);
      // A long but acceptable id is still a plain 404, and a normal call still works.
      assert.equal((await hr.call('GET', `/organizations/${'x'.repeat(1000)}`)).status, 404);
      assert.equal((await hr.call('GET', '/organizations')).status, 200);
    });

    it('framework errors get the Academy error body and X-Request-Id under /v1', async () => {
      const cases: [string, number, string][] = [
        ['/v1/events/ilt/%ZZ', 400, 'bad_request'],
        ['/v1/events/ilt/%ZZ?acadId=1&apikey=x', 400, 'bad_request'],
        [`/v1/events/ilt/${'9'.repeat(1001)}`, 404, 'not_found'],
      ];
      for (const [path, status, code] of cases) {
        const res = await fetch(`${server.url}${path}`, { headers: { 'x-request-id': 'fw-v1-1' } });
        const text = await res.text();
        assert.equal(res.status, status, `${path.slice(0, 60)}: ${text}`);
        assert.equal(res.headers.get('x-request-id'), 'fw-v1-1');
        const body = JSON.parse(text) as Record<string, unknown>;
        assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status'], text);
        assert.equal(body.status, status);
        assert.equal(body.code, code);
      }
      // Outside both APIs: a plain body, still with the request id.
      const root = await fetch(`${server.url}/%ZZ`, { headers: { 'x-request-id': 'fw-root-1' } });
      assert.equal(root.status, 400);
      assert.equal(root.headers.get('x-request-id'), 'fw-root-1');
      assert.equal(((await root.json()) as { statusCode: number }).statusCode, 400);
    });

    it('logs one JSON line per request with credentials redacted or stripped', async () => {
      const creds = await createCredentials(server);
      const token = await getToken(server, creds);
      const secretKey = 'academy-key-that-must-not-leak';
      await fetch(`${server.url}/api/v2/client/organizations?access_token=${token}&per_page=3`);
      await fetch(`${server.url}/v1/events/ilt?apikey=${secretKey}&acadId=7`, { headers: { 'x-api-key': secretKey } });
      await fetch(`${server.url}/api/v2/client/organizations`, { headers: { authorization: `Bearer ${token}` } });
      await fetch(`${server.url}/api/v2/client/organizations`, { headers: { access_token: token } });
      const text = server.logs.join('');
      for (const secret of [token, creds.application_secret, secretKey, token.split('.')[2] as string]) {
        assert.ok(!text.includes(secret), 'a secret reached the logs');
      }
      const lines = server.logs.map(
        (l) => JSON.parse(l) as { msg: string; req?: { url: string; headers?: Record<string, string> } },
      );
      const urls = lines.filter((l) => l.msg === 'request completed').map((l) => l.req?.url);
      assert.ok(urls.includes('/api/v2/client/organizations?per_page=3'), 'HR URL logged without the token');
      assert.ok(urls.includes('/v1/events/ilt?acadId=7'), 'academy URL logged without the key');
      const withAuth = lines.find((l) => l.req?.headers?.authorization);
      assert.equal(withAuth?.req?.headers?.authorization, '[redacted]');
    });
  });
}

for (const dialect of dialects()) {
  describe(`closing (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server.close());

    it('finishes in-flight requests and answers new ones 503 in the error body of each API, with X-Request-Id', async () => {
      const hr = await hrCaller(server);
      const http = server.app.server.server;
      let received = 0;
      http.on('request', () => {
        received += 1;
      });
      // Two uploads, each on its own connection, half sent: in flight when the server starts closing.
      const upload = (name: string) =>
        [
          'POST /api/v2/client/uploads HTTP/1.1',
          'Host: atrium.test',
          `Authorization: Bearer ${hr.token}`,
          'Content-Type: application/octet-stream',
          `Content-Disposition: attachment; filename="${name}"`,
          'Content-Length: 10',
          '',
          'hello',
        ].join('\r\n');
      const a = connect(server.url);
      const b = connect(server.url);
      // A third, with nothing after it: the client would keep the connection open; the server must not wait for it.
      const c = connect(server.url);
      a.socket.write(upload('a.bin'));
      b.socket.write(upload('b.bin'));
      c.socket.write(upload('c.bin'));
      for (let i = 0; received < 3 && i < 1000; i++) await sleep(10);
      assert.equal(received, 3, 'the three uploads reached the server');
      const closing = server.app.server.close();
      for (let i = 0; http.listening && i < 1000; i++) await sleep(5);
      assert.equal(http.listening, false, 'the server stopped accepting connections');
      // The rest of each upload, then a new request pipelined behind it on the same connection.
      const next = (path: string, id: string) =>
        `GET ${path} HTTP/1.1\r\nHost: atrium.test\r\nX-Request-Id: ${id}\r\n\r\n`;
      a.socket.write(`world${next('/api/v2/client/organizations', 'closing-hr')}`);
      b.socket.write(`world${next('/v1/events/ilt?acadId=1&apikey=x', 'closing-v1')}`);
      c.socket.write('world');
      const [hrSide, v1Side] = [parseResponses(await a.closed), parseResponses(await b.closed)];
      const ended = await Promise.race([c.closed, sleep(20_000).then(() => undefined)]);
      assert.ok(ended, 'the server closes a keep-alive connection once its last response is done');
      const kept = parseResponses(ended);
      assert.deepEqual(
        kept.map((r) => r.status),
        [201],
        'the upload on it completed',
      );
      const drained = await Promise.race([closing.then(() => 'closed'), sleep(20_000).then(() => 'still open')]);
      assert.equal(drained, 'closed', 'close() does not wait for idle keep-alive connections');
      for (const [side, name] of [
        [hrSide, 'a.bin'],
        [v1Side, 'b.bin'],
      ] as const) {
        assert.equal(side.length, 2, JSON.stringify(side));
        assert.equal(side[0]?.status, 201, side[0]?.body);
        assert.equal((JSON.parse(side[0]?.body ?? '{}') as { filename: string }).filename, name);
        assert.equal(side[1]?.status, 503, side[1]?.body);
        assert.equal(side[1]?.headers.connection, 'close');
        assert.match(side[1]?.headers['content-type'] ?? '', /^application\/json/);
      }
      assert.equal(hrSide[1]?.headers['x-request-id'], 'closing-hr');
      assert.deepEqual(JSON.parse(hrSide[1]?.body ?? '{}'), {
        code: 'service_unavailable',
        message: 'The server is shutting down; retry the request.',
      });
      assert.equal(v1Side[1]?.headers['x-request-id'], 'closing-v1');
      const academy = JSON.parse(v1Side[1]?.body ?? '{}') as { status: number; code: string; message: string };
      assert.equal(academy.status, 503);
      assert.equal(academy.code, 'service_unavailable');
      const errors = server.logs.filter((l) => (JSON.parse(l) as { level: number }).level >= 50);
      assert.deepEqual(errors, [], 'a 503 while closing is not logged as an unexpected error');
    });
  });
}

describe('configuration bounds', () => {
  it('ATRIUM_AUTH_REFRESH_MS is at most 900, so revocations reach every process within one second', () => {
    assert.equal(loadConfig({}).authRefreshMs, 500);
    assert.equal(loadConfig({ ATRIUM_AUTH_REFRESH_MS: '900' }).authRefreshMs, 900);
    assert.throws(() => loadConfig({ ATRIUM_AUTH_REFRESH_MS: '901' }), ConfigError);
    assert.throws(() => loadConfig({ ATRIUM_AUTH_REFRESH_MS: '1000' }), ConfigError);
    assert.throws(() => loadConfig({ ATRIUM_AUTH_REFRESH_MS: '49' }), ConfigError);
  });
});

describe('CORS on /v1 when configured', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer('sqlite', { ATRIUM_CORS_ORIGINS: 'https://app.example' });
  });
  after(() => server.close());

  it('allows the configured origin on /v1 and still none on /api/v2/client', async () => {
    const v1 = await fetch(`${server.url}/v1/anything`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(v1.headers.get('access-control-allow-origin'), 'https://app.example');
    const hr = await hrCaller(server);
    const res = await hr.call('GET', '/organizations', undefined, { origin: 'https://app.example' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});
