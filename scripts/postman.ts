/**
 * The Postman collection (format v2.1) of the OpenAPI document (issue 17, item 10), converted by Postman's own
 * `openapi-to-postmanv2` and then made ready to run:
 *
 * - one collection variable per credential (`clientId`, `applicationId`, `applicationSecret`; `acadId`, `apiKey`)
 *   and `baseUrl` (`http://127.0.0.1:8080`, where `npm start` listens);
 * - HR calls authenticate with a bearer `{{accessToken}}` that a collection pre-request script obtains from
 *   `POST /api/v2/client/tokens` (OAuth 2.0 client credentials: HTTP Basic with the application id and secret, and
 *   a form with `grant_type`, `scope` and `client_id`; docs/hr-api.md, "Tokens") when it is missing or expires
 *   within a minute;
 * - the token requests themselves use HTTP Basic and a filled-in form; Academy calls carry `acadId` and the API key;
 * - optional parameters and `Idempotency-Key` are present but unchecked; no random value is left in the URLs.
 *
 * scripts/build-openapi.ts writes it at build time; the server serves it at `/docs/postman.json`.
 */
import Converter from 'openapi-to-postmanv2';

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

interface KeyValue {
  key: string;
  value?: string;
  disabled?: boolean;
  description?: { content?: string } | string;
  [other: string]: unknown;
}

interface PostmanRequest {
  method: string;
  url: { path?: string[]; query?: KeyValue[]; variable?: KeyValue[]; [other: string]: unknown };
  header?: KeyValue[];
  body?: { mode?: string; urlencoded?: KeyValue[]; [other: string]: unknown };
  auth?: unknown;
  [other: string]: unknown;
}

export interface PostmanItem {
  name: string;
  id?: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
  response?: Array<Record<string, unknown>>;
  [other: string]: unknown;
}

export interface PostmanCollection {
  info: { name: string; schema: string; description?: unknown; [other: string]: unknown };
  item: PostmanItem[];
  auth?: unknown;
  event?: unknown[];
  variable?: KeyValue[];
}

/** The collection pre-request script: a fresh HR token when an HR call needs one. */
const TOKEN_SCRIPT = `// Atrium: an HR call (/api/v2/client/...) needs a bearer token. When {{accessToken}} is missing or expires within a
// minute, get one with the OAuth 2.0 client-credentials grant (POST /api/v2/client/tokens, HTTP Basic with the
// application id and secret). The token endpoints themselves and the Academy API (/v1) do not need it.
const path = pm.request.url.getPath();
const hr = path.startsWith('/api/v2/client/') && !/\\/(tokens|revoke_token)$/.test(path);
const expiresAt = Number(pm.collectionVariables.get('accessTokenExpiresAt') || 0);
if (hr && (!pm.collectionVariables.get('accessToken') || Date.now() > expiresAt - 60000)) {
  const id = pm.variables.replaceIn('{{applicationId}}');
  const secret = pm.variables.replaceIn('{{applicationSecret}}');
  pm.sendRequest(
    {
      url: pm.variables.replaceIn('{{baseUrl}}/api/v2/client/tokens'),
      method: 'POST',
      header: [
        { key: 'Authorization', value: 'Basic ' + btoa(id + ':' + secret) },
        { key: 'Content-Type', value: 'application/x-www-form-urlencoded' },
        { key: 'Accept', value: 'application/json' },
      ],
      body: {
        mode: 'urlencoded',
        urlencoded: [
          { key: 'grant_type', value: 'client_credentials' },
          { key: 'scope', value: 'client' },
          { key: 'client_id', value: pm.variables.replaceIn('{{clientId}}') },
        ],
      },
    },
    (error, response) => {
      if (error || response.code !== 200) {
        console.error('Atrium: the token request failed', error || response.code + ' ' + response.text());
        return;
      }
      const token = response.json();
      pm.collectionVariables.set('accessToken', token.access_token);
      pm.collectionVariables.set('accessTokenExpiresAt', String(Date.now() + token.expires_in * 1000));
    },
  );
}`;

const VARIABLES: Array<[string, string, string]> = [
  ['baseUrl', 'http://127.0.0.1:8080', 'Where Atrium listens (npm start: http://127.0.0.1:8080).'],
  ['clientId', '', 'HR API: the client (tenant) id, from `atrium hr create-client` or `atrium seed`.'],
  ['applicationId', '', 'HR API: the application id, from `atrium hr create-application` or `atrium seed`.'],
  ['applicationSecret', '', 'HR API: the application secret (shown once, when the application is created).'],
  ['accessToken', '', 'HR API: the current access token; set by the collection pre-request script.'],
  ['accessTokenExpiresAt', '', 'HR API: when the access token expires (ms since the epoch); set by the script.'],
  ['acadId', '', 'Academy API: the academy id, from `atrium academy create` or `atrium seed`.'],
  ['apiKey', '', 'Academy API: the academy API key (shown once).'],
];

function requiredParam(param: KeyValue): boolean {
  const text = typeof param.description === 'string' ? param.description : param.description?.content;
  return typeof text === 'string' && text.startsWith('(Required)');
}

/** Every request of the collection (its leaves), in order. */
export function requestsOf(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => (item.item ? requestsOf(item.item) : item.request ? [item] : []));
}

/** Makes one converted request ready to run (see the module's comment). */
function finishRequest(item: PostmanItem): void {
  delete item.id;
  const request = item.request as PostmanRequest;
  const path = `/${(request.url.path ?? []).join('/')}`;
  for (const variable of request.url.variable ?? []) variable.value = '';
  for (const param of request.url.query ?? []) {
    if (param.key === 'acadId') param.value = '{{acadId}}';
    else if (!requiredParam(param)) {
      param.disabled = true;
      param.value = '';
    }
  }
  for (const header of request.header ?? []) {
    if (header.key === 'Idempotency-Key') {
      header.value = '{{$guid}}';
      header.disabled = true;
    }
  }
  if (path === '/api/v2/client/tokens' || path === '/api/v2/client/revoke_token') {
    request.auth = {
      type: 'basic',
      basic: [
        { key: 'username', value: '{{applicationId}}', type: 'string' },
        { key: 'password', value: '{{applicationSecret}}', type: 'string' },
      ],
    };
    const form: Record<string, string> = {
      grant_type: 'client_credentials',
      scope: 'client',
      client_id: '{{clientId}}',
      token: '{{accessToken}}',
    };
    for (const field of request.body?.urlencoded ?? []) {
      if (form[field.key] !== undefined) field.value = form[field.key];
    }
  } else if (path.startsWith('/v1/')) {
    request.auth = {
      type: 'apikey',
      apikey: [
        { key: 'key', value: 'apikey', type: 'string' },
        { key: 'value', value: '{{apiKey}}', type: 'string' },
        { key: 'in', value: 'query', type: 'string' },
      ],
    };
  } else {
    // The collection's bearer token.
    delete request.auth;
  }
  // The documented answers stay as examples, without their copy of the request (half the file).
  for (const response of item.response ?? []) {
    delete response.id;
    delete response.originalRequest;
  }
}

/** Converts the OpenAPI document, then makes the collection ready to run. */
export async function postmanCollection(document: object): Promise<PostmanCollection> {
  const result = await new Promise<{ result: boolean; reason?: string; output?: Array<{ data: unknown }> }>(
    (resolve, reject) =>
      Converter.convertV2(
        // The converter changes the document it is given (it adds keys and resolves references in place).
        { type: 'json', data: structuredClone(document) },
        { folderStrategy: 'Tags', parametersResolution: 'Example', includeAuthInfoInExample: false },
        (error, answer) => (error ? reject(error) : resolve(answer as never)),
      ),
  );
  const data = result.output?.[0]?.data as PostmanCollection | undefined;
  if (!result.result || !data) throw new Error(`openapi-to-postmanv2 failed: ${result.reason ?? 'no output'}`);
  const collection: PostmanCollection = {
    info: { ...data.info, name: 'Atrium', schema: POSTMAN_SCHEMA },
    item: data.item,
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] },
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: TOKEN_SCRIPT.split('\n') } }],
    variable: VARIABLES.map(([key, value, description]) => ({ key, value, type: 'string', description })),
  };
  delete collection.info._postman_id;
  for (const folder of collection.item) delete folder.id;
  for (const item of requestsOf(collection.item)) finishRequest(item);
  return collection;
}
