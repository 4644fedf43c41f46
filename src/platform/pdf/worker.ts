import { serveTasks, type TaskAnswer } from '../workers/bounded-worker.js';
import { type ComposedDocument, composeDocument } from './compose.js';
import { concatPdfs, countPdfPages, splitPdf } from './pages.js';
import { countRenderable, loadRenderer, type RenderKind, type RenderOptions, renderPage } from './render.js';
import { type DuplicateStamp, type SignatureStamp, stampDuplicate, stampSignatures } from './stamp.js';
import { findText, pageTexts } from './text.js';

/** A task for the worker: count a PDF's pages, stamp signatures on it, render a page, or find a word in it. */
export type PdfTask =
  | { task: 'count'; bytes: Uint8Array }
  | { task: 'stamp'; bytes: Uint8Array; stamp: SignatureStamp }
  | { task: 'render'; bytes: Uint8Array; kind: RenderKind; options: RenderOptions }
  | { task: 'renderable'; bytes: Uint8Array; kind: RenderKind }
  | { task: 'find'; bytes: Uint8Array; keyword: string }
  | { task: 'duplicate'; bytes: Uint8Array; stamp: DuplicateStamp }
  | { task: 'compose'; bytes: Uint8Array; content: ComposedDocument }
  | { task: 'texts'; bytes: Uint8Array }
  | { task: 'split'; bytes: Uint8Array; groups: number[][] }
  | { task: 'concat'; bytes: Uint8Array; parts: Uint8Array[] };

/** What a task answers: its result, and the buffers moved (not copied) back to the server's thread. */
async function answer(task: PdfTask): Promise<TaskAnswer> {
  switch (task.task) {
    case 'count':
      return { value: await countPdfPages(task.bytes) };
    case 'stamp': {
      const signed = await stampSignatures(task.bytes, task.stamp).catch(() => null);
      return signed ? { value: signed, moved: [signed.buffer as ArrayBuffer] } : { value: null };
    }
    case 'render': {
      const result = await renderPage(task.bytes, task.kind, task.options);
      return result.ok ? { value: result, moved: [result.png.buffer as ArrayBuffer] } : { value: result };
    }
    case 'renderable':
      return { value: { pages: await countRenderable(task.bytes, task.kind) } };
    case 'find':
      return { value: { found: await findText(task.bytes, task.keyword) } };
    case 'duplicate': {
      const copy = await stampDuplicate(task.bytes, task.stamp).catch(() => null);
      return copy ? { value: copy, moved: [copy.buffer as ArrayBuffer] } : { value: { unreadable: true } };
    }
    case 'texts':
      return { value: { texts: await pageTexts(task.bytes) } };
    case 'split': {
      const parts = await splitPdf(task.bytes, task.groups);
      return parts
        ? { value: { parts }, moved: [...new Set(parts.map((p) => p.buffer as ArrayBuffer))] }
        : { value: { parts: null } };
    }
    case 'concat': {
      const joined = await concatPdfs(task.parts);
      return joined ? { value: joined, moved: [joined.pdf.buffer as ArrayBuffer] } : { value: { unreadable: true } };
    }
    case 'compose': {
      const written = await composeDocument(task.content);
      return { value: written, moved: [written.buffer as ArrayBuffer] };
    }
  }
}

/**
 * The worker thread of runner.ts (platform/workers/bounded-worker.ts): says `ready` once started, then answers each
 * task it is sent, one at a time (a page count or null; the stamped PDF or null; a rendered page or why not; the
 * places of a word or null). A renderer's worker loads pdf.js before it says ready: the start has its own timeout,
 * a task's clock is for it.
 */
serveTasks(answer, (data) =>
  (data as { preload?: boolean } | null)?.preload === true ? loadRenderer() : Promise.resolve(),
);
