/**
 * `atrium proxy --record DIR` (docs/proxy.md, "Recording"): each body in its recorded form (null, JSON, text,
 * base64, omitted over 1 MiB, a content encoding undone), secrets redacted in headers, forms, JSON and the path,
 * the lines in the order the calls were received even when a later one is answered first, and a directory that
 * already holds a recording refused. A node:http fake is the target: no database is involved.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { RecordedExchange } from '../../src/admin/proxy/recorder.js';
import { startProxy } from '../../src/admin/proxy/start.js';

const BIG = 1024 * 1024 + 10;

describe('validation proxy: the recording', () => {
  let fake: http.Server;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let dir: string;
  let target: string;
  let releaseSlow: () => void = () => {};
  let arrived: () => void = () => {};
  const slowArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });

  before(async () => {
    fake = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const url = req.url ?? '';
        if (url.startsWith('/slow')) {
          arrived();
          releaseSlow = () => {
            releaseSlow = () => {};
            res.writeHead(200, { 'content-type': 'text/plain' }).end('slow');
          };
          return;
        }
        if (url.startsWith('/text')) return res.writeHead(200, { 'content-type': 'text/csv' }).end('a,b\n1,2\n');
        if (url.startsWith('/bin')) {
          return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 255]));
        }
        if (url.startsWith('/big')) {
          return res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(BIG - 2)}"`);
        }
        if (url.startsWith('/gzip')) {
          const body = gzipSync(JSON.stringify({ access_token: 'tok-123', token_type: 'bearer' }));
          return res
            .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'set-cookie': 's=1' })
            .end(body);
        }
        return res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-proxy-rec-'));
    proxy = await startProxy({
      target,
      port: 0,
      host: '127.0.0.1',
      journal: path.join(dir, 'proxy.sqlite'),
      record: path.join(dir, 'rec'),
    });
  });
  after(async () => {
    releaseSlow();
    await proxy.close();
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes each body in its form, redacted, in the order received', async () => {
    const slow = fetch(`${proxy.url}/slow`);
    await slowArrived;
    const form = 'grant_type=client_credentials&client_id=acme&client_secret=hunter2';
    const sent = await fetch(`${proxy.url}/api/v2/client/tokens?access_token=qs-secret`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'sid=abc', 'x-api-key': 'k-1' },
      body: form,
    });
    assert.equal(sent.status, 204);
    for (const p of ['/text', '/bin', '/big', '/gzip']) await (await fetch(`${proxy.url}${p}`)).arrayBuffer();
    const file = path.join(dir, 'rec/exchanges.ndjson');
    assert.equal(fs.readFileSync(file, 'utf8'), '', 'nothing is written before call 1 has its answer');
    releaseSlow();
    assert.equal(await (await slow).text(), 'slow');
    await new Promise((resolve) => setImmediate(resolve));
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const x = lines.map((l) => JSON.parse(l) as RecordedExchange);
    assert.deepEqual(
      x.map((e) => [e.seq, e.request.path.split('?')[0]]),
      [
        [1, '/slow'],
        [2, '/api/v2/client/tokens'],
        [3, '/text'],
        [4, '/bin'],
        [5, '/big'],
        [6, '/gzip'],
      ],
    );
    const [s, token, text, bin, big, gz] = x as [RecordedExchange, ...RecordedExchange[]];
    assert.deepEqual(s.response.body, { text: 'slow' });
    assert.equal(s.api, null);
    assert.equal(s.operation_id, null);
    assert.equal(token?.api, 'hr');
    assert.equal(token?.operation_id, 'hr_getAccessToken');
    assert.equal(token?.request.path, '/api/v2/client/tokens?access_token=[redacted]');
    assert.deepEqual(token?.request.body, {
      text: 'grant_type=client_credentials&client_id=acme&client_secret=[redacted]',
    });
    assert.equal(token?.request.headers.cookie, '[redacted]');
    assert.equal(token?.request.headers['x-api-key'], '[redacted]');
    assert.equal(token?.request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(token?.response.status, 204);
    assert.equal(token?.response.body, null);
    assert.deepEqual(text?.response.body, { text: 'a,b\n1,2\n' });
    assert.deepEqual(bin?.response.body, { base64: Buffer.from([0, 1, 2, 255]).toString('base64') });
    assert.deepEqual(big?.response.body, { omitted: BIG });
    assert.deepEqual(gz?.response.body, { access_token: '[redacted]', token_type: 'bearer' });
    assert.equal(gz?.response.headers['content-encoding'], undefined);
    assert.equal(gz?.response.headers['set-cookie'], '[redacted]');
    assert.ok(!Number.isNaN(Date.parse(String(gz?.at))), 'at is a date');
    const all = lines.join('\n');
    for (const secret of ['hunter2', 'qs-secret', 'sid=abc', 'k-1', 'tok-123'])
      assert.ok(!all.includes(secret), secret);
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'rec/recording.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(meta), ['format', 'version', 'target', 'started_at']);
    assert.equal(meta.target, target);
  });

  it('refuses a directory that already holds a recording', async () => {
    await assert.rejects(
      startProxy({
        target,
        port: 0,
        host: '127.0.0.1',
        journal: path.join(dir, 'j2.sqlite'),
        record: path.join(dir, 'rec'),
      }),
      /already holds a recording/,
    );
  });
});
