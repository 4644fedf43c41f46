import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { HrCaller, TestServer } from './harness.js';

/** Helpers shared by the process automation tests. */

export interface ErrorBody {
  code: string;
  message: string;
  errors?: { field: string; code: string; message: string }[];
}

export async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The `[field, code]` pairs of a 422 validation error. */
export async function fields(res: Response): Promise<[string, string][]> {
  const body = await json<ErrorBody>(res, 422);
  assert.equal(body.code, 'validation_error', JSON.stringify(body));
  return (body.errors ?? []).map((e) => [e.field, e.code]);
}

/** The code of an error answer with this status. */
export async function code(res: Response, status: number): Promise<string> {
  return (await json<ErrorBody>(res, status)).code;
}

/** A raw upload; answers its id. */
export async function upload(server: TestServer, caller: HrCaller, data: Buffer, filename: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v2/client/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${caller.token}`,
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${filename}"`,
    },
    body: new Uint8Array(data),
  });
  return (await json<{ id: string }>(res, 201)).id;
}

export const PDF = () =>
  Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), randomBytes(2000)]);

export interface People {
  employeeId: string;
  employeeExternalId: string;
  userId: string;
  userExternalId: string;
}

/** An organization, an employee, a role and an HR user in the caller's client. */
export async function people(caller: HrCaller, tag = randomBytes(3).toString('hex')): Promise<People> {
  const org = `org-${tag}`;
  await json(await caller.call('PUT', `/organizations/${org}`, { name: org }), 201);
  const employeeExternalId = `EMP-${tag}`;
  const employee = await json<{ id: string }>(
    await caller.call('POST', '/employees', {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: `ada-${tag}@example.com`,
      external_id: employeeExternalId,
      registration_references: [{ organization_id: org, employee_number: `N-${tag}` }],
    }),
    201,
  );
  const role = await caller.call('PUT', '/roles/hr_admin', { id: 'hr_admin', name: 'HR admin' });
  assert.ok([200, 201].includes(role.status), `role: ${role.status}`);
  await role.body?.cancel();
  const userExternalId = `USR-${tag}`;
  const user = await json<{ id: string }>(
    await caller.call('POST', '/users', {
      firstname: 'Grace',
      lastname: 'Hopper',
      email: `grace-${tag}@example.com`,
      external_id: userExternalId,
    }),
    201,
  );
  return { employeeId: employee.id, employeeExternalId, userId: user.id, userExternalId };
}

/** The form of the fill_form tests: a required text, a number with bounds, a radio, an optional file. */
export const FORM = {
  label: 'Onboarding',
  fields: [
    { slug: 'intro', label: 'Welcome', type_id: 'title', description: '', accesses: [] },
    { slug: 'name', label: 'Name', type_id: 'text', description: '', accesses: [], required: true },
    {
      slug: 'age',
      label: 'Age',
      type_id: 'number',
      description: '',
      accesses: [],
      validations: [{ type: 'GTE', value: 16 }],
    },
    {
      slug: 'size',
      label: 'T-shirt',
      type_id: 'radios',
      description: '',
      accesses: [],
      items: [
        { label: 'S', value: 's' },
        { label: 'M', value: 'm' },
      ],
    },
    { slug: 'id_card', label: 'ID card', type_id: 'file', description: '', accesses: [] },
  ],
};
