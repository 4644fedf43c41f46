/**
 * The HR client API through the SDK: organizations, an employee, a People Assist request, typed errors.
 *
 *   npm run build && node examples/hr.mjs
 */
import { randomUUID } from 'node:crypto';
import { HrClient, HrNotFoundError, HrValidationError } from '@atrium/client';
import { startAtrium } from './server.mjs';

const server = await startAtrium();
try {
  // Credentials, as a customer success contact would hand them over.
  const { client_id } = server.atrium('hr', 'create-client', '--name', 'Acme');
  const app = server.atrium('hr', 'create-application', '--client-id', client_id, '--name', 'SDK example');

  const hr = new HrClient({
    baseUrl: server.baseUrl,
    applicationId: app.application_id,
    applicationSecret: app.application_secret,
    clientId: client_id,
  });

  // PUT is an upsert at a code you choose; the token is fetched on this first call and cached.
  await hr.organizations.upsert('acme', { name: 'Acme' });
  for (const country of ['fr', 'de', 'us']) {
    await hr.organizations.upsert(`acme-${country}`, { name: `Acme ${country}`, parent_organization_id: 'acme' });
  }
  // Every organization, two per page: the SDK follows Next-Cursor.
  const codes = [];
  for await (const org of hr.organizations.list({ per_page: 2 })) codes.push(org.id);
  console.log('organizations:', codes.join(', '));

  const ada = await hr.employees.create({
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'ada@example.com',
    registration_references: [{ organization_id: 'acme-fr', employee_number: '0001' }],
  });

  // A People Assist request: a category, a form, the request, a comment, then close it.
  const category = randomUUID();
  await hr.kbCategories.upsert(category, { localized_name: [{ language_code: 'en-us', value: 'Payroll' }] });
  await hr.requestForms.upsert('payslip-question', {
    name: 'Payslip question',
    category_id: category,
    formidable: {
      fields: [
        {
          slug: 'question',
          label: 'Your question',
          type_id: 'paragraph',
          required: true,
          description: '',
          accesses: [],
        },
      ],
    },
  });
  const request = await hr.requests.create({
    form_id: 'payslip-question',
    employee_id: ada.id,
    form_data: [{ field_id: 'question', values: ['Why is my bonus missing?'] }],
  });
  await hr.requests.comments.create(request.id, { content: 'It was paid in March.', creator_id: ada.id });
  await hr.requests.update(request.id, { status: 'closed' });
  const closed = await hr.requests.list({ status: ['closed'] }).toArray();
  console.log(`request #${request.request_number}: ${closed.length} closed request(s)`);

  // Errors are typed: status, code, message, field errors, request id.
  try {
    await hr.organizations.retrieve('nowhere');
  } catch (error) {
    if (!(error instanceof HrNotFoundError)) throw error;
    console.log(`not found: ${error.code} (request ${error.requestId})`);
  }
  try {
    await hr.organizations.upsert('bad', { name: '' });
  } catch (error) {
    if (!(error instanceof HrValidationError)) throw error;
    console.log('validation:', error.errors.map((e) => `${e.field} ${e.code}`).join(', '));
  }

  await hr.revokeToken();
  console.log('done');
} finally {
  await server.stop();
}
