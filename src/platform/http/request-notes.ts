/**
 * What an API notes on a request for the request log (docs/admin.md, "Request log"), beyond what Fastify keeps.
 * Only a type: the HR API's query rules write it, the request log reads it.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** Query parameters the operation ignored: undeclared ones (dropped), and `per_page>100` for one clamped to 100. */
    ignoredParameters?: string[];
  }
}

export {};
