import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the server's own web pages (the landing page `/`, the API reference `/docs`) share: how a request is known
 * to have come over https, their Content-Security-Policy, and the Atrium icon (docs/security.md, "Web pages").
 */

/**
 * Whether the browser reached this server over https: the connection is TLS (Atrium serves none itself today), or a
 * proxy that `ATRIUM_TRUST_PROXY` trusts said so in `X-Forwarded-Proto`. Fastify's `request.protocol` reads that
 * header only from a trusted proxy, so a client cannot claim https for itself.
 */
export function isHttps(request: FastifyRequest): boolean {
  return String(request.protocol).toLowerCase() === 'https';
}

/**
 * A page's policy as sent to this request. `upgrade-insecure-requests` is added over https only: on a page served
 * over plain http it makes the browser fetch every asset over https, which a plain-http server does not answer, and
 * the page stays blank (opened from another machine, where the browser does not exempt the host as it does
 * `localhost`).
 */
export function contentSecurityPolicy(request: FastifyRequest, directives: readonly string[]): string {
  return (isHttps(request) ? [...directives, 'upgrade-insecure-requests'] : directives).join('; ');
}

/**
 * Sets a page's policy. The answer differs with `X-Forwarded-Proto`, which a cache between the proxy and Atrium
 * must know.
 */
export function securePage(request: FastifyRequest, reply: FastifyReply, directives: readonly string[]): FastifyReply {
  return reply
    .header('Content-Security-Policy', contentSecurityPolicy(request, directives))
    .header('Vary', 'X-Forwarded-Proto');
}

/** The Atrium icon (an arch), the pages' favicon as a `data:` URL: no request, no route. */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3451b2"/><path d="M7 26V15a9 9 0 0 1 18 0v11h-4.5V15a4.5 4.5 0 0 0-9 0v11z" fill="#fff"/></svg>';
export const FAVICON = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`;

/** Escapes text for HTML (an element's content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}
