/**
 * What an invalid input costs (issue 16, items 1 and 9): the errors an answer lists are capped, a large invalid
 * input is not checked for every error, and numbers are what JSON and the documentation say they are.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type AcademyCaller, academyCaller, eventBody } from '../support/academy.js';
import { dialects, type HrCaller, hrCaller, startServer, type TestServer } from '../support/harness.js';
import { fetchOpenApi, operations } from '../support/openapi.js';

interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** The answer's status, size in bytes and parsed body. */
async function answer(res: Response): Promise<{ status: number; bytes: number; body: Record<string, unknown> }> {
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) as Record<string, unknown> };
}

const KIB = 1024;

// Validation does not depend on the database: one dialect is enough.
const dialect = dialects()[0] ?? 'sqlite';

describe('bounded validation errors', () => {
  let server: TestServer;
  let hr: HrCaller;
  let readOnly: HrCaller;
  let academy: AcademyCaller;
  let eventId: number;

  before(async () => {
    server = await startServer(dialect);
    hr = await hrCaller(server);
    readOnly = await hrCaller(server, { readOnly: true });
    academy = await academyCaller(server);
    eventId = (await academy.json<{ id: number }>('POST', '/events/ilt', eventBody('ilt'), 201)).id;
  });
  after(() => server.close());

  it('200,000 wrong items: one small answer, while other requests are answered', async () => {
    const body = `{"employee_numbers":[${Array(200_000).fill('1').join(',')}]}`;
    assert.ok(body.length > 390 * KIB && body.length < 1024 * KIB, 'the attack fits the body limit');
    const attacks = Array.from({ length: 4 }, () => readOnly.call('POST', '/employee_documents/search', body));
    const meanwhile = hr.call('GET', '/organizations');
    const [get, ...answers] = await Promise.all([meanwhile, ...attacks]);
    assert.equal(get.status, 200, 'a concurrent GET is answered');
    for (const res of answers) {
      const { status, bytes, body: error } = await answer(res);
      assert.equal(status, 422);
      assert.ok(bytes < 64 * KIB, `${bytes} bytes`);
      const errors = error.errors as FieldError[];
      assert.ok(errors.length <= 101, `${errors.length} errors listed`);
      assert.equal(errors.at(-1)?.code, 'more_errors', 'the last entry says more were not looked for');
      assert.match(errors.at(-1)?.message ?? '', /only its first error is listed/);
      assert.equal(errors[0]?.field.startsWith('employee_numbers'), true);
    }
  });

  it('the Academy API: 200,000 user ids answer 400 with a small body', async () => {
    const body = { userIds: Array(200_000).fill('1') };
    const res = await academy.call('POST', `/events/ilt/${eventId}/users`, body);
    const { status, bytes, body: error } = await answer(res);
    assert.equal(status, 400);
    assert.ok(bytes < 64 * KIB, `${bytes} bytes`);
    assert.ok((error.errors as FieldError[]).length <= 101);
  });

  it('a small input with 150 errors lists the first 100 and counts the rest', async () => {
    // 150 wrong items, well under the values that switch to the first error only.
    const body = { employee_numbers: Array.from({ length: 150 }, (_, i) => i) };
    const res = await readOnly.call('POST', '/employee_documents/search', body);
    const { status, body: error } = await answer(res);
    assert.equal(status, 422);
    const errors = error.errors as FieldError[];
    assert.equal(errors.length, 101);
    assert.equal(errors[0]?.field, 'employee_numbers.0');
    assert.equal(errors[99]?.field, 'employee_numbers.99');
    assert.deepEqual(errors[100], { field: '', code: 'more_errors', message: '50 more errors are not listed.' });
  });

  it('a small input lists every error (no cap note under 100)', async () => {
    const res = await readOnly.call('POST', '/employee_documents/search', { employee_numbers: [1, 'ok', 2] });
    const { status, body: error } = await answer(res);
    assert.equal(status, 422);
    assert.deepEqual(
      (error.errors as FieldError[]).map((e) => [e.field, e.code]),
      [
        ['employee_numbers.0', 'invalid_type'],
        ['employee_numbers.2', 'invalid_type'],
      ],
    );
  });
});

describe('numbers', () => {
  let server: TestServer;
  let hr: HrCaller;
  let academy: AcademyCaller;
  const faq = randomUUID();

  before(async () => {
    server = await startServer(dialect);
    hr = await hrCaller(server);
    academy = await academyCaller(server);
    const created = await hr.call('PUT', `/kb_categories/${faq}`, {
      localized_name: [{ language_code: 'en-us', value: 'FAQ' }],
    });
    assert.equal(created.status, 200, await created.text());
  });
  after(() => server.close());

  it('refuses a non-finite number (1e999) as a validation error, and stores nothing', async () => {
    const res = await hr.call('PATCH', `/kb_categories/${faq}`, '{"order":1e999}');
    const { status, body } = await answer(res);
    assert.equal(status, 422);
    assert.deepEqual(body.errors, [{ field: 'order', code: 'invalid_type', message: 'Must be a finite number.' }]);
    const after = await hr.call('GET', `/kb_categories/${faq}`);
    assert.equal(((await after.json()) as { order: unknown }).order !== null, true);
    assert.equal((await hr.call('PATCH', `/kb_categories/${faq}`, '{"order":-1e999}')).status, 422);
    assert.equal((await hr.call('PATCH', `/kb_categories/${faq}`, '{"order":2.5}')).status, 200);
  });

  for (const value of ['0x10', '1e1', '+5', ' 5', '5.0', '0b1', '']) {
    it(`refuses per_page=${JSON.stringify(value)}: query integers are decimal digits`, async () => {
      const res = await hr.call('GET', `/organizations?per_page=${encodeURIComponent(value)}`);
      const { status, body } = await answer(res);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.code, 'invalid_request');
      assert.match(String(body.message), /per_page/);
    });
  }

  it('takes decimal integers in the query, on both APIs', async () => {
    assert.equal((await hr.call('GET', '/organizations?per_page=16')).status, 200);
    assert.equal((await hr.call('GET', '/organizations?per_page=007')).status, 200);
    assert.equal((await academy.call('GET', '/events/ilt?limit=0x10')).status, 400);
    assert.equal((await academy.call('GET', '/events/ilt?limit=16')).status, 200);
  });
});

describe('every array an API takes has a maxItems', () => {
  it('in every request body and parameter of the OpenAPI document', async () => {
    const server = await startServer(dialect);
    try {
      const doc = await fetchOpenApi(server.url);
      const unbounded = new Set<string>();
      const walk = (schema: unknown, where: string, depth: number) => {
        if (schema === null || typeof schema !== 'object' || depth > 30) return;
        if (Array.isArray(schema)) {
          for (const s of schema) walk(s, where, depth + 1);
          return;
        }
        const s = schema as Record<string, unknown>;
        if (s.type === 'array' && typeof s.maxItems !== 'number') unbounded.add(where);
        for (const [key, value] of Object.entries(s)) {
          const next = key === 'properties' || key === 'items' || key === 'anyOf' || key === 'oneOf' || key === 'allOf';
          if (key === 'properties' && value && typeof value === 'object') {
            for (const [name, property] of Object.entries(value)) walk(property, `${where}.${name}`, depth + 1);
          } else if (next) walk(value, where, depth + 1);
        }
      };
      for (const op of operations(doc)) {
        for (const body of op.body) walk(body.schema, `${op.method} ${op.path} body`, 0);
        for (const p of op.parameters) walk(p.schema, `${op.method} ${op.path} ${p.in} ${p.name}`, 0);
      }
      assert.deepEqual([...unbounded].sort(), [], 'arrays without maxItems');
    } finally {
      await server.close();
    }
  });
});
