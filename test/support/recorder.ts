/**
 * Records a session for the replay tests through the real `atrium proxy --record DIR` (src/admin/proxy/): the proxy
 * runs in this process in front of an Atrium, and each call a test makes goes through it, so the recording is the
 * proxy's own, redacted by its rules.
 */
import path from 'node:path';
import { startProxy } from '../../src/admin/proxy/start.js';
import { fetchOpenApi } from './openapi.js';

export interface Recorder {
  /** Sends one call through the proxy to the Atrium, and answers it with its body parsed (or null). */
  call(
    method: string,
    pathAndQuery: string,
    options?: { headers?: Record<string, string>; body?: unknown; form?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: unknown }>;
  /** Stops the proxy; the recording is whole once this resolves. */
  close(): Promise<void>;
}

/** Starts `atrium proxy --record dir` in front of the Atrium at `url` (its journal beside the recording). */
export async function startRecording(url: string, dir: string): Promise<Recorder> {
  const proxy = await startProxy({
    target: url,
    port: 0,
    host: '127.0.0.1',
    journal: path.join(path.dirname(dir), `${path.basename(dir)}-proxy.sqlite`),
    record: dir,
    document: (await fetchOpenApi(url)) as unknown as Record<string, unknown>,
  });
  return {
    close: () => proxy.close(),
    async call(method, pathAndQuery, options = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      let body: string | undefined;
      if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      } else if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      const res = await fetch(`${proxy.url}${pathAndQuery}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const contentType = res.headers.get('content-type') ?? '';
      let parsed: unknown = null;
      if (/json/.test(contentType) && bytes.length > 0) parsed = JSON.parse(bytes.toString('utf8'));
      return { status: res.status, headers: res.headers, body: parsed };
    },
  };
}
