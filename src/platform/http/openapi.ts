/**
 * What the OpenAPI document needs beyond the route schemas, for client generators and API tools (issue 17, item 8):
 * an `operationId` on every operation (the SDK method's name), a description on every response, and the examples
 * of the request and response bodies. @fastify/swagger builds the document from the routes; `finishDocument` then
 * completes it from what each API declares (`ApiDocumentation`), once, when the document is first asked for. The
 * route schemas are left untouched: their text keys the shared compiled serializers (server.ts).
 */

/** An OpenAPI response object, as far as this module reads and writes it. */
interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaObject>;
}

interface MediaObject {
  schema?: { $ref?: string; [key: string]: unknown };
  example?: unknown;
  examples?: unknown;
}

interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  requestBody?: { content?: Record<string, MediaObject> };
  responses?: Record<string, ResponseObject>;
}

/** The document, as far as this module reads and writes it. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OperationObject>>;
  tags?: Array<{ name: string; description?: string }>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
  [key: string]: unknown;
}

/** One operation of an API, as the API's descriptions see it. */
export interface OperationContext {
  /** `GET`, `POST`… */
  method: string;
  /** The path template after the API's prefix: `/requests/{id}/comments`. */
  path: string;
  /** `GET /requests/{id}/comments`: the key of the API's tables. */
  key: string;
  /** The singular and plural nouns of the resource the operation acts on (`comment`, `comments`), if it has one. */
  noun?: readonly [string, string];
  /** Whether the path ends at one item of that resource (`/requests/{id}`) rather than its collection. */
  item: boolean;
  /** The nouns of the path's parameters, outermost first: `['request', 'comment']`. */
  owners: string[];
  /** The statuses the operation documents. */
  statuses: number[];
  /** Whether the operation takes a request body. */
  body: boolean;
}

/** Examples of an API's bodies (each the media type's `example`). */
export interface DocumentExamples {
  /** By component schema: every body of that schema, or a list of it, shows it. */
  components?: Readonly<Record<string, unknown>>;
  /** Request bodies, by operation key (`POST /requests`). */
  requests?: Readonly<Record<string, unknown>>;
  /** Particular responses, by operation key and status. */
  responses?: Readonly<Record<string, Readonly<Record<number, unknown>>>>;
}

/** What an API declares so that its operations are complete in the document. */
export interface ApiDocumentation {
  /** The path prefix of the API's operations: `/api/v2/client`. */
  prefix: string;
  /** The first part of each operationId: `hr`. */
  idPrefix: string;
  /**
   * The SDK method of each operation, by `METHOD /path` after the prefix: `'GET /requests/{id}/comments':
   * 'requests.comments.list'`. The operationId is `<idPrefix>_<method with dots as underscores>`
   * (`hr_requests_comments_list`); test/platform/openapi-document.test.ts checks each against the SDK.
   */
  operations: Readonly<Record<string, string>>;
  /** The nouns of the path's collection segments: `comments: ['comment', 'comments']`. */
  nouns: Readonly<Record<string, readonly [string, string]>>;
  /** Descriptions of particular responses, by operation key and status: actions, files, particular errors. */
  responses?: Readonly<Record<string, Readonly<Record<number, string>>>>;
  /** The description of an error status (4xx, 5xx) of an operation; undefined when the API has none. */
  describeError(status: number, operation: OperationContext): string | undefined;
  /** Examples of its main request and response bodies. */
  examples?: DocumentExamples;
}

/** What @fastify/swagger writes when a response schema has no description; never left in the finished document. */
export const DEFAULT_RESPONSE = 'Default Response';

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/** `requests.comments.list` → `hr_requests_comments_list`. */
export function operationId(idPrefix: string, sdkMethod: string): string {
  return `${idPrefix}_${sdkMethod.replaceAll('.', '_')}`;
}

/** English list: `a`, `a or b`, `a, b or c`. */
function either(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The operation as its API's descriptions see it. */
function contextOf(
  api: ApiDocumentation,
  method: string,
  path: string,
  statuses: number[],
  body: boolean,
): OperationContext {
  const segments = path.split('/').filter(Boolean);
  const isParam = (s: string | undefined) => s !== undefined && /^\{[^}]+\}$/.test(s);
  const owners: string[] = [];
  segments.forEach((segment, i) => {
    const noun = api.nouns[segments[i - 1] ?? ''];
    if (isParam(segment) && noun) owners.push(noun[0]);
  });
  const last = segments.length - 1;
  // The resource: the last segment, or the one before a trailing path parameter.
  const at = isParam(segments[last]) ? last - 1 : last;
  const noun = api.nouns[segments[at] ?? ''];
  return {
    method,
    path,
    key: `${method} ${path}`,
    ...(noun ? { noun } : {}),
    item: at !== last,
    owners,
    statuses,
    body,
  };
}

/** A success response's description from the shape of the operation; undefined when it is not a plain one. */
function describeSuccess(
  op: OperationContext,
  status: number,
  response: ResponseObject,
  segments: string[],
): string | undefined {
  const json = Object.keys(response.content ?? {}).some((type) => type.includes('json'));
  if (!op.noun) {
    // `POST /employees/search`: a search of the collection before it.
    return undefined;
  }
  const [one, many] = op.noun;
  const owner = op.owners.at(op.item ? -2 : -1);
  const paged = response.headers !== undefined && 'Next-Cursor' in response.headers;
  if (op.item) {
    if (op.method === 'GET' && json) return `The ${one}.`;
    if (op.method === 'PUT' && status === 201) return `The ${one}, created: none had this id.`;
    if (op.method === 'PUT' && op.statuses.includes(201)) return `The ${one}, replaced: one had this id.`;
    if ((op.method === 'PUT' || op.method === 'PATCH') && json) return `The ${one}, updated.`;
    if (op.method === 'DELETE' && !json) return `The ${one} is deleted; no body.`;
    return undefined;
  }
  const of = owner ? ` of the ${owner}` : '';
  if (op.method === 'GET' && json && paged) {
    return `A page of the ${many}${of}; \`Link\`, \`Next-Cursor\` and \`Previous-Cursor\` lead to the pages around it.`;
  }
  if (op.method === 'GET' && json) return `The ${many}${of}.`;
  if (op.method === 'HEAD' && segments.length === 1) return `The number of matching ${many}, in \`X-Total-Count\`.`;
  if (op.method === 'POST' && json && (status === 201 || status === 200)) return `The ${one}, created.`;
  return undefined;
}

/** The example of a body whose schema is a component with an example, or a list of one (a one-item list). */
function componentExample(media: MediaObject, examples: ReadonlyMap<string, unknown>): unknown {
  const schema = media.schema;
  const name = (ref: unknown) => (typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : '');
  if (examples.has(name(schema?.$ref))) return examples.get(name(schema?.$ref));
  const items = schema?.type === 'array' ? (schema.items as { $ref?: string } | undefined) : undefined;
  return examples.has(name(items?.$ref)) ? [examples.get(name(items?.$ref))] : undefined;
}

/** Sets the media objects' example, unless one is already there. */
function setExample(content: Record<string, MediaObject> | undefined, example: (media: MediaObject) => unknown): void {
  for (const media of Object.values(content ?? {})) {
    if (media.example !== undefined || media.examples !== undefined) continue;
    const value = example(media);
    if (value !== undefined) media.example = value;
  }
}

/**
 * Completes the document in place: the operationId of each operation its API names, a description on each
 * response that has none (its API's own, then one from the shape of the operation, then the API's error
 * descriptions), and the examples its API gives of request and response bodies. An operation no API covers is left as it is, so that the
 * test of the document finds it.
 */
export function finishDocument(doc: OpenApiDocument, apis: readonly ApiDocumentation[]): OpenApiDocument {
  const components = new Map(apis.flatMap((api) => Object.entries(api.examples?.components ?? {})));
  // Every tag an operation names, declared once, in the order the operations first name them (the reference
  // page's order).
  const tags = new Set((doc.tags ?? []).map((tag) => tag.name));
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) for (const tag of operation.tags ?? []) tags.add(tag);
  }
  const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag]));
  doc.tags = [...tags].map((name) => declared.get(name) ?? { name });
  for (const [fullPath, item] of Object.entries(doc.paths ?? {})) {
    const api = apis.find((a) => fullPath === a.prefix || fullPath.startsWith(`${a.prefix}/`));
    for (const [lower, operation] of Object.entries(item)) {
      if (!METHODS.includes(lower)) continue;
      if (!api) continue;
      const method = lower.toUpperCase();
      const path = fullPath.slice(api.prefix.length);
      const responses = operation.responses ?? {};
      const key = `${method} ${path}`;
      setExample(operation.requestBody?.content, () => api.examples?.requests?.[key]);
      for (const [code, response] of Object.entries(responses)) {
        setExample(
          response.content,
          (media) => api.examples?.responses?.[key]?.[Number(code)] ?? componentExample(media, components),
        );
      }
      const op = contextOf(api, method, path, Object.keys(responses).map(Number), operation.requestBody !== undefined);
      const sdk = api.operations[op.key];
      if (sdk) operation.operationId = operationId(api.idPrefix, sdk);
      const segments = path.split('/').filter(Boolean);
      for (const [code, response] of Object.entries(responses)) {
        const status = Number(code);
        const own = api.responses?.[op.key]?.[status];
        if (own) {
          response.description = own;
          continue;
        }
        // What a route's schema says is kept, except the bare defaults.
        if (response.description && response.description !== DEFAULT_RESPONSE && response.description !== 'No body.') {
          continue;
        }
        const derived = status < 400 ? describeSuccess(op, status, response, segments) : api.describeError(status, op);
        if (derived) response.description = derived;
      }
    }
  }
  return doc;
}

/** `No such request or comment in this tenant.` from the nouns of the path's parameters. */
export function noSuch(owners: string[], where: string): string {
  return `No such ${either(owners)} ${where}.`;
}

/**
 * The operationId of a served route, from the APIs' documentation: `GET` and `/api/v2/client/employees/:id` →
 * `hr_employees_retrieve`. A `HEAD` the API does not document is its `GET`'s. Undefined for a route no API names.
 */
export function operationIndex(
  apis: readonly ApiDocumentation[],
): (method: string, routeUrl: string) => string | undefined {
  const ids = new Map<string, string>();
  for (const api of apis) {
    for (const [key, sdk] of Object.entries(api.operations)) {
      const [method, path] = key.split(' ') as [string, string];
      ids.set(`${method} ${api.prefix}${path}`, operationId(api.idPrefix, sdk));
    }
  }
  const cache = new Map<string, string | undefined>();
  return (method, routeUrl) => {
    const key = `${method} ${routeUrl}`;
    if (cache.has(key)) return cache.get(key);
    const template = routeUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/$/, '');
    const found = ids.get(`${method} ${template}`) ?? (method === 'HEAD' ? ids.get(`GET ${template}`) : undefined);
    if (cache.size < 10_000) cache.set(key, found);
    return found;
  };
}

/** Every operationId the APIs' documentation names. */
export function operationIds(apis: readonly ApiDocumentation[]): ReadonlySet<string> {
  return new Set(apis.flatMap((api) => Object.values(api.operations).map((sdk) => operationId(api.idPrefix, sdk))));
}
