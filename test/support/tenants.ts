/**
 * A "full" tenant of each API: at least one object behind every kind of path id, so the reliability tests
 * (fuzzing, the isolation matrix) reach real objects and not only 404s.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { SAMPLE_SAML_CERTIFICATE } from '../../src/hr/openapi-examples.js';
import { hrTenantId } from '../../src/platform/db/tenant.js';
import { buildDocx } from '../../src/platform/docgen/build-docx.js';
import { type AcademyCaller, academyCaller, eventBody } from './academy.js';
import { textPdf } from './distributions.js';
import { type HrCaller, hrCaller, type TestServer } from './harness.js';

export interface HrTenant {
  caller: HrCaller;
  /** Every object id created, by collection path (`/organizations`, `/requests/{id}/comments`…). */
  ids: Record<string, string[]>;
  /** The `X-Atrium-User-Id` of an HR user of this tenant. */
  userId: string;
}

export interface AcademyTenant {
  caller: AcademyCaller;
  ids: Record<string, number[]>;
}

async function ok<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (res.status < 200 || res.status >= 300) throw new Error(`${what}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A whole 1×1 PNG. */
const PNG_DOT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const PDF = () => Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(600)]);

/** A raw upload of the caller; answers its id. */
export async function uploadFile(
  server: TestServer,
  caller: HrCaller,
  data: Buffer,
  filename: string,
): Promise<string> {
  const res = await fetch(`${server.url}/api/v2/client/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${caller.token}`,
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${filename}"`,
    },
    body: new Uint8Array(data),
  });
  return (await ok<{ id: string }>(res, 'upload')).id;
}

/** A client with organizations, people, documents, a request with a comment and files, a process with tasks, knowledge-base content. */
export async function fullHrTenant(server: TestServer): Promise<HrTenant> {
  const hr = await hrCaller(server);
  const ids: Record<string, string[]> = {};
  const add = (collection: string, id: string) => {
    ids[collection] = [...(ids[collection] ?? []), id];
  };
  const call = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> =>
    ok<T>(await hr.call(method, path, body), `${method} ${path}`);

  await call('PUT', '/organizations/hq', { name: 'HQ' });
  await call('PUT', '/organizations/paris', { name: 'Paris', parent_organization_id: 'hq' });
  add('/organizations', 'hq');
  add('/organizations', 'paris');
  await call('PUT', '/organization_groups/europe', { name: 'Europe', organizations_ids: ['paris'] });
  add('/organization_groups', 'europe');
  await call('PUT', '/roles/hr_admin', { id: 'hr_admin', name: 'HR admin' });
  add('/roles', 'hr_admin');
  const user = await call<{ id: string }>('POST', '/users', {
    firstname: 'Grace',
    lastname: 'Hopper',
    email: `grace-${randomUUID().slice(0, 8)}@example.com`,
    external_id: 'USR-1',
  });
  add('/users', user.id);
  await call('PUT', '/custom_fields/shoe_size', { label: 'Shoe size', type: 'string' }).then(
    () => add('/custom_fields', 'shoe_size'),
    () => undefined,
  );
  const employee = await call<{ id: string }>('POST', '/employees', {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'ada@example.com',
    external_id: 'EMP-1',
    registration_references: [{ organization_id: 'paris', employee_number: 'A1' }],
  });
  add('/employees', employee.id);
  add('/employees/by_external_id', 'EMP-1');

  // Documents of both kinds.
  await call('PUT', '/employee_document_types/payslip', {
    label: 'Payslip',
    localized_labels: [{ language_code: 'en', value: 'Payslip' }],
    folder_id: 'payroll.payslips',
  });
  add('/employee_document_types', 'payslip');
  await call('PUT', '/company_document_types/handbook', {
    localized_labels: [{ language_code: 'en', value: 'Handbook' }],
    folder_id: 'policies.handbooks',
    expiry_date_policy_type: 'no_limit',
  });
  add('/company_document_types', 'handbook');
  const employeeDoc = await call<{ id: string }>('POST', '/employee_documents', {
    employee_id: employee.id,
    document_type_id: 'payslip',
    title: 'January payslip',
    uploaded_file: { file_id: await uploadFile(server, hr, PDF(), 'jan.pdf'), filename: 'jan.pdf' },
  });
  add('/employee_documents', employeeDoc.id);
  const companyDoc = await call<{ id: string }>('POST', '/company_documents', {
    document_type_id: 'handbook',
    title: 'Handbook',
    organization_ids: ['paris'],
    uploaded_file: { file_id: await uploadFile(server, hr, PDF(), 'handbook.pdf'), filename: 'handbook.pdf' },
  });
  add('/company_documents', companyDoc.id);
  // Document classification: a run of the company document.
  const predictionRun = await call<{ id: string }>('POST', '/document_type_prediction_run', {
    document_id: companyDoc.id,
  });
  add('/document_type_prediction_run', predictionRun.id);
  // Distributions (issue 20): a project that validates by itself, with a distribution of one page for EMP-1.
  const distributionProject = await call<{ id: number }>('POST', '/distribution_projects', {
    name: 'November',
    paper_configuration: 'standard',
    automatic_validation: true,
  });
  add('/distribution_projects', String(distributionProject.id));
  const distribution = await call<{ id: number }>('POST', '/distributions', {
    name: 'Payslips',
    distribution_type_id: 'payslip',
    distribution_project_id: distributionProject.id,
    file_id: await uploadFile(server, hr, await textPdf([['Employee ID: EMP-1']]), 'payslips.pdf'),
  });
  add('/distributions', String(distribution.id));
  // Document generation: a template with a version, a document generated from it (sync and async).
  const template = await call<{ id: string }>('POST', '/document_generation_templates', {
    title: 'Certificate',
    description: 'For the isolation matrix',
    locale: 'en-us',
    enabled: true,
  });
  add('/document_generation_templates', template.id);
  const form = new FormData();
  form.append('template', new Blob([Buffer.from(buildDocx([{ paragraph: 'For {$name}' }]))]), 'certificate.docx');
  form.append('syntax_version', 'V2');
  await ok(
    await fetch(`${server.url}/api/v2/client/document_generation_templates/${template.id}/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hr.token}` },
      body: form,
    }),
    'POST /document_generation_templates/{id}/file',
  );
  add('/document_generation_templates/{id}/versions', '1');
  const generated = await call<{ id: string }>('POST', '/document_generations', {
    document_generation_template_id: template.id,
    output_format: 'PDF',
    fields: [{ slug: 'name', value: 'Ada' }],
  });
  add('/document_generations', generated.id);
  const accepted = await call<{ id: string }>('POST', '/document_generations/async', {
    document_generation_template_id: template.id,
    output_format: 'DOCX',
    fields: [{ slug: 'name', value: 'Ada' }],
    employee_id: employee.id,
    document_type_id: 'payslip',
  });
  add('/document_generation_requests', accepted.id);
  const campaign = await call<{ id: string }>('POST', '/document_generation_campaigns', {
    title: 'Certificates',
    document_generation_template_id: template.id,
    output_action: 'zip',
    data: [{ employee_id: employee.id, ref: 'one', fields: [{ slug: 'name', value: 'Ada' }] }],
  });
  add('/document_generation_campaigns', campaign.id);
  // Both run as jobs: done before the tenant is handed over, so that what a test reads of it stays put.
  for (let i = 0; i < 400; i++) {
    const request = await call<{ status: string }>('GET', `/document_generation_requests/${accepted.id}/status`);
    const run = await call<{ status: string }>('GET', `/document_generation_campaigns/${campaign.id}`);
    if (request.status === 'PROCESSED' && run.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  for (const kind of ['employee', 'company']) {
    const folders = await call<{ id: string }[]>('GET', `/${kind}_folders?per_page=5`);
    for (const f of folders) add(`/${kind}_folders`, f.id);
  }

  // Knowledge base.
  const category = randomUUID();
  await call('PUT', `/kb_categories/${category}`, { localized_name: [{ language_code: 'en-us', value: 'Payroll' }] });
  add('/kb_categories', category);
  const article = randomUUID();
  await call('PUT', `/kb_articles/${article}`, {
    categories_ids: [category],
    versions: [{ language_code: 'en-us', title: 'Holidays', body: '<p>Holidays</p>' }],
  });
  add('/kb_articles', article);
  // Knowledge-base media: an image of article bodies, and a "Media" file (filed as the seed does: no route files one).
  const image = new FormData();
  image.append('image', new Blob([new Uint8Array(PNG_DOT)]), 'dot.png');
  const imageRes = await fetch(`${server.url}/api/v2/client/kb_articles/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${hr.token}` },
    body: image,
  });
  add('/article_resources', (await ok<{ url: string }>(imageRes, 'image')).url.split('/').pop() as string);
  await server.app.services.kbMedia.putDocument(
    hrTenantId(hr.creds.client_id),
    'handbook',
    { language_code: 'en-us', title: 'Handbook', filename: 'handbook.pdf' },
    Readable.from([PDF()]),
  );
  add('/article_documents', 'handbook');

  // People Assist: a form, a request with a comment (with an attachment) and a file, a status and a macro.
  await call('PUT', '/request_forms/question', {
    name: 'Question',
    category_id: category,
    formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
  });
  add('/request_forms', 'question');
  const request = await call<{ id: string }>('POST', '/requests', {
    form_id: 'question',
    employee_id: employee.id,
    form_data: [{ field_id: 'subject', values: ['Hello'] }],
    attachment_upload_ids: [await uploadFile(server, hr, PDF(), 'req.pdf')],
  });
  add('/requests', request.id);
  const other = await call<{ id: string }>('POST', '/requests', {
    form_id: 'question',
    employee_id: employee.id,
    form_data: [{ field_id: 'subject', values: ['Linked'] }],
  });
  add('/requests', other.id);
  const comment = await call<{ id: string; attachments?: { id: string }[] }>(
    'POST',
    `/requests/${request.id}/comments`,
    {
      content: 'A comment',
      creator_id: user.id,
      attachment_upload_ids: [await uploadFile(server, hr, PDF(), 'c.pdf')],
    },
  );
  add('/requests/{id}/comments', comment.id);
  for (const a of comment.attachments ?? []) add('/requests/{id}/comments/{comment_id}/attachments', a.id);
  const full: Record<string, unknown> = await call<Record<string, unknown>>(
    'GET',
    `/requests/${request.id}?embed=files`,
  ).catch(() => ({}));
  for (const key of ['files', 'attachments']) {
    const list = full[key];
    if (Array.isArray(list)) for (const f of list) add(`/requests/{id}/${key}`, String((f as { id: unknown }).id));
  }
  await call('POST', `/requests/${request.id}/linked_requests`, { uuid: [other.id] }).catch(() => undefined);
  const statuses = await call<{ id: string }[]>('GET', '/custom_status?per_page=5');
  for (const s of statuses) add('/custom_status', String(s.id));
  const macros = await call<{ id: string }[]>('GET', '/macros?per_page=5');
  for (const m of macros) add('/macros', String(m.id));

  // Process automation: a template with a task template, a published process and its tasks.
  await call('PUT', '/process_templates/onb', { title: 'Onboarding', public_title: 'Welcome', description: 'D' });
  add('/process_templates', 'onb');
  await call('PUT', '/process_templates/onb/task_templates/welcome', {
    type: 'basic',
    name: 'Welcome',
    assigned_to: 'employee',
    message: 'Hi',
  });
  add('/process_templates/{process_template_id}/task_templates', 'welcome');
  const process = await call<{ id: string }>('POST', '/processes', {
    process_template_id: 'onb',
    publish: true,
    employee_id: employee.id,
    creator_id: user.id,
  });
  add('/processes', process.id);
  const tasks = await call<{ id: string }[]>('GET', `/tasks?process_id=${process.id}`);
  for (const t of tasks) add('/tasks', t.id);
  // Process automation extras: a PDF template, a post-process action, the employee's settings.
  await call('PUT', '/process_pdf_templates/onb-contract', {
    name: 'Contract',
    upload_id: await uploadFile(server, hr, PDF(), 'contract.pdf'),
    signature_zones: [{ id: 'employee', name: 'Employee', page: 1, x: 10, y: 10 }],
    form_mapping: [{ pdf_field_name: 'Name', form_field_id: 'name' }],
  });
  add('/process_pdf_templates', 'onb-contract');
  await call('POST', `/processes/${process.id}/post_process_action`, { type: 'shared_inboxes', ids: ['hr-desk'] });
  add('/employee_settings', employee.id);

  // HR sync (issue 19): a dataset with a value, a dataset import, a CSV import and bulk calls, each run to its end.
  await call('PUT', '/datasets/regions', {
    localized_names: [{ language_code: 'en-us', value: 'Regions' }],
    dimensions: [{ id: 'regions', localized_names: [] }],
  });
  add('/datasets', 'regions');
  await call('PUT', '/datasets/regions/values/emea', { localized_names: [{ language_code: 'en-us', value: 'EMEA' }] });
  add('/datasets/{id}/values', 'emea');
  const datasetImport = await call<{ id: string }>('POST', '/dataset_imports', {
    dataset_id: 'regions',
    upload_id: await uploadFile(server, hr, Buffer.from('regions\nemea\napac\n'), 'regions.csv'),
  });
  add('/dataset_imports', datasetImport.id);
  const csvImport = await call<{ id: string }>('POST', '/imports', {
    type: 'organization',
    uploaded_file: { file_id: await uploadFile(server, hr, Buffer.from('id;name\nlyon;Lyon\n'), 'orgs.csv') },
  });
  add('/imports', csvImport.id);
  const employeesBulk = await call<{ request_id: string }>('PATCH', '/employees/bulk', [
    { employee_id: employee.id, data: { middlename: 'Augusta' } },
  ]);
  add('/employees/bulk', employeesBulk.request_id);
  const usersBulk = await call<{ request_id: string }>('PATCH', '/users/bulk', [
    { manager_id: user.id, data: { middlename: 'Brewster' } },
  ]);
  add('/users/bulk', usersBulk.request_id);
  // SAML: an active identity provider of the employees.
  const idp = await call<{ id: string }>('POST', '/saml/identity_providers', {
    name: 'Acme IdP',
    entity_id: 'https://idp.acme.example/saml',
    sso_endpoint: 'https://idp.acme.example/sso',
    x509_certificate: SAMPLE_SAML_CERTIFICATE,
    activated: true,
    scope: 'employee',
  });
  add('/saml/identity_providers', idp.id);
  // Their jobs (and the distribution's) end before the tenant is used, so that nothing of it changes afterwards (a test stopping the job
  // runner runs them here).
  const deadline = Date.now() + 60_000;
  for (;;) {
    await server.app.services.jobs.runDue();
    const done = await Promise.all([
      call<{ status: string }>('GET', `/dataset_imports/${datasetImport.id}`).then((i) => i.status === 'finished'),
      call<{ status: string }>('GET', `/imports/${csvImport.id}`).then((i) => i.status === 'success'),
      call<{ summary: { status: string } }>('GET', `/employees/bulk/${employeesBulk.request_id}`).then(
        (b) => b.summary.status === 'completed',
      ),
      call<{ summary: { status: string } }>('GET', `/users/bulk/${usersBulk.request_id}`).then(
        (b) => b.summary.status === 'completed',
      ),
      call<{ status: string }>('GET', `/distributions/${distribution.id}`).then((d) => d.status === 'completed'),
    ]);
    if (done.every(Boolean)) break;
    if (Date.now() > deadline) throw new Error('the HR sync jobs of the tenant did not end');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { caller: hr, ids, userId: user.id };
}

/** An academy with its directory, an event of each kind (the in-class one a bundle with an offer) and registrations. */
export async function fullAcademyTenant(server: TestServer): Promise<AcademyTenant> {
  const academy = await academyCaller(server);
  const ids: Record<string, number[]> = { '/users': [101, 102], '/courses': [500], '/curriculums': [600] };
  for (const kind of ['ilt', 'vc'] as const) {
    const event = await academy.json<{ id: number }>('POST', `/events/${kind}`, eventBody(kind));
    ids[`/events/${kind}`] = [event.id];
    await academy.json('POST', `/events/${kind}/${event.id}/users`, { userIds: [101, 102] }, 201);
  }
  const ilt = ids['/events/ilt']?.[0] as number;
  await academy
    .json('PUT', `/events/ilt/${ilt}/convertToBundle`, { canMulti: 'no', customDates: ['05/19/2031'] }, 200)
    .catch(() => undefined);
  return { caller: academy, ids };
}
