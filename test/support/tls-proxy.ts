/**
 * A TLS-terminating reverse proxy in front of a test server, as a deployment puts nginx or a load balancer in front
 * of Atrium (which serves no TLS itself): it answers https on loopback with a self-signed certificate for one host
 * name (made by `openssl` for the run), and forwards each request over http with `X-Forwarded-Proto: https`,
 * `X-Forwarded-For` and `X-Forwarded-Host`. A browser trusts it with `ignoreHTTPSErrors`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface TlsProxy {
  /** `https://<hostname>:<port>`: the proxy's origin, under the certificate's name. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A self-signed certificate (and its key) for `hostname`, valid for a day. */
function selfSigned(hostname: string): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-tls-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${hostname}`,
        '-addext',
        `subjectAltName=DNS:${hostname}`,
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'pipe' },
    );
    return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts the proxy on 127.0.0.1 (any free port) in front of `target` (`http://127.0.0.1:<port>`). */
export async function startTlsProxy(target: string, hostname: string): Promise<TlsProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = https.createServer(selfSigned(hostname), (req, res) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        agent,
        headers: {
          ...req.headers,
          'x-forwarded-proto': 'https',
          'x-forwarded-for': req.socket.remoteAddress ?? '',
          'x-forwarded-host': req.headers.host ?? '',
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${hostname}:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
