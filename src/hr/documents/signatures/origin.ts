import type { FastifyRequest } from 'fastify';
import { publicOrigin } from '../../../platform/http/public-origin.js';
import type { CallOrigin } from './mail.js';

/** The server's own origin (`ATRIUM_PUBLIC_URL`, or as this request reached it): the signers' links are made from it. */
export function callOrigin(request: FastifyRequest): CallOrigin {
  return { origin: publicOrigin(request) };
}
