/** Reads the operations of a running server's OpenAPI document, for tests generated from it. */

export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: JsonSchema;
}

/** The three APIs of the document, by their path prefix. */
export type Api = 'hr' | 'academy' | 'admin';

const PREFIXES: Record<Api, string> = { hr: '/api/v2/client', academy: '/v1', admin: '/admin/v1' };

export interface Operation {
  method: string;
  /** The path template as documented: `/api/v2/client/organizations/{id}`. */
  path: string;
  api: Api;
  parameters: Parameter[];
  /** Request body media types and their schemas. */
  body: { contentType: string; schema: JsonSchema }[];
  bodyRequired: boolean;
  /** The documented response statuses. */
  responses: number[];
  security: string[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Inlines local `$ref`s (components/schemas), to a bounded depth. */
export function resolveRefs(schema: unknown, doc: OpenApiDocument, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(s, doc, depth));
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    if (depth > 8) return {};
    const name = s.$ref.replace('#/components/schemas/', '');
    return resolveRefs(doc.components?.schemas?.[name] ?? {}, doc, depth + 1);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = resolveRefs(v, doc, depth);
  return out;
}

export async function fetchOpenApi(baseUrl: string): Promise<OpenApiDocument> {
  const res = await fetch(`${baseUrl}/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /openapi.json: ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

/**
 * Every operation of the tenant APIs (HR under /api/v2/client, Academy under /v1), or of the APIs named (the admin
 * API under /admin/v1).
 */
export function operations(doc: OpenApiDocument, apis: readonly Api[] = ['hr', 'academy']): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const api = apis.find((a) => path.startsWith(`${PREFIXES[a]}/`));
    if (!api) continue;
    for (const [method, raw] of Object.entries(item)) {
      const op = resolveRefs(raw, doc) as Record<string, unknown>;
      const parameters = ((op.parameters as Record<string, unknown>[] | undefined) ?? []).map((p) => ({
        name: String(p.name),
        in: p.in as Parameter['in'],
        required: p.required === true,
        schema: (p.schema as JsonSchema | undefined) ?? {},
      }));
      const requestBody = op.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
      const body = Object.entries(requestBody?.content ?? {}).map(([contentType, c]) => ({
        contentType,
        schema: c.schema ?? {},
      }));
      const security = ((op.security as Record<string, unknown>[] | undefined) ?? [{ bearerAuth: [] }]).flatMap((s) =>
        Object.keys(s),
      );
      out.push({
        method: method.toUpperCase(),
        path,
        api,
        parameters,
        body,
        bodyRequired: requestBody?.required === true,
        responses: Object.keys((op.responses as Record<string, unknown>) ?? {})
          .map(Number)
          .filter(Number.isInteger),
        security,
      });
    }
  }
  return out;
}

/** The path template's parameter names, in order. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/** The collection a path parameter names an item of: `/api/v2/client/requests/{id}/comments/{comment_id}` → `/requests/{id}/comments` for `comment_id`. */
export function collectionOf(template: string, param: string): string {
  const at = template.indexOf(`{${param}}`);
  return template
    .slice(0, at)
    .replace(/^\/api\/v2\/client|^\/v1/, '')
    .replace(/\/$/, '');
}
