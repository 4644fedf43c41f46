/**
 * The data browser's way to a tenant's data: the tenant's own public API (the HR API, `/api/v2/client`, or the
 * Academy API, `/v1`), called with a view pass (docs/admin.md, "View passes"), a read-only credential for that one
 * tenant that the admin API mints for the signed-in operator. Passes live in memory only, never in a URL: the HR API
 * takes one as a bearer token, the Academy API in `X-API-Key` (with the academy's id as `acadId`, as every call
 * sends it).
 */

import type { AdminViewPass } from '@atrium/client';
import { ApiError, call } from './api';

export type TenantKind = 'hr' | 'academy';

/** A pass is minted again when less than this is left of it (ms). */
const MARGIN = 60_000;
const passes = new Map<string, Promise<{ pass: string; until: number }>>();

const at = (kind: TenantKind, id: string) => `/tenants/${kind}/${encodeURIComponent(id)}`;

/** The tenant's current pass: the one kept while more than a minute is left, else a new one. */
async function passFor(kind: TenantKind, id: string, fresh = false): Promise<string> {
  const key = `${kind}:${id}`;
  const kept = passes.get(key);
  if (kept && !fresh) {
    const held = await kept.catch(() => undefined);
    if (held && held.until - Date.now() > MARGIN) return held.pass;
  }
  // Another call may have begun minting meanwhile: share its pass.
  const current = passes.get(key);
  if (current && current !== kept) return (await current).pass;
  const requested = Date.now();
  const minting = call<AdminViewPass>('POST', `${at(kind, id)}/view_pass`).then((minted) => ({
    pass: minted.pass,
    until: requested + minted.expires_in * 1000,
  }));
  passes.set(key, minting);
  minting.catch(() => passes.delete(key));
  return (await minting).pass;
}

/** Forgets every pass (signing out). */
export function forgetPasses(): void {
  passes.clear();
}

/** The path a call goes to: the API's prefix and, for an academy, its id in the query. */
export function apiPath(kind: TenantKind, id: string, path: string): string {
  if (kind === 'hr') return `/api/v2/client${path}`;
  return `/v1${path}${path.includes('?') ? '&' : '?'}acadId=${encodeURIComponent(id)}`;
}

/** A call to the tenant's API with its pass; a 401 (an expired or revoked pass) mints a new one and tries again. */
export async function tenantFetch(
  kind: TenantKind,
  id: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  const send = async (fresh: boolean) => {
    const pass = await passFor(kind, id, fresh);
    const headers: Record<string, string> = kind === 'hr' ? { authorization: `Bearer ${pass}` } : { 'x-api-key': pass };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(apiPath(kind, id, path), {
      method: init.method ?? 'GET',
      headers,
      credentials: 'omit',
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  };
  const first = await send(false);
  if (first.status !== 401) return first;
  return send(true);
}

/** An API's error answer as an ApiError: both APIs answer `{code, message}`. */
async function failure(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let parsed: { code?: unknown; message?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // Not JSON: the status says enough.
  }
  return new ApiError(
    res.status,
    typeof parsed.code === 'string' ? parsed.code : `http_${res.status}`,
    `${res.status}: ${typeof parsed.message === 'string' ? parsed.message : res.statusText || 'failed'}`,
  );
}

/** One answer of the API: its JSON, its text as sent, the path it came from and its paging headers. */
export interface Answer {
  /** The path as called (without the pass, which is never in a URL). */
  path: string;
  status: number;
  body: unknown;
  text: string;
  nextCursor?: string;
  previousCursor?: string;
}

export async function getJson(kind: TenantKind, id: string, path: string): Promise<Answer> {
  const res = await tenantFetch(kind, id, path);
  if (!res.ok) throw await failure(res);
  const text = await res.text();
  return {
    path: apiPath(kind, id, path),
    status: res.status,
    body: text ? (JSON.parse(text) as unknown) : null,
    text,
    ...(res.headers.get('next-cursor') ? { nextCursor: res.headers.get('next-cursor') as string } : {}),
    ...(res.headers.get('previous-cursor') ? { previousCursor: res.headers.get('previous-cursor') as string } : {}),
  };
}

/** A file of the API (a document's bytes) as a Blob, with its type and the name its answer gives. */
export async function getFile(
  kind: TenantKind,
  id: string,
  path: string,
): Promise<{ blob: Blob; type: string; name: string | undefined }> {
  const res = await tenantFetch(kind, id, path);
  if (!res.ok) throw await failure(res);
  const type = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]?.trim() ?? '';
  const disposition = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  const name = star ? decodeURIComponent(star) : plain;
  return { blob: await res.blob(), type, name };
}

/** Asks for a delivery to be sent again (the admin API; the HR API's own redeliver is not open to a pass). */
export function redeliver(id: string, webhookId: string, deliveryId: string): Promise<void> {
  return call<void>(
    'POST',
    `${at('hr', id)}/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
  );
}

/** Fires an audit event of an HR client (the admin API's event trigger): the answer's type and webhooks count. */
export function triggerEvent(
  id: string,
  type: string,
  resourceId: string,
): Promise<{ event: { id: string; type: string }; webhooks: number }> {
  return call('POST', `${at('hr', id)}/events/trigger`, { type, ...(resourceId ? { resource_id: resourceId } : {}) });
}
