import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { actingAs } from '../hr/audit/actor.js';
import { presentImport } from '../hr/core/imports/present.js';
import type { Import, ImportCreate } from '../hr/core/imports/schemas.js';
import type { HrTenantId } from '../platform/db/tenant.js';
import type { Services } from '../services.js';
import { CliError } from './failure.js';
import { count } from './plural.js';
import type { Progress } from './progress.js';

/** How often the command reads the import's counts. */
const POLL_MS = 200;

export interface HrImportRequest {
  clientId: HrTenantId;
  type: ImportCreate['type'];
  file: string;
  progress?: Progress | undefined;
}

/**
 * `atrium hr import`: the file uploaded and imported into a client as `POST /uploads` then `POST /imports` would
 * (the same job, the same rules and reports), then run to its end by this process's own job runner, or by a
 * server's if one claims it first. Answers the import as `GET /imports/{id}` shows it.
 */
export async function hrImport(services: Services, request: HrImportRequest): Promise<Import> {
  const { clientId, type, file, progress } = request;
  await services.tenants.requireClient(clientId);
  let stream: fs.ReadStream;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new CliError(`${file} is not a file`);
    stream = fs.createReadStream(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const created = await actingAs({ type: 'system', name: 'atrium hr import' }, async () => {
    const upload = await services.uploads.create(clientId, path.basename(file), stream);
    return services.imports.create(clientId, { type, uploaded_file: { file_id: upload.id } });
  });
  services.jobs.start();
  try {
    let started = false;
    for (;;) {
      const record = await services.imports.get(clientId, created.id);
      if (record.status !== 'created' && record.status !== 'in_progress') {
        // The bar ends full, also for an import that ended between two reads of its counts.
        if (!started && record.rowsCount > 0) progress?.start('rows', record.rowsCount);
        if (started || record.rowsCount > 0) {
          progress?.update(record.createdCount + record.updatedCount + record.errorsCount);
          progress?.stop();
        }
        return presentImport(record);
      }
      if (record.rowsCount > 0 && record.status === 'in_progress') {
        if (!started) progress?.start('rows', record.rowsCount);
        started = true;
        progress?.update(record.createdCount + record.updatedCount + record.errorsCount);
      }
      await sleep(POLL_MS);
    }
  } finally {
    await services.jobs.stop();
  }
}

/** The lines a person reads: the outcome and its counts, and where the failed rows are. */
export function formatHrImport(result: Import): string {
  const counts = `${count(result.rows_count, 'row')}: ${result.created_objects_count} created, ${result.updated_objects_count} updated, ${result.errors_count} failed`;
  const lines = [`import ${result.id} ended ${result.status}; ${counts}`];
  if (result.errors_count > 0 || result.status === 'failed') {
    lines.push(`the failed rows and why: GET /api/v2/client/imports/${result.id}/errors_report (or /report)`);
  }
  return lines.join('\n');
}
