import { Type } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import { AcademyErrorBody } from './errors.js';

/** Names of the Academy API's security schemes (declared with the OpenAPI document in platform/http/server.ts). */
export const ACADEMY_SECURITY: Record<string, string[]>[] = [{ academyApiKey: [] }, { academyApiKeyHeader: [] }];

const AcadId = Type.Integer({
  minimum: 1,
  description:
    'The academy id (required on every call), with its key in the `apikey` query parameter or the `X-API-Key` header.',
});

interface QuerySchema {
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/**
 * Fills in what every `/v1` route has in common, so each route declares only
 * its own parameters: the academy's security schemes instead of the HR bearer
 * token, `acadId` as a required query parameter (also validated: an integer),
 * and the 429 of the rate limit. Unknown query parameters stay accepted.
 * Runs as the plugin's onRoute hook, before Fastify compiles the route.
 */
export function documentAcademyRoute(route: RouteOptions): void {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const qs = schema.querystring as QuerySchema | undefined;
  // The automatic HEAD route shares its GET's schema: already done.
  if (qs?.properties?.acadId) return;
  const querystring = qs
    ? { ...qs, properties: { acadId: AcadId, ...qs.properties }, required: ['acadId', ...(qs.required ?? [])] }
    : Type.Object({ acadId: AcadId });
  const response = schema.response as Record<string, unknown> | undefined;
  route.schema = {
    ...schema,
    querystring,
    security: ACADEMY_SECURITY,
    ...(response ? { response: { ...response, 429: Type.Ref(AcademyErrorBody) } } : {}),
  };
}
