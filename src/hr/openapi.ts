import type { ApiDocumentation, OperationContext } from '../platform/http/openapi.js';
import { noSuch } from '../platform/http/openapi.js';
import { HR_EXAMPLES } from './openapi-examples.js';

/**
 * The HR API's part of the OpenAPI document beyond its route schemas (platform/http/openapi.ts): each operation's SDK
 * method (its operationId is `hr_` and the method's path with underscores: `hr_requests_comments_list`), the nouns of
 * its collections, and the descriptions of its responses that do not follow from the shape of the operation. A new
 * route gets a line in `HR_OPERATIONS`; test/platform/openapi-document.test.ts fails until it has one.
 */
export const HR_OPERATIONS: Readonly<Record<string, string>> = {
  'POST /tokens': 'getAccessToken',
  'POST /revoke_token': 'revokeToken',
  'HEAD /organizations': 'organizations.count',
  'GET /organizations': 'organizations.list',
  'GET /organizations/{id}': 'organizations.retrieve',
  'PUT /organizations/{id}': 'organizations.upsert',
  'PATCH /organizations/{id}': 'organizations.update',
  'GET /organization_groups': 'organizationGroups.list',
  'GET /organization_groups/{id}': 'organizationGroups.retrieve',
  'PUT /organization_groups/{id}': 'organizationGroups.upsert',
  'PATCH /organization_groups/{id}': 'organizationGroups.update',
  'POST /uploads': 'uploads.create',
  'POST /document': 'uploads.createDocumentFile',
  'POST /uploads/{id}/text_occurrences': 'uploads.textOccurrences',
  'POST /document/upload': 'scans.uploadDocument',
  'POST /document/upload/async': 'scans.uploadDocumentAsync',
  'POST /file/upload/sync': 'scans.uploadSync',
  'POST /file/upload/async': 'scans.uploadAsync',
  'GET /file/scan/{scan_id}/status': 'scans.status',
  'GET /redirection_urls': 'redirectionUrls.retrieve',
  'POST /document_type_prediction_run': 'documentTypePredictionRuns.create',
  'GET /document_type_prediction_run/{id}': 'documentTypePredictionRuns.retrieve',
  'GET /roles': 'roles.list',
  'GET /roles/{id}': 'roles.retrieve',
  'PUT /roles/{id}': 'roles.upsert',
  'GET /roles/{role_id}/permissions/core': 'roles.permissions.retrieve.core',
  'PUT /roles/{role_id}/permissions/core': 'roles.permissions.update.core',
  'GET /roles/{role_id}/permissions/efm': 'roles.permissions.retrieve.efm',
  'PUT /roles/{role_id}/permissions/efm': 'roles.permissions.update.efm',
  'GET /roles/{role_id}/permissions/audit': 'roles.permissions.retrieve.audit',
  'PUT /roles/{role_id}/permissions/audit': 'roles.permissions.update.audit',
  'GET /roles/{role_id}/permissions/webhook': 'roles.permissions.retrieve.webhook',
  'PUT /roles/{role_id}/permissions/webhook': 'roles.permissions.update.webhook',
  'HEAD /users': 'users.count',
  'GET /users': 'users.list',
  'POST /users': 'users.create',
  'GET /users/{id}': 'users.retrieve',
  'PUT /users/{id}': 'users.upsert',
  'PATCH /users/{id}': 'users.update',
  'POST /users/bulk': 'users.bulk.create',
  'PUT /users/bulk': 'users.bulk.upsert',
  'PATCH /users/bulk': 'users.bulk.update',
  'GET /users/bulk/{request_id}': 'users.bulk.retrieve',
  'POST /users/{id}/invite': 'users.invite',
  'GET /custom_fields': 'customFields.list',
  'GET /custom_fields/{id}': 'customFields.retrieve',
  'PUT /custom_fields/{id}': 'customFields.upsert',
  'PATCH /custom_fields/{id}': 'customFields.update',
  'POST /employees': 'employees.create',
  'GET /employees': 'employees.list',
  'POST /employees/search': 'employees.search',
  'GET /employees/{id}': 'employees.retrieve',
  'PUT /employees/{id}': 'employees.upsert',
  'PATCH /employees/{id}': 'employees.update',
  'PUT /employees/by_external_id/{external_id}': 'employees.upsertByExternalId',
  'GET /datasets': 'datasets.list',
  'GET /datasets/{id}': 'datasets.retrieve',
  'PUT /datasets/{id}': 'datasets.upsert',
  'GET /datasets/{id}/values': 'datasets.values.list',
  'HEAD /datasets/{id}/values/{value_id}': 'datasets.values.exists',
  'GET /datasets/{id}/values/{value_id}': 'datasets.values.retrieve',
  'PUT /datasets/{id}/values/{value_id}': 'datasets.values.upsert',
  'DELETE /datasets/{id}/values/{value_id}': 'datasets.values.del',
  'POST /dataset_imports': 'datasetImports.create',
  'GET /dataset_imports': 'datasetImports.list',
  'GET /dataset_imports/{id}': 'datasetImports.retrieve',
  'GET /dataset_imports/{id}/source': 'datasetImports.source',
  'GET /dataset_imports/{id}/report': 'datasetImports.report',
  'POST /imports': 'imports.create',
  'GET /imports': 'imports.list',
  'GET /imports/{id}': 'imports.retrieve',
  'GET /imports/{id}/source': 'imports.source',
  'GET /imports/{id}/report': 'imports.report',
  'GET /imports/{id}/errors_report': 'imports.errorsReport',
  'POST /employees/bulk': 'employees.bulk.create',
  'PUT /employees/bulk': 'employees.bulk.upsert',
  'PATCH /employees/bulk': 'employees.bulk.update',
  'GET /employees/bulk/{request_id}': 'employees.bulk.retrieve',
  'GET /employee_folders': 'employeeFolders.list',
  'GET /employee_folders/{id}': 'employeeFolders.retrieve',
  'GET /employee_document_types': 'employeeDocumentTypes.list',
  'GET /employee_document_types/{id}': 'employeeDocumentTypes.retrieve',
  'PUT /employee_document_types/{id}': 'employeeDocumentTypes.upsert',
  'PATCH /employee_document_types/{id}': 'employeeDocumentTypes.update',
  'GET /employee_documents': 'employeeDocuments.list',
  'POST /employee_documents': 'employeeDocuments.create',
  'POST /employee_documents/search': 'employeeDocuments.search',
  'DELETE /employee_documents/trash': 'employeeDocuments.emptyTrash',
  'GET /employee_documents/{id}': 'employeeDocuments.retrieve',
  'PUT /employee_documents/{id}': 'employeeDocuments.upsert',
  'PATCH /employee_documents/{id}': 'employeeDocuments.update',
  'DELETE /employee_documents/{id}': 'employeeDocuments.del',
  'PUT /employee_documents/{id}/trash': 'employeeDocuments.trash',
  'PUT /employee_documents/{id}/untrash': 'employeeDocuments.untrash',
  'PUT /employee_documents/{id}/expire': 'employeeDocuments.expire',
  'PUT /employee_documents/{id}/expiration/update': 'employeeDocuments.updateExpiration',
  'HEAD /employee_documents/{id}/file': 'employeeDocuments.fileInfo',
  'GET /employee_documents/{id}/file': 'employeeDocuments.download',
  'GET /employee_documents/{id}/preview': 'employeeDocuments.preview',
  'GET /employee_documents/{id}/duplicate': 'employeeDocuments.duplicate',
  'GET /employee_documents/{id}/receipt': 'employeeDocuments.receipt',
  'GET /company_folders': 'companyFolders.list',
  'GET /company_folders/{id}': 'companyFolders.retrieve',
  'GET /company_document_types': 'companyDocumentTypes.list',
  'GET /company_document_types/{id}': 'companyDocumentTypes.retrieve',
  'PUT /company_document_types/{id}': 'companyDocumentTypes.upsert',
  'PATCH /company_document_types/{id}': 'companyDocumentTypes.update',
  'GET /company_documents': 'companyDocuments.list',
  'POST /company_documents': 'companyDocuments.create',
  'DELETE /company_documents/trash': 'companyDocuments.emptyTrash',
  'GET /company_documents/{id}': 'companyDocuments.retrieve',
  'PUT /company_documents/{id}': 'companyDocuments.upsert',
  'PATCH /company_documents/{id}': 'companyDocuments.update',
  'DELETE /company_documents/{id}': 'companyDocuments.del',
  'PUT /company_documents/{id}/trash': 'companyDocuments.trash',
  'PUT /company_documents/{id}/untrash': 'companyDocuments.untrash',
  'PUT /company_documents/{id}/expire': 'companyDocuments.expire',
  'PUT /company_documents/{id}/expiration/update': 'companyDocuments.updateExpiration',
  'HEAD /company_documents/{id}/file': 'companyDocuments.fileInfo',
  'GET /company_documents/{id}/file': 'companyDocuments.download',
  'GET /company_documents/{id}/preview': 'companyDocuments.preview',
  'GET /company_documents/{id}/duplicate': 'companyDocuments.duplicate',
  'GET /company_documents/{id}/receipt': 'companyDocuments.receipt',
  'GET /kb_categories': 'kbCategories.list',
  'GET /kb_categories/{id}': 'kbCategories.retrieve',
  'PUT /kb_categories/{id}': 'kbCategories.upsert',
  'PATCH /kb_categories/{id}': 'kbCategories.update',
  'DELETE /kb_categories/{id}': 'kbCategories.del',
  'GET /kb_articles': 'kbArticles.list',
  'GET /kb_articles/{id}': 'kbArticles.retrieve',
  'PUT /kb_articles/{id}': 'kbArticles.upsert',
  'PATCH /kb_articles/{id}': 'kbArticles.update',
  'DELETE /kb_articles/{id}': 'kbArticles.del',
  'GET /kb_tags': 'kbTags.list',
  'POST /kb_articles/images': 'kbArticles.images.upload',
  'GET /article_resources/{id}': 'articleResources.download',
  'GET /article_documents/{id}': 'articleDocuments.download',
  'HEAD /custom_status': 'customStatuses.count',
  'GET /custom_status': 'customStatuses.list',
  'GET /custom_status/{id}': 'customStatuses.retrieve',
  'PUT /custom_status/{id}': 'customStatuses.upsert',
  'HEAD /macros': 'macros.count',
  'GET /macros': 'macros.list',
  'GET /macros/{id}': 'macros.retrieve',
  'PUT /macros/{id}': 'macros.upsert',
  'HEAD /request_forms': 'requestForms.count',
  'GET /request_forms': 'requestForms.list',
  'GET /request_forms/{id}': 'requestForms.retrieve',
  'PUT /request_forms/{id}': 'requestForms.upsert',
  'PATCH /request_forms/{id}': 'requestForms.update',
  'POST /request_forms/{id}/change_group_category': 'requestForms.changeGroupCategory',
  'GET /requests': 'requests.list',
  'POST /requests': 'requests.create',
  'GET /requests/{id}': 'requests.retrieve',
  'PATCH /requests/{id}': 'requests.update',
  'DELETE /requests/{id}': 'requests.del',
  'GET /requests/{id}/pdf': 'requests.pdf',
  'GET /requests/{id}/comments': 'requests.comments.list',
  'POST /requests/{id}/comments': 'requests.comments.create',
  'GET /requests/{id}/comments/{comment_id}/attachments/{attachment_id}': 'requests.comments.downloadAttachment',
  'HEAD /requests/{id}/comments/{comment_id}/attachments/{attachment_id}/preview':
    'requests.comments.attachmentPageCount',
  'GET /requests/{id}/comments/{comment_id}/attachments/{attachment_id}/preview/{page}':
    'requests.comments.previewAttachment',
  'GET /requests/{id}/attachments/{attachment_id}/download': 'requests.attachments.download',
  'HEAD /requests/{id}/attachments/{attachment_id}/preview': 'requests.attachments.pageCount',
  'GET /requests/{id}/attachments/{attachment_id}/preview/{page}': 'requests.attachments.preview',
  'DELETE /requests/{id}/attachments/{attachment_id}': 'requests.attachments.del',
  'GET /requests/{id}/files/{file_id}/download': 'requests.files.download',
  'HEAD /requests/{id}/files/{file_id}/preview': 'requests.files.pageCount',
  'GET /requests/{id}/files/{file_id}/preview/{page}': 'requests.files.preview',
  'DELETE /requests/{id}/files/{file_id}': 'requests.files.del',
  'GET /requests/{id}/assignees': 'requests.assignees.list',
  'GET /requests/{id}/linked_requests': 'requests.linked.list',
  'POST /requests/{id}/linked_requests': 'requests.linked.create',
  'GET /requests/{id}/macros': 'requests.macros.list',
  'POST /requests/{id}/macros': 'requests.macros.run',
  'HEAD /process_templates': 'processTemplates.count',
  'GET /process_templates': 'processTemplates.list',
  'GET /process_templates/{id}': 'processTemplates.retrieve',
  'PUT /process_templates/{id}': 'processTemplates.upsert',
  'GET /process_templates/{process_template_id}/task_templates': 'processTemplates.taskTemplates.list',
  'GET /process_templates/{process_template_id}/task_templates/{id}': 'processTemplates.taskTemplates.retrieve',
  'PUT /process_templates/{process_template_id}/task_templates/{id}': 'processTemplates.taskTemplates.upsert',
  'DELETE /process_templates/{process_template_id}/task_templates/{id}': 'processTemplates.taskTemplates.del',
  'POST /processes': 'processes.create',
  'GET /processes': 'processes.list',
  'GET /processes/{id}': 'processes.retrieve',
  'DELETE /processes/{id}': 'processes.del',
  'PUT /processes/{id}/publish': 'processes.publish',
  'POST /processes/{id}/post_process_action': 'processes.postProcessAction',
  'HEAD /process_pdf_templates': 'processPdfTemplates.count',
  'GET /process_pdf_templates': 'processPdfTemplates.list',
  'GET /process_pdf_templates/{id}': 'processPdfTemplates.retrieve',
  'PUT /process_pdf_templates/{id}': 'processPdfTemplates.upsert',
  'GET /employee_settings/{employee_id}/process_automation': 'employeeSettings.processAutomation',
  'GET /employee_settings/{employee_id}/process_automation/welcome_file': 'employeeSettings.welcomeFile',
  'GET /tasks': 'tasks.list',
  'GET /tasks/{id}': 'tasks.retrieve',
  'PATCH /tasks/{id}': 'tasks.update',
  'POST /tasks/{id}/fill': 'tasks.fill',
  'POST /tasks/{id}/complete': 'tasks.complete',
  'POST /tasks/{id}/files': 'tasks.files.create',
  'GET /tasks/{id}/files/{file_id}': 'tasks.files.retrieve',
  'PATCH /tasks/{id}/files/{file_id}': 'tasks.files.update',
  'DELETE /tasks/{id}/files/{file_id}': 'tasks.files.del',
  'GET /tasks/{id}/files/{file_id}/download': 'tasks.files.download',
  'GET /tasks/{id}/workingfiles/{file_id}': 'tasks.workingFiles.download',
  'GET /events': 'events.list',
  'GET /events/export': 'events.export',
  'GET /events/filters/actions': 'events.actions',
  'GET /events/{id}': 'events.retrieve',
  'GET /signature_processes': 'signatureProcesses.list',
  'POST /signature_processes': 'signatureProcesses.create',
  'POST /signature_processes/cancel': 'signatureProcesses.cancel',
  'GET /signature_processes/{id}': 'signatureProcesses.retrieve',
  'PUT /signature_processes/{id}': 'signatureProcesses.upsert',
  'PATCH /signature_processes/{id}': 'signatureProcesses.update',
  'DELETE /signature_processes/{id}': 'signatureProcesses.del',
  'GET /signature_processes/{id}/file': 'signatureProcesses.download',
  'GET /signature_processes/{id}/preview': 'signatureProcesses.preview',
  'POST /signature_processes/{id}/archive': 'signatureProcesses.archive',
  'POST /signature_processes/{id}/send': 'signatureProcesses.send',
  'GET /signature_types': 'signatureTypes.list',
  'GET /signature_types/{id}': 'signatureTypes.retrieve',
  'GET /signers': 'signers.list',
  'POST /signers': 'signers.create',
  'POST /signers/remind': 'signers.remindMany',
  'GET /signers/{id}': 'signers.retrieve',
  'PUT /signers/{id}': 'signers.upsert',
  'PATCH /signers/{id}': 'signers.update',
  'DELETE /signers/{id}': 'signers.del',
  'POST /signers/{id}/remind': 'signers.remind',
  'POST /signers/{id}/sign': 'signers.sign',
  'POST /signers/{id}/refuse': 'signers.refuse',
  'GET /outbox': 'outbox.list',
  'GET /inbox_items': 'inboxItems.list',
  'POST /inbox_items': 'inboxItems.create',
  'GET /inbox_items/{id}': 'inboxItems.retrieve',
  'GET /electronic_vault_options': 'electronicVaults.list',
  'GET /electronic_vault_options/{id}': 'electronicVaults.retrieve',
  'PATCH /electronic_vault_options/{id}': 'electronicVaults.update',
  'POST /employees/{id}/electronic_vault_invite': 'electronicVaults.invite',
  'POST /employees/{id}/electronic_vault_activate': 'electronicVaults.activate',
  'DELETE /employees/{id}/electronic_vault_link': 'electronicVaults.unlink',
  'POST /employees/{id}/electronic_vault_documents': 'electronicVaults.addDocument',
  'POST /employees/{id}/portal_invite': 'employees.portalInvite',
  'GET /employee_subscriptions': 'employeeSubscriptions.list',
  'GET /employee_subscriptions/{id}': 'employeeSubscriptions.retrieve',
  'GET /distribution_projects': 'distributionProjects.list',
  'POST /distribution_projects': 'distributionProjects.create',
  'GET /distribution_projects/{id}': 'distributionProjects.retrieve',
  'POST /distribution_projects/{id}/validate': 'distributionProjects.validate',
  'POST /distribution_projects/{id}/cancel': 'distributionProjects.cancel',
  'GET /distributions': 'distributions.list',
  'POST /distributions': 'distributions.create',
  'GET /distributions/{id}': 'distributions.retrieve',
  'GET /distributions/{id}/report': 'distributions.report',
  'GET /document_generation_templates': 'documentGenerationTemplates.list',
  'POST /document_generation_templates': 'documentGenerationTemplates.create',
  'GET /document_generation_templates/{id}': 'documentGenerationTemplates.retrieve',
  'PUT /document_generation_templates/{id}': 'documentGenerationTemplates.upsert',
  'PATCH /document_generation_templates/{id}': 'documentGenerationTemplates.update',
  'DELETE /document_generation_templates/{id}': 'documentGenerationTemplates.del',
  'POST /document_generation_templates/{id}/file': 'documentGenerationTemplates.upload',
  'GET /document_generation_templates/{id}/fragment_usages': 'documentGenerationTemplates.fragmentUsages',
  'GET /document_generation_templates/{id}/versions': 'documentGenerationTemplates.versions.list',
  'GET /document_generation_templates/{id}/versions/{number}': 'documentGenerationTemplates.versions.retrieve',
  'PUT /document_generation_templates/{id}/versions/{number}': 'documentGenerationTemplates.versions.upsert',
  'PATCH /document_generation_templates/{id}/versions/{number}': 'documentGenerationTemplates.versions.update',
  'DELETE /document_generation_templates/{id}/versions/{number}': 'documentGenerationTemplates.versions.del',
  'GET /document_generation_templates/{id}/versions/{number}/doc_fields':
    'documentGenerationTemplates.versions.docFields',
  'PUT /document_generation_templates/{id}/versions/{number}/doc_fields':
    'documentGenerationTemplates.versions.setDocFields',
  'HEAD /document_generation_templates/{id}/versions/{number}/file': 'documentGenerationTemplates.versions.fileInfo',
  'GET /document_generation_templates/{id}/versions/{number}/file': 'documentGenerationTemplates.versions.download',
  'HEAD /document_generation_templates/{id}/versions/active/file':
    'documentGenerationTemplates.versions.activeFileInfo',
  'GET /document_generation_templates/{id}/versions/active/file': 'documentGenerationTemplates.versions.downloadActive',
  'HEAD /document_generation_templates/{id}/versions/latest/file':
    'documentGenerationTemplates.versions.latestFileInfo',
  'GET /document_generation_templates/{id}/versions/latest/file': 'documentGenerationTemplates.versions.downloadLatest',
  'GET /document_generation_templates/{id}/versions/{number}/fields': 'documentGenerationTemplates.versions.fields',
  'GET /document_generation_templates/{id}/versions/active/fields': 'documentGenerationTemplates.versions.activeFields',
  'GET /document_generation_templates/{id}/versions/latest/fields': 'documentGenerationTemplates.versions.latestFields',
  'GET /document_generation_templates/{id}/versions/{number}/preview': 'documentGenerationTemplates.versions.preview',
  'GET /document_generation_templates/{id}/versions/{number}/preview/{page}':
    'documentGenerationTemplates.versions.previewPage',
  'GET /document_generation_templates/{id}/versions/active/preview':
    'documentGenerationTemplates.versions.previewActive',
  'GET /document_generation_templates/{id}/versions/active/preview/{page}':
    'documentGenerationTemplates.versions.previewActivePage',
  'GET /document_generation_templates/{id}/versions/latest/preview':
    'documentGenerationTemplates.versions.previewLatest',
  'GET /document_generation_templates/{id}/versions/latest/preview/{page}':
    'documentGenerationTemplates.versions.previewLatestPage',
  'POST /document_generations': 'documentGenerations.create',
  'POST /document_generations/async': 'documentGenerations.createAsync',
  'GET /document_generations/{id}': 'documentGenerations.retrieve',
  'DELETE /document_generations/{id}': 'documentGenerations.del',
  'HEAD /document_generations/{id}/file': 'documentGenerations.fileInfo',
  'GET /document_generations/{id}/file': 'documentGenerations.download',
  'GET /document_generations/{id}/preview': 'documentGenerations.preview',
  'GET /document_generations/{id}/preview/{page}': 'documentGenerations.previewPage',
  'POST /document_generations/{id}/archive': 'documentGenerations.archive',
  'POST /document_generations/{id}/email': 'documentGenerations.email',
  'POST /document_generations/{id}/vault': 'documentGenerations.vault',
  'GET /document_generation_requests': 'documentGenerations.requests.list',
  'GET /document_generation_requests/{id}/status': 'documentGenerations.requests.status',
  'GET /document_generations/syntax_migration/status': 'documentGenerations.syntaxMigration.status',
  'PUT /document_generations/syntax_migration/status': 'documentGenerations.syntaxMigration.start',
  'POST /document_generations/syntax_migration/restart': 'documentGenerations.syntaxMigration.restart',
  'GET /document_generations/syntax_migration/list': 'documentGenerations.syntaxMigration.list',
  'POST /document_generations/syntax_migration/{id}': 'documentGenerations.syntaxMigration.convert',
  'POST /document_generation_campaigns': 'documentGenerationCampaigns.create',
  'GET /document_generation_campaigns': 'documentGenerationCampaigns.list',
  'GET /document_generation_campaigns/{id}': 'documentGenerationCampaigns.retrieve',
  'GET /document_generation_campaigns/{id}/file': 'documentGenerationCampaigns.download',
  'POST /document_generation_campaigns/csv': 'documentGenerationCampaigns.parseCsv',
  'POST /document_generation_campaigns/{id}/cancel': 'documentGenerationCampaigns.cancel',
  'GET /client': 'platform.client',
  'GET /settings/core': 'platform.settings.core',
  'GET /settings/process_automation': 'platform.settings.processAutomation',
  'GET /settings/knowledge_base': 'platform.settings.knowledgeBase',
  'GET /settings/case_management': 'platform.settings.caseManagement',
  'POST /platform_updates': 'platform.applyUpdate',
  'GET /saml/identity_providers': 'samlIdentityProviders.list',
  'POST /saml/identity_providers': 'samlIdentityProviders.create',
  'GET /saml/identity_providers/{id}': 'samlIdentityProviders.retrieve',
  'HEAD /saml/identity_providers/{id}': 'samlIdentityProviders.exists',
  'PUT /saml/identity_providers/{id}': 'samlIdentityProviders.upsert',
  'PATCH /saml/identity_providers/{id}': 'samlIdentityProviders.update',
  'DELETE /saml/identity_providers/{id}': 'samlIdentityProviders.del',
  'GET /webhooks': 'webhooks.list',
  'POST /webhooks': 'webhooks.create',
  'GET /webhooks/{id}': 'webhooks.retrieve',
  'PUT /webhooks/{id}': 'webhooks.update',
  'DELETE /webhooks/{id}': 'webhooks.del',
  'POST /webhooks/{id}/refresh_signature_key': 'webhooks.refreshSignatureKey',
  'POST /webhooks/{id}/tests': 'webhooks.test',
  'GET /webhooks/{id}/deliveries': 'webhooks.deliveries.list',
  'POST /webhooks/{id}/deliveries/{delivery_id}/redeliver': 'webhooks.deliveries.redeliver',
};

const NOUNS: Record<string, readonly [string, string]> = {
  organizations: ['organization', 'organizations'],
  organization_groups: ['organization group', 'organization groups'],
  uploads: ['temporary file', 'temporary files'],
  roles: ['role', 'roles'],
  users: ['HR user', 'HR users'],
  custom_fields: ['custom field', 'custom fields'],
  employees: ['employee', 'employees'],
  employee_folders: ['employee folder', 'employee folders'],
  employee_document_types: ['employee document type', 'employee document types'],
  employee_documents: ['employee document', 'employee documents'],
  company_folders: ['company folder', 'company folders'],
  company_document_types: ['company document type', 'company document types'],
  company_documents: ['company document', 'company documents'],
  kb_categories: ['knowledge-base category', 'knowledge-base categories'],
  kb_articles: ['knowledge-base article', 'knowledge-base articles'],
  kb_tags: ['knowledge-base tag', 'knowledge-base tags'],
  images: ['article image', 'article images'],
  article_resources: ['article resource', 'article resources'],
  article_documents: ['knowledge-base media file', 'knowledge-base media files'],
  document_type_prediction_run: ['document-type prediction run', 'document-type prediction runs'],
  custom_status: ['custom status', 'custom statuses'],
  macros: ['macro', 'macros'],
  request_forms: ['request form', 'request forms'],
  requests: ['request', 'requests'],
  comments: ['comment', 'comments'],
  attachments: ['attachment', 'attachments'],
  files: ['file', 'files'],
  assignees: ['assigned user', 'assigned users'],
  linked_requests: ['linked request', 'linked requests'],
  process_templates: ['process template', 'process templates'],
  task_templates: ['task template', 'task templates'],
  processes: ['process', 'processes'],
  tasks: ['task', 'tasks'],
  process_pdf_templates: ['PDF template', 'PDF templates'],
  workingfiles: ['working file', 'working files'],
  employee_settings: ['employee setting', 'employee settings'],
  by_external_id: ['employee', 'employees'],
  bulk: ['bulk call', 'bulk calls'],
  datasets: ['dataset', 'datasets'],
  dataset_imports: ['dataset import', 'dataset imports'],
  imports: ['import', 'imports'],
  values: ['dataset value', 'dataset values'],
  events: ['audit event', 'audit events'],
  webhooks: ['webhook', 'webhooks'],
  identity_providers: ['SAML identity provider', 'SAML identity providers'],
  signature_processes: ['signature process', 'signature processes'],
  signature_types: ['signature type', 'signature types'],
  signers: ['signer', 'signers'],
  outbox: ['outgoing mail', 'outgoing mails'],
  inbox_items: ['inbox item', 'inbox items'],
  electronic_vault_options: ['electronic vault', 'electronic vaults'],
  employee_subscriptions: ['employee subscription', 'employee subscriptions'],
  distribution_projects: ['distribution project', 'distribution projects'],
  distributions: ['distribution', 'distributions'],
  scan: ['scan', 'scans'],
  redirection_urls: ['redirection URL', 'redirection URLs'],
  deliveries: ['delivery', 'deliveries'],
  document_generation_templates: ['document generation template', 'document generation templates'],
  versions: ['template version', 'template versions'],
  document_generations: ['generated document', 'generated documents'],
  document_generation_requests: ['document generation request', 'document generation requests'],
  document_generation_campaigns: ['document generation campaign', 'document generation campaigns'],
};

/** The two kinds of documents share their routes, hence their descriptions. */
function documents(kind: 'employee' | 'company'): Record<string, Record<number, string>> {
  const base = `/${kind}_documents`;
  const conflict = `Another ${kind} document has this \`external_reference\` (\`external_reference_is_unique\`).`;
  return {
    [`DELETE ${base}/trash`]: { 204: `The trash is empty: every ${kind} document in it is deleted for good; no body.` },
    [`POST ${base}`]: { 409: conflict },
    [`PUT ${base}/{id}`]: { 200: `The ${kind} document, updated.`, 409: conflict },
    [`PATCH ${base}/{id}`]: { 409: conflict },
    [`DELETE ${base}/{id}`]: { 204: `The ${kind} document and its file are deleted for good; no body.` },
    [`PUT ${base}/{id}/trash`]: { 200: `The ${kind} document is in the trash; no body.` },
    [`PUT ${base}/{id}/untrash`]: { 200: `The ${kind} document is out of the trash; no body.` },
    [`PUT ${base}/{id}/expire`]: { 204: `The end of the retention period is set; no body.` },
    [`PUT ${base}/{id}/expiration/update`]: { 204: `The expiration date is set; no body.` },
    [`HEAD ${base}/{id}/file`]: {
      200: 'The file exists: its type, length, name and validators are in the headers; no body.',
    },
    [`GET ${base}/{id}/file`]: { 200: 'The file (its bytes).', 206: 'The requested range of the file.' },
  };
}

/** The permissions of a role, per module (`core` is the core HR module, `efm` the Document Manager). */
const PERMISSION_MODULES: Record<string, string> = {
  core: 'core HR',
  efm: 'Document Manager',
  audit: 'audit',
  webhook: 'webhook',
};
const permissions = Object.fromEntries(
  Object.entries(PERMISSION_MODULES).flatMap(([module, title]) => [
    [`GET /roles/{role_id}/permissions/${module}`, { 200: `The ${title} permissions of the role.` }],
    [`PUT /roles/{role_id}/permissions/${module}`, { 200: `The ${title} permissions of the role, replaced.` }],
  ]),
);

const bulkResponses = Object.fromEntries(
  (['employees', 'users'] as const).flatMap((plural) => {
    const accepted = {
      200: `The call is stored: its \`request_id\`; its items are applied in the background.`,
      413: 'The body is larger than `ATRIUM_BODY_LIMIT` (`payload_too_large`).',
      422: 'The array holds no item or more than 1000 (`validation_error`); nothing is queued.',
    };
    return [
      [`POST /${plural}/bulk`, accepted],
      [`PUT /${plural}/bulk`, accepted],
      [`PATCH /${plural}/bulk`, accepted],
      [
        `GET /${plural}/bulk/{request_id}`,
        {
          200: 'The counts, and each item settled so far with its result or error.',
          404: `No bulk call on ${plural} of this client has this \`request_id\` (\`not_found\`).`,
        },
      ],
    ];
  }),
);

const TOO_LARGE = 'The file is larger than `ATRIUM_UPLOAD_LIMIT` (`payload_too_large`).';
const NO_CLIENT_ID = '`X-Client-Id` is missing or not the client of the access token';
const scanResponses: Record<string, Record<number, string>> = {
  'POST /document/upload': {
    201: 'The file and its verdict: `clean` (`file_id` is an upload), `infected` or `failed` (no upload).',
    413: TOO_LARGE,
  },
  'POST /document/upload/async': {
    201: 'The file and its scan, `pending`: `file_id` is an upload once the scan says `clean`.',
    400: 'A query parameter is given, or `X-Callback-Url` is not an http(s) URL (`invalid_request`).',
    413: TOO_LARGE,
  },
  'POST /file/upload/sync': {
    201: 'A clean file as an upload; only `scan_id` and `scan_status` for an infected file or a failed scan.',
    400: `${NO_CLIENT_ID}, or \`X-file-parameters\` is not valid (\`invalid_request\`).`,
    413: TOO_LARGE,
  },
  'POST /file/upload/async': {
    201: 'The scan, `pending`; ask again after `next_ping` seconds.',
    400: `${NO_CLIENT_ID}, \`X-file-parameters\` is not valid, or \`X-Callback-Url\` is not an http(s) URL (\`invalid_request\`).`,
    413: TOO_LARGE,
  },
  'GET /file/scan/{scan_id}/status': {
    200: 'The scan (camelCase): `pending` with `nextPing`, then `clean`, `infected` or `failed`.',
    400: `${NO_CLIENT_ID} (\`invalid_request\`).`,
    404: 'No scan of this client has this id (`not_found`).',
  },
};

const RESPONSES: Record<string, Record<number, string>> = {
  ...permissions,
  'GET /client': { 200: 'The client platform: its languages, time zone and modules.' },
  'GET /settings/core': { 200: 'The core settings.' },
  'GET /settings/process_automation': { 200: 'The Digital Process Manager settings.' },
  'GET /settings/knowledge_base': { 200: 'The Knowledge Base settings.' },
  'GET /settings/case_management': { 200: 'The request management settings.' },
  'POST /platform_updates': {
    204: 'The configuration update is applied; no body.',
    404: 'No configuration update of this id (`not_found`).',
    409: 'The configuration update was applied already (`conflict`).',
  },
  'HEAD /document_generation_templates/{id}/versions/{number}/file': {
    200: 'The version’s document exists: its headers; no body.',
  },
  'HEAD /document_generation_templates/{id}/versions/active/file': {
    200: 'The active version’s document: its headers; no body.',
  },
  'HEAD /document_generation_templates/{id}/versions/latest/file': {
    200: 'The latest version’s document: its headers; no body.',
  },
  'HEAD /document_generations/{id}/file': { 200: 'The generated file: its headers (`Crc-32`, `Page-Count`); no body.' },
  'GET /document_generation_templates/{id}/versions/{number}/fields': {
    200: 'The placeholders and their kinds (deprecated).',
  },
  'GET /document_generation_templates/{id}/versions/active/fields': {
    200: 'The active version’s placeholders (deprecated).',
  },
  'GET /document_generation_templates/{id}/versions/latest/fields': {
    200: 'The latest version’s placeholders (deprecated).',
  },
  'POST /document_generation_templates/{id}/file': { 201: 'The new version, with what was found in its document.' },
  'GET /document_generation_templates/{id}/fragment_usages': { 200: 'The ids of the templates that insert this one.' },
  'PUT /document_generation_templates/{id}/versions/{number}': { 201: 'The version, updated.' },
  'GET /document_generation_templates/{id}/versions/{number}/doc_fields': { 200: 'The placeholders, as form fields.' },
  'PUT /document_generation_templates/{id}/versions/{number}/doc_fields': { 200: 'The placeholders, typed.' },
  'POST /document_generations': { 201: 'The generated document, with the differences permissive mode let through.' },
  'POST /document_generations/async': { 202: 'The request, `RECEIVED_ASYNC`: `Location` is its status.' },
  'POST /document_generations/{id}/archive': { 200: 'The generated document, with its `archived_document_id`.' },
  'POST /document_generations/{id}/vault': { 200: 'The generated document, in the employee’s vault.' },
  'POST /document_generations/{id}/email': { 200: 'The generated document; the mails are in the outbox.' },
  'GET /document_generation_requests/{id}/status': { 200: 'The request and its status.' },
  'GET /document_generations/syntax_migration/status': { 200: 'The migration’s status.' },
  'PUT /document_generations/syntax_migration/status': {
    200: 'The migration, `in_progress`: its job is queued.',
    422: 'The migration was started already (`invalid_transition`: restart it), or the body breaks the schema (`validation_error`).',
  },
  'POST /document_generations/syntax_migration/restart': {
    200: 'The new run, `created`: its job is queued.',
    422: 'The migration is in progress (`invalid_transition`).',
  },
  'GET /document_generations/syntax_migration/list': { 200: 'The templates whose latest version is V1.' },
  'POST /document_generations/syntax_migration/{id}': {
    201: 'The new version, in V2 syntax.',
    404: 'No such template in this tenant, or it has no version (`not_found`).',
    422: 'The latest version is in V2 syntax already (`not_v1`), or it cannot be converted (`not_migratable`).',
  },
  'POST /document_generation_campaigns/{id}/cancel': {
    200: 'The campaign, `canceled`.',
    422: 'The campaign has ended: completed, failed or canceled (`not_cancelable`).',
  },
  'GET /document_generation_campaigns/{id}/file': {
    200: 'The campaign’s zip or PDF.',
    206: 'The requested range of the file.',
  },
  'POST /document_generation_campaigns/csv': {
    501: 'Not available, as the reference marks it (`not_implemented`): send the rows as `data` to `POST /document_generation_campaigns`.',
  },
  'POST /signature_processes/cancel': { 200: 'Every process named, canceled, in the order of `signature_ids`.' },
  'POST /signature_processes/{id}/archive': {
    204: 'The signed PDF is an employee document of the employee signer (once); no body.',
  },
  'POST /signature_processes/{id}/send': {
    204: 'The signed document is mailed to every signer (the outbox); no body.',
  },
  'POST /signers/remind': { 204: 'A reminder is mailed to each signer (the outbox); no body.' },
  'POST /signers/{id}/remind': { 204: 'A reminder is mailed to the signer (the outbox); no body.' },
  'POST /distribution_projects': { 200: 'The project, `new`.' },
  'POST /distribution_projects/{id}/validate': {
    200: 'The project; its distributions that waited for validation go on.',
    400: 'The project is not `waiting_for_validation`.',
  },
  'POST /distribution_projects/{id}/cancel': {
    200: 'The project, `canceled`, with every distribution that had not ended.',
    400: 'The project has ended.',
  },
  'POST /distributions': { 200: 'The distribution, `new`: the runner takes it from there.' },
  'GET /distributions/{id}/report': { 200: 'The report (CSV).' },
  'POST /signers/{id}/sign': { 200: 'The signer, signed; the next signers are invited, or the process is signed.' },
  'POST /signers/{id}/refuse': { 200: 'The signer, refused; the process is rejected.' },
  'HEAD /datasets/{id}/values/{value_id}': { 200: 'The dataset has this value; no body.' },
  'HEAD /saml/identity_providers/{id}': { 200: 'The SAML identity provider exists; no body.' },
  'POST /saml/identity_providers': {
    409: 'SAML IdP already exists: an active provider has the same scope or name (`conflict`).',
  },
  'PUT /saml/identity_providers/{id}': {
    409: 'SAML IdP already exists: an active provider has the same scope or name (`conflict`).',
  },
  'PATCH /saml/identity_providers/{id}': {
    409: 'SAML IdP already exists: an active provider has the same scope or name (`conflict`).',
  },
  'GET /dataset_imports/{id}/source': { 200: 'The CSV, as it was uploaded.' },
  'GET /imports/{id}/source': { 200: 'The CSV, as it was uploaded.' },
  'GET /imports/{id}/report': {
    200: 'One line per row, as XML.',
    403: 'The import has not ended (`report_file_not_ready`).',
  },
  'GET /imports/{id}/errors_report': {
    200: 'The rows that failed, as XML.',
    403: 'The import has not ended (`source_errors_file_not_ready`).',
  },
  'GET /dataset_imports/{id}/report': {
    200: 'The errors and warnings, as CSV.',
    403: 'The import has not finished (`report_file_not_ready`).',
  },
  'DELETE /datasets/{id}/values/{value_id}': {
    204: 'The value is deleted; no body.',
    422: 'Other values are under it (`has_children`).',
  },
  ...bulkResponses,
  'PUT /employees/by_external_id/{external_id}': {
    200: 'The employee, updated: one had this `external_id`.',
    201: 'The employee, created: none had this `external_id`.',
  },
  'POST /tokens': {
    200: 'The access token, its type (`bearer`) and its lifetime in seconds.',
    400: "The token request is not valid: not a form, a missing or wrong `grant_type`, `scope` or `client_id` (`invalid_request`, with RFC 6749's `error`).",
    401: 'The application id or secret is wrong, or the application is revoked (`invalid_credentials`, `invalid_client`).',
  },
  'POST /revoke_token': {
    200: 'The token is revoked (or was already invalid); no body.',
    400: "The request is not a form with a `token`, or the token is another application's (`invalid_request`).",
    401: 'The application id or secret is wrong, or the application is revoked (`invalid_credentials`, `invalid_client`).',
  },
  'POST /uploads': { 413: 'The file is larger than `ATRIUM_UPLOAD_LIMIT` (`payload_too_large`).' },
  'POST /uploads/{id}/text_occurrences': { 200: 'Each place the keyword appears; an empty array when it does not.' },
  'POST /document': { 413: 'The file is larger than `ATRIUM_UPLOAD_LIMIT` (`payload_too_large`).' },
  ...scanResponses,
  'POST /users/{id}/invite': { 201: 'The activation mail is recorded in the outbox; no body.' },
  'POST /employees/{id}/electronic_vault_invite': {
    204: 'The invitation (or its follow-up) is recorded in the outbox; no body.',
    400: 'The employee has no e-mail address, or their vault is neither `not_activated` nor `deleted`.',
  },
  'POST /employees/{id}/electronic_vault_activate': {
    200: 'The vault, `activated`.',
    400: 'The employee was not invited, or the vault is neither `not_activated` nor `deleted`.',
  },
  'DELETE /employees/{id}/electronic_vault_link': {
    204: 'The vault is `pending_deletion`, soon `deleted`; no body.',
    400: 'The employee has no linked (`activated`) vault.',
  },
  'POST /employees/{id}/electronic_vault_documents': {
    204: 'The document is filed for the employee (and the mail recorded in the outbox); no body.',
    400: 'The vault is not activated, electronic distribution is disabled, or the employee opted out of electronic payslips.',
  },
  'POST /employees/{id}/portal_invite': {
    204: 'The invitation (or its follow-up) is recorded in the outbox; no body.',
    422: 'The employee has no e-mail address (`no_email`).',
  },
  'POST /document_type_prediction_run': {
    202: 'The run, `SCHEDULED`: a job computes its guesses; poll `GET /document_type_prediction_run/{id}`.',
    422: '`document_id` names no employee or company document of this client (`validation_error`, `not_found`).',
  },
  'GET /document_type_prediction_run/{id}': {
    200: 'The run: its status, and once `DONE` its guessed document types.',
  },
  'POST /kb_articles/images': {
    200: 'The image is stored: `url` is where `GET /article_resources/{id}` serves it, to embed in article bodies.',
    413: 'The image is larger than 20 MB or `ATRIUM_UPLOAD_LIMIT`, whichever is smaller (`payload_too_large`).',
    422: 'No multipart field `image`, or it is not a PNG, JPEG, GIF or WebP image (`validation_error`).',
  },
  'GET /article_resources/{id}': { 200: 'The image (its bytes), with its content type.' },
  'GET /article_documents/{id}': { 200: 'The media file (its bytes), with its content type.' },
  'GET /redirection_urls': {
    200: 'The URLs, on this server, of the client API resources the pages would show.',
    422: '`employee_id` or `doctype_id` names nothing in this tenant (`validation_error`).',
  },
  'POST /employees/search': { 200: 'The page of matching employees.' },
  'POST /employee_documents/search': { 200: 'The page of matching employee documents.' },
  ...documents('employee'),
  ...documents('company'),
  'GET /requests/{id}/comments/{comment_id}/attachments/{attachment_id}': { 200: 'The attachment (its bytes).' },
  'GET /requests/{id}/attachments/{attachment_id}/download': { 200: 'The attachment (its bytes).' },
  'DELETE /requests/{id}/attachments/{attachment_id}': { 204: 'The attachment is deleted; no body.' },
  'HEAD /requests/{id}/comments/{comment_id}/attachments/{attachment_id}/preview': {
    204: 'No body; `Page-Count` gives the number of pages.',
  },
  'HEAD /requests/{id}/attachments/{attachment_id}/preview': {
    204: 'No body; `Page-Count` gives the number of pages.',
  },
  'HEAD /requests/{id}/files/{file_id}/preview': { 204: 'No body; `Page-Count` gives the number of pages.' },
  'GET /requests/{id}/files/{file_id}/download': { 200: 'The form-field file (its bytes).' },
  'DELETE /requests/{id}/files/{file_id}': { 204: 'The form-field file is deleted; no body.' },
  'POST /requests/{id}/linked_requests': { 204: 'The requests are linked; no body.' },
  'POST /requests/{id}/macros': { 200: 'The macro ran on the request; no body.' },
  'PUT /processes/{id}/publish': { 202: 'The process is being published: its tasks are created; no body.' },
  'POST /tasks/{id}/fill': { 200: 'The task, with its draft answers.' },
  'POST /tasks/{id}/complete': { 200: 'The task, completed.' },
  'GET /events/export': { 200: 'The matching events, streamed: a JSON array, or CSV with `Accept: text/csv`.' },
  'GET /events/filters/actions': { 200: 'The resource types and their actions.' },
  'POST /webhooks/{id}/refresh_signature_key': { 200: 'The webhook, with its new signature key.' },
  'POST /webhooks/{id}/tests': { 204: 'A `webhook.test` callback is queued and sent at once; no body.' },
  'POST /webhooks/{id}/deliveries/{delivery_id}/redeliver': { 202: 'The event is queued again; no body.' },
  'POST /tasks/{id}/files': { 200: 'The task file, attached.' },
  'GET /tasks/{id}/files/{file_id}/download': {
    200: 'The task file (its bytes).',
    206: 'The requested range of the task file.',
  },
  'GET /tasks/{id}/workingfiles/{file_id}': {
    200: 'The file the task generated (its bytes).',
    206: 'The requested range of the file.',
  },
  'POST /processes/{id}/post_process_action': { 201: 'The post-process action, stored on the process.' },
  'POST /request_forms/{id}/change_group_category': {
    204: 'Every form of the group is in the category; no body.',
    400: 'The form does not belong to a group (`{detail}`).',
    403: 'The multilingual form feature is not enabled: no form of the client belongs to a group (`{detail}`).',
  },
  'GET /employee_settings/{employee_id}/process_automation': {
    200: 'The employee’s process automation settings (the onboarding welcome).',
  },
  'GET /employee_settings/{employee_id}/process_automation/welcome_file': {
    200: 'The welcome file (its bytes).',
    206: 'The requested range of the welcome file.',
  },
};

/** The description of an error status, from the API's error table (docs/hr-api.md, "Errors"). */
/** The operations a per-tenant cap on things running at once refuses with 429 (platform/db/tenant-cap.ts). */
const CAPPED: Record<string, string> = {
  'POST /imports': 'imports',
  'POST /dataset_imports': 'dataset imports',
  'POST /document_generation_campaigns': 'campaigns',
};
const CAPPED_SETTING: Record<string, string> = {
  'POST /imports': 'ATRIUM_MAX_CONCURRENT_IMPORTS',
  'POST /dataset_imports': 'ATRIUM_MAX_CONCURRENT_DATASET_IMPORTS',
  'POST /document_generation_campaigns': 'ATRIUM_MAX_CONCURRENT_CAMPAIGNS',
};

function describeError(status: number, op: OperationContext): string | undefined {
  const reads = !op.body;
  const upsert = op.method === 'PUT' && op.statuses.includes(201);
  switch (status) {
    case 400:
      return reads
        ? `A query parameter is malformed, unknown or repeated${op.item ? '' : ', or the cursor is unknown'} (\`invalid_request\`).`
        : 'A query parameter is malformed, unknown or repeated, or the body is not a JSON object (`invalid_request`).';
    case 401:
      return 'No valid access token: it is missing, malformed, expired or revoked (`invalid_token`).';
    case 403:
      return op.method === 'GET' || op.method === 'HEAD'
        ? 'The application may not make this call (`forbidden`).'
        : 'The application is read-only (`insufficient_scope`), or the object may not change now; the message says why.';
    case 404: {
      if (upsert) return 'Something the body refers to does not exist in this tenant (`not_found`).';
      const owners = op.owners.length > 0 ? op.owners : op.noun ? [op.noun[0]] : [];
      if (owners.length === 0) return undefined;
      return reads
        ? noSuch(owners, 'in this tenant')
        : `${noSuch(owners, 'in this tenant').slice(0, -1)}, or something the body refers to does not exist.`;
    }
    case 409:
      return 'The request conflicts with the current state of the resource (`conflict`).';
    case 413:
      return 'The body is larger than the server accepts (`payload_too_large`).';
    case 415:
      return 'The body is not of a media type the operation takes (`unsupported_media_type`).';
    case 416:
      return 'The `Range` is outside the file (`range_not_satisfiable`, with `Content-Range: bytes */size`).';
    case 422:
      return reads
        ? 'A query parameter breaks a rule: `errors` names each one and what is wrong (`validation_error`).'
        : 'A field of the body breaks the schema or a rule: `errors` names each field and what is wrong (`validation_error`).';
    case 424:
      return 'The office converter ODT and DOC need is not found, or failed (`failed_dependency`); the message names `ATRIUM_SOFFICE`.';
    case 429:
      return CAPPED[op.key] !== undefined
        ? `This client already has as many ${CAPPED[op.key]} running as it may (\`${CAPPED_SETTING[op.key]}\`), or too many requests for this application: retry after \`Retry-After\` seconds (\`rate_limited\`). Nothing was created.`
        : 'Too many requests for this application: retry after `Retry-After` seconds (`rate_limited`).';
    default:
      return undefined;
  }
}

/** The HR API's part of the OpenAPI document (platform/http/openapi.ts). */
export const HR_DOCUMENTATION: ApiDocumentation = {
  prefix: '/api/v2/client',
  idPrefix: 'hr',
  operations: HR_OPERATIONS,
  nouns: NOUNS,
  responses: RESPONSES,
  describeError,
  examples: HR_EXAMPLES,
};
