import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { actingAs } from '../hr/audit/actor.js';
import type { CreatedApplication } from '../hr/core/tenants/service.js';
import { type HrTenantId, hrTenantId } from '../platform/db/tenant.js';
import { withLightCommits } from '../platform/db/transaction.js';
import type { Services } from '../services.js';
import type { Progress } from './progress.js';
import { seedAcademy } from './seed-academy.js';

export const DEMO_CLIENT_NAME = 'Atrium demo client';

/** A small, realistic organization tree for the demo HR client. */
const DEMO_ORGANIZATIONS: { id: string; name: string; parent?: string; city?: string; country?: string }[] = [
  { id: 'acme', name: 'Acme Group', city: 'Paris', country: 'FR' },
  { id: 'acme-fr', name: 'Acme France', parent: 'acme', city: 'Paris', country: 'FR' },
  { id: 'acme-fr-hr', name: 'Human Resources France', parent: 'acme-fr', city: 'Lyon', country: 'FR' },
  { id: 'acme-fr-it', name: 'IT France', parent: 'acme-fr', city: 'Paris', country: 'FR' },
  { id: 'acme-de', name: 'Acme Deutschland', parent: 'acme', city: 'Berlin', country: 'DE' },
  { id: 'acme-de-sales', name: 'Vertrieb Deutschland', parent: 'acme-de', city: 'München', country: 'DE' },
  { id: 'acme-us', name: 'Acme Inc.', parent: 'acme', city: 'New York', country: 'US' },
  { id: 'acme-us-support', name: 'Customer Support US', parent: 'acme-us', city: 'Austin', country: 'US' },
];

/** How many of each thing a seed makes. */
export interface SeedCounts {
  /** Employees, upserted by `external_id` (`demo-1` …). */
  employees: number;
  /** HR users with a role each, upserted by `external_id` (`demo-hr-1` …). */
  users: number;
  /** Employee documents (payslips, contracts), made once per tenant (see `seed`). */
  documents: number;
  /** Requests, each with two comments, made once per tenant. */
  requests: number;
  /** Knowledge base articles, upserted. */
  articles: number;
  /** Onboarding processes (with their tasks), made once per tenant. */
  processes: number;
}

/** `--size`: small for a demo, large for load (about the size of the snapshot benchmark's tenant). */
export const SEED_SIZES: Record<SeedSize, SeedCounts> = {
  small: { employees: 100, users: 10, documents: 100, requests: 50, articles: 12, processes: 10 },
  large: { employees: 10_000, users: 100, documents: 1_000, requests: 50_000, articles: 200, processes: 1_000 },
};
export type SeedSize = 'small' | 'large';

export interface SeedOptions extends SeedCounts {
  /** The CLI's progress bars: a phase per kind of thing, a tick per thing. */
  progress?: Pick<Progress, 'start' | 'tick' | 'stop'>;
}

/** What a run made or updated, by kind (the wire names of the HR API). */
export interface SeedSummary {
  organizations: number;
  organization_groups: number;
  employees: number;
  roles: number;
  users: number;
  employee_document_types: number;
  employee_documents: number;
  kb_categories: number;
  kb_articles: number;
  request_forms: number;
  requests: number;
  comments: number;
  process_templates: number;
  processes: number;
  tasks: number;
  document_generation_templates: number;
  saml_identity_providers: number;
}

export interface SeedResult {
  hr: CreatedApplication;
  academy: { acadId: number; apikey: string };
  summary: SeedSummary;
}

/** Organizations that employees belong to: the leaves of the demo tree. */
const LEAVES = DEMO_ORGANIZATIONS.filter((org) => !DEMO_ORGANIZATIONS.some((child) => child.parent === org.id));

/** ASCII letters only (emails are ASCII): `Chloé Müller` → `chloe`, `muller`. */
function ascii(name: string): string {
  return name
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** A stable UUID for the `i`-th demo thing of a kind in a tenant, so that a second run upserts the same rows. */
function demoId(clientId: HrTenantId, kind: string, i: number): string {
  const h = createHash('sha256').update(`atrium-seed:${clientId}:${kind}:${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A one-page PDF showing `lines`, written from its objects (byte offsets computed), for the demo documents. */
function demoPdf(lines: string[]): Buffer {
  const text = lines
    .map((line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${760 - i * 22} Td (${ascii7(line)}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Printable ASCII without the PDF string's special characters (a demo page needs no more). */
function ascii7(text: string): string {
  return text.normalize('NFD').replace(/[^\x20-\x7e]|[()\\]/g, '');
}

const KB_CATEGORIES = [
  { id: 'pay', en: 'Pay and benefits', fr: 'Paie et avantages' },
  { id: 'leave', en: 'Time off', fr: 'Congés et absences' },
  { id: 'it', en: 'IT and equipment', fr: 'Informatique et matériel' },
];

const QUESTIONS: Record<string, string[]> = {
  pay: ['My payslip shows the wrong bonus', 'When is the meal allowance paid?', 'Change of bank account'],
  leave: ['How many days of leave do I have left?', 'Parental leave request', 'Sick leave certificate'],
  it: ['My laptop does not start', 'Access to the shared drive', 'New phone for field work'],
};

/**
 * Fills a demo tenant of each API and prints fresh credentials. Running it again reuses the tenant and adds a new
 * application, so earlier credentials keep working.
 *
 * Made with @faker-js/faker from a fixed seed, so each run makes the same people and texts:
 * - upserted every run: the organizations, employees (`demo-i`, employee number `E00000i`, in the leaf
 *   organizations in turn), roles, users (`demo-hr-i`), the document types, the KB categories and articles (stable
 *   ids), the request forms and the process template;
 * - made once per tenant, by the run that creates the request forms: documents, requests with their comments, and
 *   processes with their tasks (a later run leaves them as they are, so it never duplicates them).
 */
export async function seed(services: Services, options: SeedOptions): Promise<SeedResult> {
  return actingAs({ type: 'system', name: 'atrium seed' }, async () => {
    const clientId = hrTenantId((await services.tenants.ensureClient(DEMO_CLIENT_NAME)).client_id);
    for (const org of DEMO_ORGANIZATIONS) {
      await services.organizations.put(clientId, org.id, {
        name: org.name,
        parent_organization_id: org.parent ?? null,
        city: org.city ?? null,
        country: org.country ?? null,
      });
    }
    await services.organizationGroups.put(clientId, 'europe', {
      name: 'Europe',
      organizations_ids: ['acme-fr', 'acme-fr-hr', 'acme-fr-it', 'acme-de', 'acme-de-sales'],
    });
    const summary = await seedHr(services, clientId, options);
    const hr = await services.tenants.createApplication(
      clientId,
      `Seed application ${new Date().toISOString()}`,
      false,
    );
    return { hr, academy: await seedAcademy(services), summary };
  });
}

/** Runs `make` for 1..count under a progress phase; rows commit without a flush each (withLightCommits). */
type Phase = (label: string, count: number, make: (i: number) => Promise<void>) => Promise<void>;

/** What each part of the HR seed works with: the tenant, the fakers, the progress phases, the running summary. */
interface HrSeed {
  services: Services;
  clientId: HrTenantId;
  summary: SeedSummary;
  phase: Phase;
  /** The faker of employees of a country (French, German, or English for any other). */
  fakerOf: (country: string | undefined) => Faker;
  /** The English faker: users, articles, requests and comments. */
  other: Faker;
}

type Faker = InstanceType<typeof import('@faker-js/faker').Faker>;

const DEMO_ROLES = [
  { id: 'demo-hr-admin', name: 'HR administrator', organization: null },
  { id: 'demo-hr-france', name: 'HR France', organization: 'acme-fr' },
  { id: 'demo-it-support', name: 'IT support', organization: 'acme-fr-it' },
];

const DOCUMENT_TYPES = [
  { id: 'demo-payslip', label: 'Payslip', fr: 'Bulletin de paie' },
  { id: 'demo-contract', label: 'Employment contract', fr: 'Contrat de travail' },
];

const ONBOARDING_STEPS = [
  { id: 'welcome', name: 'Read the welcome pack', assigned_to: 'employee' as const },
  { id: 'equipment', name: 'Prepare the laptop and badge', assigned_to: 'users' as const },
  { id: 'first-week', name: 'Plan the first week', assigned_to: 'users' as const },
];

async function seedHr(services: Services, clientId: HrTenantId, options: SeedOptions): Promise<SeedSummary> {
  const summary: SeedSummary = {
    organizations: DEMO_ORGANIZATIONS.length,
    organization_groups: 1,
    employees: 0,
    roles: 0,
    users: 0,
    employee_document_types: 0,
    employee_documents: 0,
    kb_categories: 0,
    kb_articles: 0,
    request_forms: 0,
    requests: 0,
    comments: 0,
    process_templates: 0,
    processes: 0,
    tasks: 0,
    document_generation_templates: 0,
    saml_identity_providers: 0,
  };
  const { fakerOf, other } = await demoFakers();
  const seed: HrSeed = { services, clientId, summary, phase: phases(options.progress), fakerOf, other };

  const employeeIds = await seedEmployees(seed, options.employees);
  const userIds = await seedUsers(seed, options.users);
  await seedDocumentTypes(seed);
  const categoryIds = await seedKnowledgeBase(seed, options.articles);
  const formsCreated = await seedRequestForms(seed, categoryIds);
  await seedProcessTemplate(seed);
  await seedGenerationTemplates(seed);
  await seedSamlIdentityProvider(seed);

  // Activity is made once per tenant: by the run that created the request forms.
  if (!formsCreated || employeeIds.length === 0) return summary;
  await seedActivity(seed, options, employeeIds, userIds);
  return summary;
}

/** The fakers of the seed, each from a fixed seed, so each run makes the same people and texts. */
async function demoFakers(): Promise<Pick<HrSeed, 'fakerOf' | 'other'>> {
  // Loaded here: the library is large, and only a seed needs it.
  const { Faker, de, en, fr, base } = await import('@faker-js/faker');
  const byCountry = { FR: new Faker({ locale: [fr, en, base] }), DE: new Faker({ locale: [de, en, base] }) };
  const other = new Faker({ locale: [en, base] });
  for (const [i, faker] of [...Object.values(byCountry), other].entries()) faker.seed(20_310_615 + i);
  const fakerOf = (country: string | undefined) => byCountry[country as keyof typeof byCountry] ?? other;
  return { fakerOf, other };
}

/** The phases of a seed, under the CLI's progress bars when there are some. */
function phases(progress: SeedOptions['progress']): Phase {
  return async (label, count, make) => {
    if (count <= 0) return;
    progress?.start(label, count);
    try {
      await withLightCommits(async () => {
        for (let i = 1; i <= count; i++) {
          await make(i);
          progress?.tick();
        }
      });
    } finally {
      progress?.stop();
    }
  };
}

/** Employees `demo-1` … in the leaf organizations in turn; their ids, in order. */
async function seedEmployees({ services, clientId, summary, phase, fakerOf }: HrSeed, count: number) {
  const refDate = '2026-01-01';
  const employeeIds: string[] = [];
  await phase('employees', count, async (i) => {
    const org = LEAVES[(i - 1) % LEAVES.length] as (typeof LEAVES)[number];
    const faker = fakerOf(org.country);
    const sex = faker.person.sexType();
    const firstname = faker.person.firstName(sex);
    const lastname = faker.person.lastName(sex);
    const { view } = await services.employees.upsertByExternalId(clientId, `demo-${i}`, {
      firstname,
      lastname,
      email: `${ascii(firstname) || 'employee'}.${ascii(lastname) || 'demo'}.${i}@acme.example`,
      language: org.country === 'FR' ? 'fr' : org.country === 'DE' ? 'de' : 'en',
      country: org.country ?? null,
      city: org.city ?? null,
      birth_date: faker.date.birthdate({ mode: 'age', min: 20, max: 64, refDate }).toISOString().slice(0, 10),
      starting_date: faker.date.past({ years: 15, refDate }).toISOString().slice(0, 10),
      mobile_phone_number: faker.string.numeric({ length: 12, allowLeadingZeros: true }),
      registration_references: [{ organization_id: org.id, employee_number: `E${String(i).padStart(6, '0')}` }],
    });
    employeeIds.push(view.row.id);
    summary.employees++;
  });
  return employeeIds;
}

/** The demo roles, then HR users `demo-hr-1` … with one of them each; the users' ids, in order. */
async function seedUsers({ services, clientId, summary, phase, other }: HrSeed, count: number) {
  const roles = DEMO_ROLES;
  for (const role of roles) await services.roles.put(clientId, role.id, { id: role.id, name: role.name });
  summary.roles = roles.length;
  const userIds: string[] = [];
  await phase('users', count, async (i) => {
    const faker = other;
    const firstname = faker.person.firstName();
    const lastname = faker.person.lastName();
    const role = roles[(i - 1) % roles.length] as (typeof roles)[number];
    const externalId = `demo-hr-${i}`;
    const found = await services.users.list(clientId, { external_id: externalId }, { limit: 1, sort: [], at: {} });
    const input = {
      external_id: externalId,
      firstname,
      lastname,
      email: `${ascii(firstname) || 'user'}.${ascii(lastname) || 'demo'}.hr${i}@acme.example`,
      profiles: [
        {
          role_id: role.id,
          employees_perimeter: {
            operator: '<=' as const,
            ...(role.organization ? { organization_id: role.organization } : {}),
            custom_field_filters: [],
          },
        },
      ],
    };
    const existing = found.items[0];
    const user = existing
      ? await services.users.put(clientId, existing.id, input)
      : await services.users.create(clientId, input);
    userIds.push(user.id);
    summary.users++;
  });
  return userIds;
}

async function seedDocumentTypes({ services, clientId, summary }: HrSeed): Promise<void> {
  const types = DOCUMENT_TYPES;
  for (const type of types) {
    await services.documentTypes.put(clientId, 'employee', type.id, {
      label: type.label,
      localized_labels: [
        { language_code: 'en-us', value: type.label },
        { language_code: 'fr-fr', value: type.fr },
      ],
      file_type_restrictions: ['pdf'],
    });
  }
  summary.employee_document_types = types.length;
}

/** The KB categories and articles (stable ids); the categories' ids, in the order of KB_CATEGORIES. */
async function seedKnowledgeBase({ services, clientId, summary, phase, other }: HrSeed, count: number) {
  const categoryIds = KB_CATEGORIES.map((c) => demoId(clientId, 'kb-category', KB_CATEGORIES.indexOf(c)));
  for (const [i, category] of KB_CATEGORIES.entries()) {
    await services.kbCategories.put(clientId, categoryIds[i] as string, {
      localized_name: [
        { language_code: 'en-us', value: category.en },
        { language_code: 'fr-fr', value: category.fr },
      ],
    });
  }
  summary.kb_categories = KB_CATEGORIES.length;
  await phase('kb articles', count, async (i) => {
    const category = (i - 1) % KB_CATEGORIES.length;
    const question = QUESTIONS[(KB_CATEGORIES[category] as (typeof KB_CATEGORIES)[number]).id] as string[];
    const title = `${question[(i - 1) % question.length]}${i > KB_CATEGORIES.length * 3 ? ` (${i})` : ''}`;
    await services.kbArticles.put(clientId, demoId(clientId, 'kb-article', i), {
      categories_ids: [categoryIds[category] as string],
      versions: [
        {
          language_code: 'en-us',
          title,
          body: `<p>${other.lorem.paragraphs(2, '</p><p>')}</p>`,
        },
      ],
      status: 'published',
    });
    summary.kb_articles++;
  });
  for (const media of KB_MEDIA) {
    await services.kbMedia.putDocument(
      clientId,
      media.id,
      { language_code: 'en-us', title: media.title, description: media.description, filename: media.filename },
      Readable.from([Buffer.from(media.content, 'latin1')]),
    );
  }
  return categoryIds;
}

/** A PDF of one page that says `text` (Helvetica, no compression). */
function onePagePdf(text: string): string {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  return `${pdf}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

/**
 * The knowledge base's "Media" files (`GET /article_documents/{slug}`): no path of the API files them, so the seed
 * does (docs/hr-api.md, "Images and media files"), again on each run.
 */
const KB_MEDIA = [
  {
    id: 'employee-handbook',
    title: 'Employee handbook',
    description: 'What every employee should know, in one page.',
    filename: 'employee-handbook.pdf',
    content: onePagePdf('Employee handbook'),
  },
  {
    id: 'holiday-calendar',
    title: 'Holiday calendar',
    description: 'The public holidays of the year.',
    filename: 'holiday-calendar.pdf',
    content: onePagePdf('Holiday calendar'),
  },
];

/** A request form per KB category; whether this run created any (the tenant's first run). */
async function seedRequestForms({ services, clientId, summary }: HrSeed, categoryIds: string[]): Promise<boolean> {
  let formsCreated = false;
  for (const [i, category] of KB_CATEGORIES.entries()) {
    const { created } = await services.requestForms.put(clientId, `demo-${category.id}`, {
      name: `${category.en} question`,
      category_id: categoryIds[i] as string,
      formidable: {
        fields: [
          { slug: 'subject', label: 'Subject', type_id: 'text', description: '', accesses: [], required: true },
          { slug: 'details', label: 'Details', type_id: 'paragraph', description: '', accesses: [] },
        ],
      },
    });
    formsCreated ||= created;
  }
  summary.request_forms = KB_CATEGORIES.length;
  return formsCreated;
}

/** The onboarding process template and its task templates. */
async function seedProcessTemplate({ services, clientId, summary }: HrSeed): Promise<void> {
  await services.processTemplates.put(
    clientId,
    'demo-onboarding',
    { title: 'Onboarding' },
    { origin: 'application', id: 'atrium-seed' },
  );
  const steps = ONBOARDING_STEPS;
  for (const step of steps) {
    await services.processTemplates.putTaskTemplate(clientId, 'demo-onboarding', step.id, {
      type: 'basic',
      name: step.name,
      assigned_to: step.assigned_to,
    });
  }
  summary.process_templates = 1;
}

/**
 * Two document generation templates, each with a version (uploaded once per tenant): the employment certificate
 * in the V2 syntax, and the same certificate in the older V1 syntax, for the syntax migration.
 */
async function seedGenerationTemplates({ services, clientId, summary }: HrSeed): Promise<void> {
  const { certificateTemplate } = await import('../hr/document-generation/samples.js');
  const templates = [
    { i: 0, title: 'Employment certificate', syntax: 'V2' as const },
    { i: 1, title: 'Employment certificate (V1 syntax)', syntax: 'V1' as const },
  ];
  for (const t of templates) {
    const id = demoId(clientId, 'docgen-template', t.i);
    const { template } = await services.documentGenerationTemplates.put(clientId, id, {
      title: t.title,
      description: 'A demo template: a value, a date, a table of rows and a condition.',
      locale: 'en-us',
      enabled: true,
    });
    if (template.latestVersion === 0) {
      await services.documentGenerationVersions.upload(clientId, id, {
        filename: 'employment-certificate.docx',
        bytes: certificateTemplate(t.syntax),
        syntaxVersion: t.syntax,
      });
    }
  }
  summary.document_generation_templates = templates.length;
}

/** An inactive SAML identity provider of the employees, with a sample certificate (Atrium signs no one on). */
async function seedSamlIdentityProvider({ services, clientId, summary }: HrSeed): Promise<void> {
  const { SAMPLE_SAML_CERTIFICATE } = await import('../hr/openapi-examples.js');
  await services.samlIdentityProviders.put(clientId, demoId(clientId, 'saml-idp', 0), {
    name: 'Acme IdP',
    entity_id: 'https://idp.acme.example/saml',
    sso_endpoint: 'https://idp.acme.example/sso',
    x509_certificate: SAMPLE_SAML_CERTIFICATE,
    scope: 'employee',
    workflow_type: 'SP initiated',
  });
  summary.saml_identity_providers = 1;
}

/** Made once per tenant: documents, requests with their comments, processes with their tasks. */
async function seedActivity(seed: HrSeed, options: SeedOptions, employeeIds: string[], userIds: string[]) {
  const { services, clientId, summary, phase, other } = seed;
  const types = DOCUMENT_TYPES;
  const employee = (i: number) => employeeIds[(i - 1) % employeeIds.length] as string;
  await phase('documents', options.documents, async (i) => {
    const type = types[(i - 1) % types.length] as (typeof types)[number];
    const month = ((i - 1) % 12) + 1;
    const filename = `${type.id.slice(5)}-2025-${String(month).padStart(2, '0')}.pdf`;
    const title = type.id === 'demo-payslip' ? `Payslip 2025-${String(month).padStart(2, '0')}` : type.label;
    const bytes = demoPdf([title, `Acme Group - employee demo-${((i - 1) % employeeIds.length) + 1}`, 'Demo data']);
    const upload = await services.uploads.create(clientId, filename, Readable.from([bytes]));
    await services.documents.create(clientId, 'employee', {
      employee_id: employee(i),
      document_type_id: type.id,
      title,
      date: `2025-${String(month).padStart(2, '0')}-28`,
      uploaded_file: { filename, file_id: upload.id },
    });
    summary.employee_documents++;
  });
  await phase('requests', options.requests, async (i) => {
    const category = KB_CATEGORIES[(i - 1) % KB_CATEGORIES.length] as (typeof KB_CATEGORIES)[number];
    const questions = QUESTIONS[category.id] as string[];
    const request = await services.requests.create(
      clientId,
      {
        form_id: `demo-${category.id}`,
        employee_id: employee(i),
        form_data: [
          { field_id: 'subject', values: [questions[(i - 1) % questions.length] as string] },
          { field_id: 'details', values: [other.lorem.sentences(2)] },
        ],
      },
      { kind: 'application' },
    );
    summary.requests++;
    await services.requestComments.comment(clientId, request.row.id, {
      content: other.lorem.sentence(),
      creator_id: employee(i),
    });
    summary.comments++;
    const user = userIds[(i - 1) % Math.max(1, userIds.length)];
    if (user) {
      await services.requestComments.comment(clientId, request.row.id, {
        content: other.lorem.sentence(),
        creator_id: user,
      });
      summary.comments++;
    }
  });
  const creator = userIds[0];
  if (creator) {
    await phase('processes', options.processes, async (i) => {
      const process = await services.processes.create(clientId, {
        process_template_id: 'demo-onboarding',
        publish: true,
        employee_id: employee(i),
        creator_id: creator,
      });
      summary.processes++;
      summary.tasks += process.taskIds.length;
    });
  }
}
