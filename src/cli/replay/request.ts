/**
 * A recorded request made ready to send again (docs/replay.md, "Credentials" and "Ids"): the learned ids of the
 * replay in its path, query and body, and the target's credentials where the recording has `[redacted]`.
 */
import { randomUUID } from 'node:crypto';
import { isSecretName } from '../../platform/security/redact.js';
import { type Exchange, isRedacted } from './recording.js';
import { type IdMap, isCursorKey, isGeneratedId, isIdKey, kindOf, resourceOf } from './rules.js';

/** The target tenant's credentials: HR's application (and client), the academy's id and key. */
export interface ReplayCredentials {
  clientId?: string;
  applicationId?: string;
  applicationSecret?: string;
  acadId?: string;
  apikey?: string;
}

/** What a replay carries from one call to the next. */
export interface ReplayState {
  ids: IdMap;
  credentials: ReplayCredentials;
  /** The HR access token the replay holds (its own token call's, or the last replayed token call's). */
  token?: string;
  /** A prefix of the Idempotency-Keys the replay makes up for redacted ones, one per run. */
  run: string;
}

export interface OutgoingRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Headers the replay's own HTTP client sets (or that described the recorded connection). */
const NOT_SENT = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'accept-encoding',
]);

export const HR_PREFIX = '/api/v2/client';

export function isTokenCall(method: string, path: string): boolean {
  return method === 'POST' && /^\/api\/v2\/client\/tokens(?:\?|$)/.test(path);
}

export function isHrPath(path: string): boolean {
  return path === HR_PREFIX || path.startsWith(`${HR_PREFIX}/`) || path.startsWith(`${HR_PREFIX}?`);
}

function missing(what: string): Error {
  return new Error(`the recording needs ${what} of the target tenant (docs/replay.md, "Credentials")`);
}

export function basicAuthorization(credentials: ReplayCredentials): string {
  if (!credentials.applicationId || !credentials.applicationSecret) {
    throw missing('--application-id and --application-secret');
  }
  return `Basic ${Buffer.from(`${credentials.applicationId}:${credentials.applicationSecret}`).toString('base64')}`;
}

/** A query parameter's or form field's value for the replay: a secret filled in, an id or cursor mapped. */
function parameter(state: ReplayState, name: string, value: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower === 'acadid') {
    if (!state.credentials.acadId) throw missing('--acad-id');
    if (/^\d+$/.test(value) && /^\d+$/.test(state.credentials.acadId)) {
      state.ids.learn(Number(value), Number(state.credentials.acadId), 'acad');
    }
    return state.credentials.acadId;
  }
  if (lower === 'client_id' && state.credentials.clientId) {
    state.ids.get(value) ?? state.ids.learn(value, state.credentials.clientId);
    return state.credentials.clientId;
  }
  if (isRedacted(value) && isSecretName(name)) {
    if (lower === 'apikey' || lower === 'api_key') {
      if (!state.credentials.apikey) throw missing('--apikey');
      return state.credentials.apikey;
    }
    if (lower === 'token' || lower === 'access_token') return state.token;
    if (lower === 'client_secret') return state.credentials.applicationSecret;
    return undefined;
  }
  if (/^\d+$/.test(value) && isIdKey(name)) return state.ids.get(Number(value), kindOf(name, undefined, '')) ?? value;
  return state.ids.get(value) ?? value;
}

/** A query string or form body with its values replaced (a redacted secret the replay cannot fill is dropped). */
export function rewriteForm(state: ReplayState, text: string): string {
  const out = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(text)) {
    const replaced = parameter(state, name, value);
    if (replaced !== undefined) out.append(name, replaced);
  }
  return out.toString();
}

function rewritePath(state: ReplayState, recorded: string): string {
  const mark = recorded.indexOf('?');
  const pathname = mark < 0 ? recorded : recorded.slice(0, mark);
  let previous = '';
  const segments = pathname.split('/').map((segment) => {
    if (/^\d+$/.test(segment)) {
      return state.ids.get(Number(segment), kindOf(undefined, undefined, previous)) ?? segment;
    }
    if (segment !== '') previous = segment;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return segment;
    }
    const mapped = state.ids.get(decoded);
    if (mapped !== undefined) return encodeURIComponent(mapped);
    return segment;
  });
  if (mark < 0) return segments.join('/');
  const query = rewriteForm(state, recorded.slice(mark + 1));
  return query ? `${segments.join('/')}?${query}` : segments.join('/');
}

/** A JSON body's ids replaced: any string that is a learned id, and an integer under an id member (of its kind). */
function rewriteJson(
  state: ReplayState,
  value: unknown,
  at: { key?: string; owner?: string; resource: string },
): unknown {
  const { key, owner, resource } = at;
  if (Array.isArray(value)) {
    return value.map((v) =>
      rewriteJson(state, v, { key: isIdKey(key) ? key : undefined, owner: key ?? owner, resource }),
    );
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, rewriteJson(state, v, { key: k, owner: key ?? owner, resource })]),
    );
  }
  if (typeof value === 'string') return state.ids.get(value) ?? value;
  if (typeof value === 'number' && isGeneratedId(key, value) && !isCursorKey(key)) {
    const mapped = state.ids.get(value, kindOf(key, owner, resource));
    return mapped === undefined ? value : Number(mapped);
  }
  return value;
}

function bodyOf(state: ReplayState, exchange: Exchange, contentType: string): string | Buffer | undefined {
  const body = exchange.request.body;
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (typeof b.omitted === 'number') {
      throw new Error(`its request body (${b.omitted} bytes) was too large to be recorded`);
    }
    if (typeof b.base64 === 'string' && Object.keys(b).length === 1) return Buffer.from(b.base64, 'base64');
    if (typeof b.text === 'string' && Object.keys(b).length === 1) {
      return /application\/x-www-form-urlencoded/i.test(contentType) ? rewriteForm(state, b.text) : b.text;
    }
  }
  return JSON.stringify(rewriteJson(state, body, { resource: resourceOf(exchange.request.path) }));
}

/**
 * The request to send for a recorded exchange. Throws an Error when it cannot be sent (a credential the options do
 * not give, a body that was not recorded): the replay reports that call as not replayed.
 */
export function outgoing(state: ReplayState, exchange: Exchange): OutgoingRequest {
  const { method, path: recordedPath } = exchange.request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    if (NOT_SENT.has(name)) continue;
    if (name === 'authorization') {
      if (isTokenCall(method, recordedPath) || /^basic/i.test(value))
        headers[name] = basicAuthorization(state.credentials);
      else if (isHrPath(recordedPath)) headers[name] = `Bearer ${state.token ?? ''}`;
      else if (!isRedacted(value)) headers[name] = value;
    } else if (name === 'x-api-key' && isRedacted(value)) {
      if (!state.credentials.apikey) throw missing('--apikey');
      headers[name] = state.credentials.apikey;
    } else if (name === 'idempotency-key' && isRedacted(value)) {
      headers[name] = `${state.run}-${exchange.seq}`;
    } else if (!isRedacted(value)) {
      headers[name] = state.ids.rewrite(value);
    }
  }
  const body = bodyOf(state, exchange, headers['content-type'] ?? '');
  return { method, path: rewritePath(state, recordedPath), headers, ...(body !== undefined ? { body } : {}) };
}

export function newRunId(): string {
  return `atrium-replay-${randomUUID()}`;
}
