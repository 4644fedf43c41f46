import { serveTasks, type TaskAnswer } from '../workers/bounded-worker.js';
import { generate } from './fill.js';
import { inspectTemplate } from './inspect.js';
import { layoutPdf } from './layout.js';
import { migrateV1toV2 } from './syntax.js';
import type { GenerateInput, SyntaxVersion } from './types.js';
import { type ZipEntry, zipFiles } from './zip.js';

/**
 * A task for the worker: inspect a template, generate a document, migrate a V1 template, lay a DOCX out, zip
 * documents (a campaign's result).
 */
export type DocgenTask =
  | { task: 'inspect'; bytes: Uint8Array; syntax: SyntaxVersion }
  | { task: 'generate'; input: GenerateInput }
  | { task: 'migrate'; bytes: Uint8Array }
  | { task: 'layout'; bytes: Uint8Array }
  | { task: 'zip'; entries: ZipEntry[] };

/** A result's bytes, moved (not copied) back to the server's thread. */
const moving = (value: unknown, bytes?: Uint8Array): TaskAnswer =>
  bytes ? { value, moved: [bytes.buffer as ArrayBuffer] } : { value };

async function answer(task: DocgenTask): Promise<TaskAnswer> {
  switch (task.task) {
    case 'inspect':
      return { value: inspectTemplate(task.bytes, task.syntax) };
    case 'generate': {
      const outcome = await generate(task.input);
      return moving(outcome, outcome.ok ? outcome.bytes : undefined);
    }
    case 'migrate': {
      const migrated = migrateV1toV2(task.bytes);
      return moving(migrated, migrated.ok ? migrated.bytes : undefined);
    }
    case 'layout': {
      const laid = await layoutPdf(task.bytes);
      return moving(laid, laid.ok ? laid.pdf : undefined);
    }
    case 'zip': {
      const zipped = zipFiles(task.entries);
      return moving({ ok: true, bytes: zipped }, zipped);
    }
  }
}

/** The worker thread of runner.ts: loads the engine, says `ready`, then answers each task, one at a time. */
serveTasks(answer);
