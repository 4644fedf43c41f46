/** Helpers of the distribution tests: PDFs whose pages carry text, employees in bulk, waiting for a status. */
import assert from 'node:assert/strict';
import { PDFDocument } from '@cantoo/pdf-lib';
import { parse } from 'csv-parse/sync';
import type { HrCaller } from './harness.js';

/** A PDF of one page per entry, each page's lines of text drawn on it. */
export async function textPdf(pages: readonly string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const lines of pages) {
    const page = doc.addPage();
    for (const [i, line] of lines.entries()) page.drawText(line, { x: 50, y: 700 - i * 20, size: 12 });
  }
  return Buffer.from(await doc.save());
}

/** Answers the JSON body of a call, asserting its status. */
export async function call<T>(caller: HrCaller, method: string, path: string, body: unknown, status: number) {
  const res = await caller.call(method, path, body);
  const text = await res.text();
  assert.equal(res.status, status, `${method} ${path}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Polls until `probe` answers something, or fails after `boundMs`. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, boundMs = 60_000): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface DistributionBody {
  id: number;
  status: string;
  distribution_project_id: number;
  distribution_error: { id: string; code: string; error_type: string; message: string; created_at: string } | null;
}

/** A distribution's status once it is `status` (or one of the ends). */
export interface DistributionBody {
  id: number;
  status: string;
  distribution_project_id: number;
  distribution_error: { id: string; code: string; error_type: string; message: string; created_at: string } | null;
}

export function settled(caller: HrCaller, id: number, statuses: readonly string[]) {
  return until(
    async () => {
      const d = await call<DistributionBody>(caller, 'GET', `/distributions/${id}`, undefined, 200);
      return statuses.includes(d.status) ? d : undefined;
    },
    `distribution ${id} in ${statuses.join('/')}`,
  );
}

/** Creates `n` employees `${prefix}0001`… in organization `paris` through `POST /employees/bulk`, and waits. */
export async function bulkEmployees(caller: HrCaller, prefix: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(4, '0')}`);
  for (let at = 0; at < n; at += 500) {
    const items = ids.slice(at, at + 500).map((externalId) => ({
      external_id: externalId,
      firstname: 'F',
      lastname: externalId,
      email: `${externalId.toLowerCase()}@example.com`,
      registration_references: [{ organization_id: 'paris', employee_number: externalId }],
    }));
    const { request_id } = await call<{ request_id: string }>(caller, 'POST', '/employees/bulk', items, 200);
    await until(
      async () => {
        const s = await call<{ summary: { status: string } }>(
          caller,
          'GET',
          `/employees/bulk/${request_id}`,
          undefined,
          200,
        );
        return s.summary.status === 'completed' ? true : undefined;
      },
      'the bulk employees',
      120_000,
    );
  }
  return ids;
}

/** The report's rows, parsed (header first). */
export function parseReport(csv: string): string[][] {
  return parse(csv, { relax_column_count: false }) as string[][];
}
