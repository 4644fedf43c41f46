/**
 * A validation proxy put together (docs/proxy.md): the operations of an OpenAPI document, the journal, the
 * recording if asked, and the server listening. `atrium proxy` and the tests start it through `startProxy`.
 */

import { wallClock } from '../../platform/time.js';
import type { Departure } from './check.js';
import { operationIndex, readDocument } from './operations.js';
import { Recorder } from './recorder.js';
import { type RunningProxy, ValidationProxy } from './server.js';
import { DepartureStore } from './store.js';

/** Bodies are read (for checking) up to this size; larger ones are forwarded and recorded as omitted. */
export const PROXY_BODY_LIMIT = 1024 * 1024;

export interface StartProxyOptions {
  target: string;
  port: number;
  host: string;
  /** The journal file. */
  journal: string;
  /** A directory to record each exchange in. */
  record?: string;
  /** The OpenAPI document (an object), or a file holding it; default Atrium's own (dist/openapi/openapi.json). */
  document?: Record<string, unknown> | string;
  onNewDeparture?: (operation: string, departure: Departure) => void;
}

/** The target as a URL: http or https, no query or fragment. */
export function targetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--target: "${text}" is not a URL (https://<the real service>)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('--target: must be an http or https URL');
  if (url.search || url.hash) throw new Error('--target: must have no query or fragment');
  return url;
}

export async function startProxy(options: StartProxyOptions): Promise<RunningProxy & { operations: number }> {
  const target = targetUrl(options.target);
  const document =
    typeof options.document === 'object' ? options.document : readDocument(options.document ?? undefined);
  const index = operationIndex(document);
  if (index.size === 0) throw new Error('the OpenAPI document has no operation of the HR or Academy API');
  const store = new DepartureStore(options.journal);
  try {
    const recorder = options.record ? Recorder.start(options.record, target.origin, new Date(wallClock())) : undefined;
    const proxy = new ValidationProxy({
      target,
      index,
      store,
      bodyLimit: PROXY_BODY_LIMIT,
      ...(recorder ? { recorder } : {}),
      ...(options.onNewDeparture ? { onNewDeparture: options.onNewDeparture } : {}),
    });
    const running = await proxy.listen(options.port, options.host);
    return {
      ...running,
      operations: index.size,
      close: async () => {
        await running.close();
        store.close();
      },
    };
  } catch (err) {
    store.close();
    throw err;
  }
}
