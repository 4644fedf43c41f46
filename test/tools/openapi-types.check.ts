/**
 * `npm run lint:openapi`, after Redocly's lint (issue 17, item 9): openapi-typescript generates types from the built
 * OpenAPI document (dist/openapi/openapi.json, written by `npm run build`), and a small consumer compiles against
 * them, with the pagination headers (Link, Next-Cursor, Previous-Cursor) typed as strings. Not part of `npm test`
 * (it takes about 15 s): a `.check.ts` file, run by `.ci/run`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { ROOT } from '../support/root.js';

describe('openapi-typescript', () => {
  let doc: object;
  let dir: string;
  before(() => {
    doc = JSON.parse(readFileSync(path.join(ROOT, 'dist/openapi/openapi.json'), 'utf8')) as object;
    dir = mkdtempSync(path.join(tmpdir(), 'atrium-openapi-types-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('openapi-typescript generates types a consumer compiles against, with the pagination headers typed', async () => {
    writeFileSync(path.join(dir, 'atrium-api.ts'), astToString(await openapiTS(doc as never)));
    const consumer = path.join(dir, 'consumer.ts');
    writeFileSync(
      consumer,
      `import type { operations, paths } from './atrium-api';

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type NotAny<T> = 0 extends 1 & T ? false : true;

type Page = paths['/api/v2/client/organizations']['get']['responses'][200];
export const link: Exactly<NonNullable<Page['headers']['Link']>, string> = true;
export const next: Exactly<NonNullable<Page['headers']['Next-Cursor']>, string> = true;
export const previous: Exactly<NonNullable<Page['headers']['Previous-Cursor']>, string> = true;
export const notAny: NotAny<Page['headers']['Next-Cursor']> = true;
// By operationId: the comments of a request come a page at a time too.
type Comments = operations['hr_requests_comments_list']['responses'][200];
export const comments: Exactly<NonNullable<Comments['headers']['Next-Cursor']>, string> = true;
export const body: Comments['content']['application/json'][number]['content'] = 'It was paid in March.';
// @ts-expect-error a cursor is a string, not a number
export const wrong: Page['headers'] = { 'Next-Cursor': 42 };
// @ts-expect-error no such operation
export type Missing = operations['hr_requests_comments_all'];
`,
    );
    const program = ts.createProgram([consumer], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(diagnostics, []);
  });
});
