import { parentPort } from 'node:worker_threads';
import { countPdfPages } from './pages.js';
import { type SignatureStamp, stampSignatures } from './stamp.js';

/** A task for the worker: count a PDF's pages, or stamp signatures on it. */
export type PdfTask =
  | { task: 'count'; bytes: Uint8Array }
  | { task: 'stamp'; bytes: Uint8Array; stamp: SignatureStamp };

/**
 * The worker thread of runner.ts: says `ready` once the PDF library is loaded, then answers each task it is sent,
 * one at a time: a page count (or null), or the stamped PDF's bytes (or null when the PDF cannot be stamped).
 */
const port = parentPort;
if (port) {
  port.on('message', (task: PdfTask) => {
    if (task.task === 'count') {
      void countPdfPages(task.bytes).then((count) => port.postMessage(count));
      return;
    }
    stampSignatures(task.bytes, task.stamp).then(
      (signed) => port.postMessage(signed, [signed.buffer as ArrayBuffer]),
      () => port.postMessage(null),
    );
  });
  port.postMessage('ready');
}
