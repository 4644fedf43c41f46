import { parentPort } from 'node:worker_threads';
import { countPdfPages } from './pages.js';

/**
 * The worker thread of counter.ts: says `ready` once the PDF library is loaded, then answers each PDF it is sent
 * (bytes) with its page count (or null), one at a time.
 */
const port = parentPort;
if (port) {
  port.on('message', (bytes: Uint8Array) => {
    void countPdfPages(bytes).then((count) => port.postMessage(count));
  });
  port.postMessage('ready');
}
