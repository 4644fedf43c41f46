import assert from 'node:assert/strict';
import { unzipSync } from 'fflate';
import type { Kysely } from 'kysely';
import type { Tables } from '../../src/platform/db/schema.js';
import { buildDocx, type DocxBlock } from '../../src/platform/docgen/build-docx.js';
import { ZipPackage } from '../../src/platform/docgen/zip-package.js';
import { enqueue } from '../../src/platform/jobs/index.js';
import type { HrCaller, TestServer } from './harness.js';

/** A template's id after `POST /document_generation_templates`. */
export async function createTemplate(
  caller: HrCaller,
  body: Record<string, unknown> = {},
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await caller.call('POST', '/document_generation_templates', {
    title: 'Employment certificate',
    description: 'Issued on request',
    locale: 'en-us',
    enabled: true,
    ...body,
  });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text) as { id: string };
}

/** `POST …/{id}/file` with a DOCX (multipart `template`, `format`, `syntax_version`); answers the response. */
export function uploadTemplate(
  server: TestServer,
  caller: HrCaller,
  id: string,
  bytes: Uint8Array,
  options: { syntax?: string; format?: string; filename?: string } = {},
): Promise<Response> {
  const form = new FormData();
  form.append('template', new Blob([Buffer.from(bytes)]), options.filename ?? 'template.docx');
  form.append('format', options.format ?? 'DOCX');
  form.append('syntax_version', options.syntax ?? 'V2');
  return fetch(`${server.url}/api/v2/client/document_generation_templates/${id}/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${caller.token}` },
    body: form,
  });
}

/** The template every generation test uses: a scalar, a date, a list, a table and a fragment. */
export function sampleTemplate(syntax: 'V1' | 'V2' = 'V2'): Uint8Array {
  const [o, c] = syntax === 'V2' ? ['{', '}'] : ['[', ']'];
  const t = (inner: string) => `${o}${inner}${c}`;
  const blocks: DocxBlock[] = [
    { paragraph: 'Employment certificate', style: 'Title' },
    { paragraph: `We certify that ${t('$firstname')} ${t('$lastname')} has worked here since ${t('$hire_date')}.` },
    { paragraph: `${t('#$skills')}${t('$.')}${t('/$skills')}`, bullet: true },
    {
      table: [
        ['Year', 'Salary'],
        [`${t('#$salaries')}${t('$year')}`, `${t('$amount')}${t('/$salaries')}`],
      ],
    },
    { paragraph: t('@$signature') },
  ];
  return buildDocx(blocks);
}

/** A small fragment: its own placeholder. */
export function fragmentTemplate(): Uint8Array {
  return buildDocx([{ paragraph: 'Signed by {$signatory}, HR director.' }]);
}

/** A zip's entries (a DOCX, an ODT, a campaign's zip), in their order, read with fflate. */
export function readZip(bytes: Uint8Array): ZipPackage {
  return new ZipPackage(Object.entries(unzipSync(bytes)));
}

/**
 * A job of `queue` as a process that died in its last attempt leaves it: running under an expired lease, its 5
 * attempts spent (enqueued and set so in one transaction, so no runner claims it in between).
 */
export async function enqueueSpentJob(db: Kysely<Tables>, job: { queue: string; tenant: string; payload: unknown }) {
  await db.transaction().execute(async (trx) => {
    const id = await enqueue(trx, { ...job, maxAttempts: 5 });
    await trx
      .updateTable('jobs')
      .set({ status: 'running', attempts: 5, locked_by: 'dead-process', lease_until: 1 })
      .where('id', '=', id)
      .execute();
  });
}
