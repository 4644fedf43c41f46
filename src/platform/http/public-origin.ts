import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** `ATRIUM_PUBLIC_URL`, when set (see {@link publicOrigin}). */
    publicUrl: string | undefined;
  }
}

/** Makes `ATRIUM_PUBLIC_URL` the base of every absolute URL the server writes (`publicOrigin`). */
export function usePublicUrl(
  app: { decorate(name: 'publicUrl', value: string | undefined): unknown },
  publicUrl: string | undefined,
): void {
  app.decorate('publicUrl', publicUrl);
}

/**
 * The base of the absolute URLs written in an answer or a mail (`signing_url`, `redirection_urls`, settings' `url`):
 * `ATRIUM_PUBLIC_URL` when set, the only one then; else the origin the request came to (its `Host` and protocol,
 * the protocol from `X-Forwarded-Proto` only through a trusted proxy).
 */
export function publicOrigin(request: FastifyRequest): string {
  return request.server.publicUrl ?? `${request.protocol}://${request.host}`;
}
