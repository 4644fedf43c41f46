import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { HrCaller, TestServer } from './harness.js';

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
export async function fieldErrors(res: Response): Promise<[string, string][]> {
  const body = await json<ErrorBody>(res, 422);
  assert.equal(body.code, 'validation_error');
  return (body.errors ?? []).map((e) => [e.field, e.code]);
}

/** POST /uploads with raw bytes; answers the upload id. */
export async function upload(server: TestServer, caller: HrCaller, data: Buffer, filename: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v2/client/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${caller.token}`,
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${filename}"`,
    },
    body: data,
  });
  return (await json<{ id: string }>(res, 201)).id;
}

/** A knowledge-base category named `name`; answers its id. */
export async function category(caller: HrCaller, name: string): Promise<string> {
  const id = randomUUID();
  const res = await caller.call('PUT', `/kb_categories/${id}`, {
    localized_name: [{ language_code: 'en-us', value: name }],
  });
  assert.ok(res.status === 200 || res.status === 201, `PUT /kb_categories answered ${res.status}: ${await res.text()}`);
  return id;
}

export async function employee(
  caller: HrCaller,
  body: {
    firstname: string;
    lastname: string;
    external_id?: string;
    registration_references: { organization_id: string; employee_number: string }[];
  },
): Promise<string> {
  return (
    await json<{ id: string }>(
      await caller.call('POST', '/employees', { email: `${body.firstname}@example.com`, ...body }),
      201,
    )
  ).id;
}

export async function hrUser(caller: HrCaller, firstname: string, external_id?: string): Promise<string> {
  const body = {
    firstname,
    lastname: 'User',
    email: `${firstname.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`,
    ...(external_id ? { external_id } : {}),
  };
  return (await json<{ id: string }>(await caller.call('POST', '/users', body), 201)).id;
}

/** A simple request form: one required text field `subject`, linked to an employee. */
export async function simpleForm(
  caller: HrCaller,
  slug: string,
  categoryId: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await json(
    await caller.call('PUT', `/request_forms/${slug}`, {
      name: `Form ${slug}`,
      category_id: categoryId,
      formidable: { fields: [{ slug: 'subject', label: 'Subject', type_id: 'text', required: true }] },
      ...extra,
    }),
    200,
  );
}
