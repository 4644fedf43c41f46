import type { FastifyRequest } from 'fastify';
import type { CallOrigin } from './mail.js';

/** The server's own origin as this request reached it: the signers' links are made from it. */
export function callOrigin(request: FastifyRequest): CallOrigin {
  return { origin: `${request.protocol}://${request.host}` };
}
