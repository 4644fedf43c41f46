/**
 * Every field the reference lists for an HR object is in Atrium's answer (issue 24): one of each object is created
 * over real HTTP with its optional fields left empty, read back (one, and the list form; with and without `embed`),
 * and compared field by field with test/hr/reference-fields.ts. A field the reference lists and the answer lacks
 * fails, naming the family, the schema, the answer and the field.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SAMPLE_SAML_CERTIFICATE } from '../../src/hr/openapi-examples.js';
import { buildDocx } from '../../src/platform/docgen/build-docx.js';
import { uploadTemplate } from '../support/docgen.js';
import { dialects, type HrCaller, hrCaller, requestToken, startServer, type TestServer } from '../support/harness.js';
import { json, upload } from '../support/people-assist.js';
import { FORM, PDF } from '../support/processes.js';
import { type EmbedField, REFERENCE_SCHEMAS, type ReferenceSchema } from './reference-fields.js';

type Obj = Record<string, unknown>;

/** One answer (or one object nested in it) to compare with a reference schema. */
interface Sample {
  /** Where it came from: `GET /requests/{id}?embed=creator`. */
  where: string;
  object: Obj;
  /** The `embed` values the call asked for. */
  embeds: ReadonlySet<string>;
}

/** What the answer lacks (or, for a field an embed replaces, still carries). */
function missingFields(ref: ReferenceSchema, sample: Sample): string[] {
  const problems: string[] = [];
  const replaced = new Set(
    Object.values(ref.fields)
      .filter((f): f is EmbedField => typeof f === 'object' && sample.embeds.has(f.embed) && f.replaces !== undefined)
      .map((f) => f.replaces as string),
  );
  for (const [name, field] of Object.entries(ref.fields)) {
    const has = Object.hasOwn(sample.object, name);
    if (typeof field === 'object') {
      if (sample.embeds.has(field.embed) && !has)
        problems.push(`lacks \`${name}\` (asked for with embed=${field.embed})`);
    } else if (replaced.has(name)) {
      if (has) problems.push(`carries \`${name}\` although the embed replaces it`);
    } else if (!has) {
      problems.push(`lacks \`${name}\``);
    }
  }
  return problems;
}

const array = (value: unknown, where: string): Obj[] => {
  assert.ok(Array.isArray(value), `${where}: expected an array, got ${JSON.stringify(value)}`);
  return value as Obj[];
};

for (const dialect of dialects()) {
  describe(`reference fields: every field of each reference schema is in a real answer (${dialect})`, () => {
    let server: TestServer;
    let hr: HrCaller;
    const samples = new Map<string, Sample[]>();

    const add = (schema: string, where: string, objects: Obj | Obj[], embeds: Iterable<string> = []) => {
      const list = Array.isArray(objects) ? objects : [objects];
      assert.ok(list.length > 0, `${schema}: ${where} answered no object to compare`);
      const set = new Set(embeds);
      const out = samples.get(schema) ?? [];
      list.forEach((object, i) => {
        out.push({ where: list.length > 1 ? `${where} [${i}]` : where, object, embeds: set });
      });
      samples.set(schema, out);
    };
    /** GET a path (200) and add its answer; answers it. */
    const read = async (schema: string, path: string, embeds: string[] = []): Promise<Obj & Obj[]> => {
      const body = await json<Obj & Obj[]>(await hr.call('GET', path), 200);
      add(schema, `GET ${path}`, body, embeds);
      return body;
    };
    const ok = async <T = Obj>(res: Response): Promise<T> => {
      const text = await res.text();
      assert.ok(res.status === 200 || res.status === 201, `${res.url}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    };

    before(async () => {
      server = await startServer(dialect);
      hr = await hrCaller(server);
      const tag = randomBytes(3).toString('hex');

      // Tokens and uploads.
      add('TokenFull', 'POST /tokens', await json<Obj>(await requestToken(server, hr.creds), 200));
      const rawUpload = await json<Obj>(
        await fetch(`${server.url}/api/v2/client/uploads`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${hr.token}`,
            'content-type': 'application/octet-stream',
            'content-disposition': 'attachment; filename="notes.bin"',
          },
          body: new Uint8Array(randomBytes(100)),
        }),
        201,
      );
      add('UploadDocument', 'POST /uploads', rawUpload);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(PDF())], { type: 'application/pdf' }), 'contract.pdf');
      const fileId = await json<Obj>(
        await fetch(`${server.url}/api/v2/client/document`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hr.token}` },
          body: form,
        }),
        201,
      );
      add('DocumentFileId', 'POST /document', fileId);

      // Core: organizations, groups, roles and permissions, custom fields, users, employees.
      await ok(await hr.call('PUT', '/organizations/hq', { name: 'HQ' }));
      await read('OrganizationFull', '/organizations/hq');
      await read('OrganizationFull', '/organizations');
      await ok(await hr.call('PUT', '/organization_groups/west', { name: 'West' }));
      await read('OrganizationGroupFull', '/organization_groups/west');
      await read('OrganizationGroupFull', '/organization_groups');
      await ok(await hr.call('PUT', '/roles/agent', { id: 'agent', name: 'Agent' }));
      await read('RoleFull', '/roles/agent');
      await read('RoleFull', '/roles');
      await read('CorePermissionsGet', '/roles/agent/permissions/core');
      await read('EFMPermissionsBase', '/roles/agent/permissions/efm');
      await read('AuditPermissions', '/roles/agent/permissions/audit');
      await read('WebhookPermissions', '/roles/agent/permissions/webhook');
      await ok(
        await hr.call('PUT', '/custom_fields/team', {
          label: 'Team',
          type: 'list',
          authorized_values: [{ value: 'blue', label: 'Blue' }],
          allow_access_restrictions: true,
        }),
      );
      await ok(await hr.call('PUT', '/custom_fields/nickname', { label: 'Nickname', type: 'string' }));
      const team = await read('CustomFieldFull', '/custom_fields/team');
      add('AuthorizedValue', 'GET /custom_fields/team', array(team.authorized_values, 'authorized_values'));
      await read('CustomFieldFull', '/custom_fields/nickname');
      await read('CustomFieldFull', '/custom_fields');
      const perimeter = {
        operator: '=',
        custom_field_filters: [{ custom_field_id: 'team', operator: '=', value: 'blue' }],
      };
      const user = await json<Obj>(
        await hr.call('POST', '/users', {
          firstname: 'Grace',
          lastname: 'Hopper',
          email: `grace-${tag}@example.com`,
          profiles: [{ role_id: 'agent', employees_perimeter: perimeter }],
        }),
        201,
      );
      for (const path of [`/users/${user.id}`, '/users']) {
        const body = await read('UserFull', path);
        const users = Array.isArray(body) ? body : [body];
        const profiles = users.flatMap((u) => array(u.profiles, 'profiles'));
        add('ProfileFull', `GET ${path}`, profiles);
        add(
          'EmployeesPerimeterBase',
          `GET ${path} (profiles[].employees_perimeter)`,
          profiles.map((p) => p.employees_perimeter as Obj),
        );
        add(
          'CustomFieldFilterRule',
          `GET ${path} (custom_field_filters)`,
          profiles.flatMap((p) => array((p.employees_perimeter as Obj).custom_field_filters, 'filters')),
        );
      }
      const employee = await json<Obj>(
        await hr.call('POST', '/employees', {
          firstname: 'Ada',
          lastname: 'Lovelace',
          email: `ada-${tag}@example.com`,
          registration_references: [{ organization_id: 'hq', employee_number: 'A1' }],
          custom_fields: [{ code: 'nickname', value: 'Countess' }],
        }),
        201,
      );
      for (const path of [`/employees/${employee.id}`, '/employees']) {
        const body = await read('EmployeeFull', path);
        const employees = Array.isArray(body) ? body : [body];
        add(
          'RegistrationReferenceFull',
          `GET ${path}`,
          employees.flatMap((e) => array(e.registration_references, 'registration_references')),
        );
        add(
          'CustomField (on employees)',
          `GET ${path}`,
          employees.flatMap((e) => array(e.custom_fields, 'custom_fields')),
        );
      }

      // Document manager.
      await read('FolderBase', '/employee_folders');
      await read('FolderBase', '/company_folders/default');
      await ok(
        await hr.call('PUT', '/employee_document_types/payslip', {
          localized_labels: [{ language_code: 'en-us', value: 'Payslip' }],
          metadata: [{ code: 'period', type: 'text', localized_labels: [] }],
        }),
      );
      await ok(
        await hr.call('PUT', '/company_document_types/policy', {
          localized_labels: [{ language_code: 'en-us', value: 'Policy' }],
        }),
      );
      const payslip = await read('EmployeeDocumentTypeFull', '/employee_document_types/payslip');
      add('MetaDataDefinition', 'GET /employee_document_types/payslip', array(payslip.metadata, 'metadata'));
      await read('EmployeeDocumentTypeFull', '/employee_document_types');
      await read('CompanyDocumentTypeFull', '/company_document_types/policy');
      await read('CompanyDocumentTypeFull', '/company_document_types');
      const employeeDoc = await json<Obj>(
        await hr.call('POST', '/employee_documents', {
          employee_id: employee.id,
          document_type_id: 'payslip',
          uploaded_file: { filename: 'payslip.pdf', file_id: await upload(server, hr, PDF(), 'payslip.pdf') },
        }),
        201,
      );
      add('EmployeeDocumentFull', 'POST /employee_documents', employeeDoc);
      await read('EmployeeDocumentFull', `/employee_documents/${employeeDoc.id}`);
      await read('EmployeeDocumentFull', '/employee_documents');
      add(
        'EmployeeDocumentFull',
        'POST /employee_documents/search',
        await json<Obj[]>(await hr.call('POST', '/employee_documents/search', {}), 200),
      );
      const companyDoc = await json<Obj>(
        await hr.call('POST', '/company_documents', {
          document_type_id: 'policy',
          organization_ids: ['hq'],
          uploaded_file: { filename: 'policy.pdf', file_id: await upload(server, hr, PDF(), 'policy.pdf') },
        }),
        201,
      );
      add('CompanyDocumentFull', 'POST /company_documents', companyDoc);
      await read('CompanyDocumentFull', `/company_documents/${companyDoc.id}`);
      await read('CompanyDocumentFull', '/company_documents');

      // Knowledge portal.
      const categoryId = randomUUID();
      await ok(
        await hr.call('PUT', `/kb_categories/${categoryId}`, {
          localized_name: [{ language_code: 'en-us', value: 'Payroll' }],
        }),
      );
      await read('KbCategoryFull', `/kb_categories/${categoryId}`);
      await read('KbCategoryFull', '/kb_categories');
      const articleId = randomUUID();
      await ok(
        await hr.call('PUT', `/kb_articles/${articleId}`, {
          categories_ids: [categoryId],
          versions: [{ language_code: 'en-us', title: 'Holidays', body: '<p>Holidays</p>' }],
          employees_perimeters: [{ operator: '=', custom_field_filters: [] }],
          localized_tags: [{ language_code: 'en-us', values: ['leave'] }],
        }),
      );
      for (const [path, embeds] of [
        [`/kb_articles/${articleId}`, ['versions.body']],
        ['/kb_articles', []],
        ['/kb_articles?embed=versions.body', ['versions.body']],
      ] as const) {
        const body = await read('KbArticleFull', path, [...embeds]);
        const articles = Array.isArray(body) ? body : [body];
        add(
          'KbArticleVersion',
          `GET ${path}`,
          articles.flatMap((a) => array(a.versions, 'versions')),
          embeds,
        );
        add(
          'EmployeesPerimeterBase',
          `GET ${path} (employees_perimeters)`,
          articles.flatMap((a) => array(a.employees_perimeters, 'employees_perimeters')),
        );
      }
      await read('KbTag', '/kb_tags');

      // People Assist: forms, requests, comments, custom statuses, macros.
      await ok(
        await hr.call('PUT', '/request_forms/question', {
          name: 'Question',
          category_id: categoryId,
          formidable: {
            fields: [
              { slug: 'subject', label: 'Subject', type_id: 'text', required: true },
              { slug: 'proof', label: 'Proof', type_id: 'file' },
            ],
          },
        }),
      );
      await read('RequestFormFull', '/request_forms/question');
      await read('RequestFormFull', '/request_forms');
      const request = await json<Obj>(
        await hr.call('POST', '/requests', {
          form_id: 'question',
          employee_id: employee.id,
          creator_id: user.id,
          form_data: [
            { field_id: 'subject', values: ['Where is my payslip?'] },
            { field_id: 'proof', values: [{ upload_id: await upload(server, hr, PDF(), 'proof.pdf') }] },
          ],
          attachment_upload_ids: [await upload(server, hr, PDF(), 'scan.pdf')],
        }),
        201,
      );
      add('RequestFullWithAttachments', 'POST /requests', request);
      const embeds = ['creator', 'employee', 'closed_by'];
      for (const [path, embedded] of [
        [`/requests/${request.id}`, []],
        [`/requests/${request.id}?embed=${embeds.join(',')}`, embeds],
      ] as const) {
        const body = await read('RequestFullWithAttachments', path, [...embedded]);
        add('RequestAttachment', `GET ${path}`, array(body.attachments, 'attachments'));
        add('FormFile', `GET ${path}`, array(body.form_files, 'form_files'));
        if (embedded.length > 0) {
          add('UserSimplified', `GET ${path} (creator)`, body.creator as Obj);
          add('EmployeeSimplified', `GET ${path} (employee)`, body.employee as Obj);
        }
      }
      await read('RequestFull', '/requests');
      await read('RequestFull', `/requests?embed=${embeds.join(',')}`, embeds);
      const comment = await json<Obj>(
        await hr.call('POST', `/requests/${request.id}/comments`, {
          content: 'Looking into it',
          creator_id: user.id,
          attachment_upload_ids: [await upload(server, hr, PDF(), 'reply.pdf')],
        }),
        200,
      );
      add('RequestComment', 'POST /requests/{id}/comments', comment);
      add('RequestAttachment', 'POST /requests/{id}/comments', array(comment.attachments, 'attachments'));
      await read('RequestComment', `/requests/${request.id}/comments`);
      await read('RequestComment', `/requests/${request.id}/comments?embed=creator`, ['creator']);
      await ok(await hr.call('PUT', '/custom_status/waiting', { name: 'Waiting' }));
      await read('CustomStatusDetail', '/custom_status/waiting');
      await read('CustomStatusDetail', '/custom_status');
      await ok(
        await hr.call('PUT', '/macros/urgent', {
          name: 'Urgent',
          label: 'Urgent',
          forms: [],
          actions: [{ template: 'RequestChangePriority', data: { priority: '3' } }],
        }),
      );
      await read('MacroDetail', '/macros/urgent');
      await read('MacroDetail', '/macros/urgent?embed=actions', ['actions']);
      await read('MacroDetail', '/macros');

      // Process automation: templates, task templates of each type, a process, its tasks.
      await ok(await hr.call('PUT', '/process_templates/onboarding', { title: 'Onboarding' }));
      await read('ProcessTemplate', '/process_templates/onboarding');
      await read('ProcessTemplate', '/process_templates');
      const taskTemplates: [string, string, Obj][] = [
        ['basic', 'BasicTaskTemplates', { type: 'basic', name: 'Basic', assigned_to: 'employee' }],
        [
          'ack',
          '',
          {
            type: 'acknowledgment',
            name: 'Acknowledge',
            assigned_to: 'employee',
            upload_id: await upload(server, hr, PDF(), 'charter.pdf'),
          },
        ],
        [
          'form',
          'FillFormTaskTemplates',
          { type: 'fill_form', name: 'Form', assigned_to: 'employee', formidable: FORM },
        ],
        ['pdf', 'FillPdfTaskTemplates', { type: 'fill_pdf', name: 'PDF', assigned_to: 'users', pdf_template_id: 'p1' }],
        [
          'sign',
          'SignatureTaskTemplates',
          { type: 'signature', name: 'Sign', assigned_to: 'employee', pdf_template_id: 'p1', signature_zone_id: 'z1' },
        ],
      ];
      for (const [id, variant, body] of taskTemplates) {
        await ok(await hr.call('PUT', `/process_templates/onboarding/task_templates/${id}`, body));
        const one = await read('TaskTemplateDetail', `/process_templates/onboarding/task_templates/${id}`);
        if (variant) add(variant, `GET /process_templates/onboarding/task_templates/${id}`, one);
      }
      await read('TaskTemplateDetail', '/process_templates/onboarding/task_templates');
      const process = await json<Obj>(
        await hr.call('POST', '/processes', {
          process_template_id: 'onboarding',
          publish: true,
          employee_id: employee.id,
          creator_id: user.id,
        }),
        201,
      );
      add('ProcessFull', 'POST /processes', process);
      await read('ProcessFull', `/processes/${process.id}`);
      await read('ProcessFull', `/processes/${process.id}?embed=tasks`, ['tasks']);
      await read('ProcessFull', '/processes');
      const tasks = await read('TaskFull', `/tasks?process_id=${process.id}`);
      const byTemplate = new Map(tasks.map((t) => [t.template_task_id as string, t.id as string]));
      const variants: [string, string][] = [
        ['basic', 'BasicTaskPayload'],
        ['ack', 'AckTaskPayload'],
        ['form', 'FillFormTaskPayload'],
        ['pdf', 'FillPdfTaskPayload'],
        ['sign', 'SignatureTaskPayload'],
      ];
      for (const [template, variant] of variants) {
        const id = byTemplate.get(template);
        assert.ok(id, `a task of the ${template} template`);
        add(variant, `GET /tasks/${id}`, await read('TaskFull', `/tasks/${id}`));
        const both = ['completed_by', ...(template === 'sign' ? ['signature_zone'] : [])];
        const embedded = await read('TaskFull', `/tasks/${id}?embed=${both.join(',')}`, both);
        add(variant, `GET /tasks/${id}?embed=${both.join(',')}`, embedded, both);
        if (template === 'sign')
          add('SignatureZoneField', `GET /tasks/${id}?embed=signature_zone`, embedded.signature_zone as Obj);
        if (template === 'ack') {
          const file = array(embedded.files, 'files')[0] as Obj;
          await read('TaskFileResource', `/tasks/${id}/files/${file.id}`);
        }
      }

      // Process automation extras (i48-auto): a PDF template, both post-process actions, employee settings.
      await ok(
        await hr.call('PUT', '/process_pdf_templates/contract', {
          name: 'Contract',
          upload_id: await upload(server, hr, PDF(), 'contract.pdf'),
          signature_zones: [{ id: 'z1', name: 'Employee', page: 1, x: 10, y: 10 }],
          form_mapping: [{ pdf_field_name: 'Name', form_field_id: 'name' }],
        }),
      );
      await read('PdfTemplateDetail', '/process_pdf_templates/contract');
      await read('PdfTemplateList', '/process_pdf_templates');
      for (const [type, schema, ids] of [
        ['shared_inboxes', 'ProcessPostActionSharedPayload', ['hr-desk']],
        ['user_inboxes', 'ProcessPostActionUserPayload', [user.id]],
      ] as const) {
        const action = await json<Obj>(
          await hr.call('POST', `/processes/${process.id}/post_process_action`, { type, ids }),
          201,
        );
        add(schema, `POST /processes/${process.id}/post_process_action`, action);
      }
      await read('EmployeeSettingsProcessAutomation', `/employee_settings/${employee.id}/process_automation`);

      // Document generation: a template, its version, a document generated from it.
      const template = await json<Obj>(
        await hr.call('POST', '/document_generation_templates', {
          title: 'Certificate',
          description: '',
          locale: 'en-us',
          enabled: true,
        }),
        201,
      );
      add('DocGenTemplate', 'POST /document_generation_templates', template);
      const version = await json<Obj>(
        await uploadTemplate(server, hr, template.id as string, buildDocx([{ paragraph: 'Hello {$name}' }])),
        201,
      );
      add('DocGenTemplateVersion', `POST /document_generation_templates/${template.id}/file`, version);
      await read('DocGenTemplate', `/document_generation_templates/${template.id}`);
      await read('DocGenTemplate', '/document_generation_templates');
      await read('DocGenTemplateVersion', `/document_generation_templates/${template.id}/versions`);
      await read('DocGenTemplateVersion', `/document_generation_templates/${template.id}/versions/1`);
      const generated = await json<Obj>(
        await hr.call('POST', '/document_generations', {
          document_generation_template_id: template.id,
          output_format: 'PDF',
          fields: [],
        }),
        201,
      );
      add('DocGenFullWithErrors', 'POST /document_generations', generated);
      await read('DocGenFull', `/document_generations/${generated.id}`);
      const campaign = await json<Obj>(
        await hr.call('POST', '/document_generation_campaigns', {
          title: 'Certificates',
          document_generation_template_id: template.id,
          output_action: 'zip',
          data: [{ employee_id: employee.id, ref: 'one', fields: [] }],
        }),
        201,
      );
      add('DocGenCampaignResponse', 'POST /document_generation_campaigns', campaign);
      await read('DocGenCampaignResponse', `/document_generation_campaigns/${campaign.id}`);
      await read('DocGenCampaignResponse', '/document_generation_campaigns');
      add(
        'DocGenMigrationCampaign',
        'POST /document_generations/syntax_migration/restart',
        await json<Obj>(await hr.call('POST', '/document_generations/syntax_migration/restart'), 200),
      );
      // Client and settings (issue 48).
      await read('CoreClientFull', '/client');
      await read('CoreSettingsFull', '/settings/core');
      await read('CaseManagementSettings', '/settings/case_management');
      await read('ProcessAutomationSettingsFull', '/settings/process_automation');
      await read('KnowledgeBaseSettings', '/settings/knowledge_base');

      // SAML identity providers: one created with only its required fields, read back alone and in the list.
      const idp = await json<Obj>(
        await hr.call('POST', '/saml/identity_providers', {
          name: `IdP ${tag}`,
          entity_id: `https://idp-${tag}.example/saml`,
          sso_endpoint: `https://idp-${tag}.example/sso`,
          x509_certificate: SAMPLE_SAML_CERTIFICATE,
        }),
        201,
      );
      add('SamlIdentityProviderFull', 'POST /saml/identity_providers', idp);
      await read('SamlIdentityProviderFull', `/saml/identity_providers/${idp.id}`);
      await read('SamlIdentityProviderFull', '/saml/identity_providers');

      // Document classification and knowledge-base media (issue 48).
      const run = await json<Obj>(
        await hr.call('POST', '/document_type_prediction_run', { document_id: companyDoc.id }),
        202,
      );
      add('DocumentTypePredictionRun', 'POST /document_type_prediction_run', run);
      await read('DocumentTypePredictionRun', `/document_type_prediction_run/${run.id}`);
      const image = new FormData();
      image.append(
        'image',
        new Blob([new Uint8Array(Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64'))]),
        'dot.gif',
      );
      const imageRes = await fetch(`${server.url}/api/v2/client/kb_articles/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hr.token}` },
        body: image,
      });
      add('KbArticleImage', 'POST /kb_articles/images', await json<Obj>(imageRes, 200));
    });
    after(() => server.close());

    it('every schema of the table was met in at least one answer', () => {
      const unmet = REFERENCE_SCHEMAS.filter((ref) => !samples.has(ref.schema)).map(
        (ref) => `${ref.family}: ${ref.schema}`,
      );
      assert.deepEqual(unmet, [], 'schemas no answer was compared with');
    });

    for (const ref of REFERENCE_SCHEMAS) {
      it(`${ref.family}: ${ref.schema} (reference ${ref.section})`, () => {
        const problems: string[] = [];
        for (const sample of samples.get(ref.schema) ?? []) {
          for (const p of missingFields(ref, sample))
            problems.push(`${ref.family} ${ref.schema}, ${sample.where}: ${p}`);
        }
        assert.deepEqual(problems, [], 'fields the reference lists and the answer lacks');
      });
    }
  });
}
