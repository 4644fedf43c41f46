import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const SECOND_PORT = Symbol('atrium.secondPort');
type MarkedSocket = Socket & { [SECOND_PORT]?: true };

/** Whether a request came in on the second port (`listenSecondPort`), not on the server's own. */
export function onSecondPort(request: FastifyRequest): boolean {
  return (request.raw.socket as MarkedSocket)[SECOND_PORT] === true;
}

export interface SecondPort {
  /** `http://host:port` as bound (port 0 resolved). */
  url: string;
  close(): Promise<void>;
}

/**
 * The same Fastify server, answering on a second port as well: a Node HTTP server with the first one's request
 * handler, limits and timeouts, whose connections are marked so that hooks can tell the ports apart
 * (`onSecondPort`). The admin API's own port (`ATRIUM_ADMIN_PORT`) is one.
 */
export async function listenSecondPort(app: FastifyInstance, port: number, host: string): Promise<SecondPort> {
  await app.ready();
  const first = app.server;
  const server: Server = createServer({ requestTimeout: first.requestTimeout, headersTimeout: first.headersTimeout });
  server.keepAliveTimeout = first.keepAliveTimeout;
  server.maxConnections = first.maxConnections;
  for (const listener of first.listeners('request')) {
    server.on('request', listener as (req: IncomingMessage, res: ServerResponse) => void);
  }
  for (const listener of first.listeners('clientError')) {
    server.on('clientError', listener as (error: Error, socket: Socket) => void);
  }
  server.on('connection', (socket: MarkedSocket) => {
    socket[SECOND_PORT] = true;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
