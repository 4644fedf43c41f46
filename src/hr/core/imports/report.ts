import { formatDateTime } from '../../../platform/time.js';
import type { SettledBulkItem } from '../bulk/repository.js';
import { ENTITY_TYPE, JOB_TYPE } from './layout.js';
import type { ImportRecord } from './repository.js';

/** Rows read from the database per page of a report. */
const PAGE = 500;

/** Text as XML character data: markup characters escaped, and the control characters XML 1.0 forbids dropped. */
function xmlText(text: string): string {
  return (
    text
      .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 cannot hold.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

function element(name: string, value: string | number | null): string {
  return value === null || value === '' ? `<${name}/>` : `<${name}>${xmlText(String(value))}</${name}>`;
}

/** `RESULT_MESSAGE` of a failed row: its line, the error's message and its field errors. */
function failureMessage(row: SettledBulkItem): string {
  const error = row.result as { message?: string; errors?: { field: string; message: string }[] } | null;
  const fields = (error?.errors ?? []).map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
  return `Line ${row.index}: ${error?.message ?? row.message}${fields.length ? ` ${fields.join('; ')}` : ''}`;
}

/** The key of a failed row's object (its input's external id, id or email), or empty. */
function failedKey(input: unknown): string {
  const i = input as { external_id?: unknown; id?: unknown; email?: unknown } | null;
  const key = i?.external_id ?? i?.id ?? i?.email;
  return typeof key === 'string' ? key : '';
}

/**
 * An import's XML report (reference §5.3): the job's fields, then one `LINE` per row with `ENTITY_ID`,
 * `ENTITY_TYPE`, `RESULT_CODE` (0 created, 1 updated, 2 error) and `RESULT_MESSAGE` (an error's starts with its
 * line). Streamed a page of rows at a time.
 */
export async function* xmlReport(
  record: ImportRecord,
  rows: (afterIndex: number, limit: number) => Promise<(SettledBulkItem & { input: unknown })[]>,
): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<JOB>\n';
  yield `  ${element('JOB_REFERENCE', record.id)}\n`;
  yield `  ${element('JOB_REPORT_TIMESTAMP', record.finishedAt === null ? null : formatDateTime(record.finishedAt))}\n`;
  yield `  ${element('JOB_DESCRIPTION', `Import of ${record.filename}`)}\n`;
  yield `  ${element('JOB_TYPE', JOB_TYPE[record.type])}\n`;
  yield `  ${element('COUNT_ROWS', record.rowsCount)}\n`;
  const summary = `${record.createdCount} created, ${record.updatedCount} updated, ${record.errorsCount} errors.`;
  yield `  ${element('MESSAGE', record.message ? `${record.message} ${summary}` : summary)}\n  <LINES>\n`;
  let after = -1;
  for (;;) {
    const page = await rows(after, PAGE);
    if (page.length === 0) break;
    let chunk = '';
    for (const row of page) {
      const ok = row.status === 'success';
      chunk +=
        '    <LINE>' +
        element('LINE_NUMBER', row.index) +
        element('ENTITY_ID', ok ? row.resourceId : failedKey(row.input)) +
        element('ENTITY_TYPE', ENTITY_TYPE[record.type]) +
        element('RESULT_CODE', ok ? (row.outcome === 'created' ? 0 : 1) : 2) +
        element('RESULT_MESSAGE', ok ? row.message : failureMessage(row)) +
        '</LINE>\n';
    }
    yield chunk;
    after = (page.at(-1) as SettledBulkItem).index;
  }
  yield '  </LINES>\n</JOB>\n';
}
