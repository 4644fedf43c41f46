import { createHash } from 'node:crypto';
import { CODES, HEADERS } from '@atrium/client/wire';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { ConflictError, InvalidRequestError, StateError } from '../errors.js';

/**
 * `Idempotency-Key` on POSTs, an Atrium extension of both APIs (docs/hr-api.md, "Idempotent POSTs").
 *
 * A POST that carries the header is recorded under its tenant and key before it runs, with a hash of its method,
 * path and body. The same key again, within the retention (24 h):
 * - with the same method, path and body, after the first one ended: the first answer is replayed (status, body,
 *   `Content-Type`, `Location`), with `Idempotent-Replayed: true`, and nothing runs again;
 * - while the first one is still running: 409 `idempotency_key_in_use`, with `Retry-After: 1`;
 * - with another method, path or body: 422 `idempotency_key_reused`.
 *
 * Answers below 500 are kept; a 5xx, or an answer too large to keep, frees the key, so a retry runs again. Keys are
 * rows in the database, so they hold across restarts and processes. What is not covered: a process killed after
 * the write committed and before the answer was recorded leaves the key pending; after the lease (60 s) a retry
 * runs again. Multipart bodies (uploads) are not hashed: the header is ignored on them.
 */

export const IDEMPOTENCY_HEADER = HEADERS.idempotencyKey.toLowerCase();
export const REPLAYED_HEADER = HEADERS.idempotentReplayed;
/** How long a key is remembered. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;
/** How long a pending key holds before a retry may take it over (its first request presumably died). */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** The largest answer body kept for replay. */
export const IDEMPOTENCY_MAX_BODY = 1024 * 1024;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The header as the OpenAPI document describes it. */
const KEY_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7e]+$',
  description:
    'Atrium extension: a key of your choice (a UUID) that makes a retried POST safe. The same key and body within 24 h replay the first answer (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_use`.',
};

/** Rows deleted per sweep statement. */
const SWEEP_BATCH = 1000;

interface Claim {
  tenant: string;
  key: string;
}

export interface IdempotencyOptions {
  db: Db;
  /** The tenant of an authenticated request (`hr:<client>`, `academy:<id>`); undefined skips the request. */
  tenantOf(request: FastifyRequest): string | undefined;
  /** The clock retention is measured with. */
  now(): number;
}

function requestHash(request: FastifyRequest): string {
  const path = request.url;
  return createHash('sha256')
    .update(`${request.method} ${path}\n`)
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');
}

/**
 * Adds the hooks to a Fastify scope (an API's authenticated routes): every POST route registered in it honours the
 * header, with no code of its own.
 */
export function idempotentPosts(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db } = options;
  const claims = new WeakMap<FastifyRequest, Claim>();

  const release = async (claim: Claim) => {
    await db.deleteFrom('idempotency_keys').where('tenant', '=', claim.tenant).where('key', '=', claim.key).execute();
  };

  // Every POST route of the scope documents the header (an Atrium extension) in the OpenAPI document.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !route.schema) return;
    const headers = (route.schema.headers ?? { type: 'object', properties: {} }) as {
      properties?: Record<string, unknown>;
    };
    route.schema.headers = {
      ...headers,
      properties: { ...(headers.properties ?? {}), [HEADERS.idempotencyKey]: KEY_SCHEMA },
    };
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if ((request.headers['content-type'] ?? '').startsWith('multipart/')) return;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw new InvalidRequestError(
        'Invalid header "Idempotency-Key": 1 to 255 printable ASCII characters, without spaces.',
      );
    }
    const tenant = options.tenantOf(request);
    if (tenant === undefined) return;
    const hash = requestHash(request);
    const at = options.now();
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ tenant, key: header, request_hash: hash, state: 'pending', created_at: at })
        .onConflict((oc) => oc.columns(['tenant', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) {
        claims.set(request, { tenant, key: header });
        return;
      }
      const row = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('tenant', '=', tenant)
        .where('key', '=', header)
        .executeTakeFirst();
      if (!row) continue; // Swept meanwhile: claim it again.
      const age = at - Number(row.created_at);
      const stale = age >= IDEMPOTENCY_RETENTION_MS || (row.state === 'pending' && age >= IDEMPOTENCY_LEASE_MS);
      if (stale) {
        await db
          .deleteFrom('idempotency_keys')
          .where('tenant', '=', tenant)
          .where('key', '=', header)
          .where('created_at', '=', row.created_at)
          .execute();
        continue;
      }
      if (row.request_hash !== hash) {
        throw new StateError(
          CODES.idempotencyKeyReused,
          'This Idempotency-Key was used with another request (method, path or body); use a new key.',
        );
      }
      if (row.state === 'pending') {
        reply.header('Retry-After', '1');
        throw new ConflictError(
          'A request with this Idempotency-Key is still running; retry shortly.',
          CODES.idempotencyKeyInUse,
        );
      }
      const headers = JSON.parse(row.headers ?? '{}') as Record<string, string>;
      for (const [name, value] of Object.entries(headers)) reply.header(name, value);
      reply.header(REPLAYED_HEADER, 'true');
      // Sent as stored: the bytes of the first answer, not serialized again.
      reply.serializer((payload: unknown) => payload as string);
      return reply.code(row.status ?? 200).send(row.body ?? '');
    }
    throw new ConflictError('This Idempotency-Key is changing hands; retry shortly.', CODES.idempotencyKeyInUse);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    const status = reply.statusCode;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    if (status >= 500 || body === null || Buffer.byteLength(body) > IDEMPOTENCY_MAX_BODY) {
      await release(claim);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'location']) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    await db
      .updateTable('idempotency_keys')
      .set({ state: 'done', status, headers: JSON.stringify(headers), body })
      .where('tenant', '=', claim.tenant)
      .where('key', '=', claim.key)
      .execute();
    return payload;
  });

  // A request that failed before its answer was made (an error thrown while running) still ends in onSend with
  // its error answer; one whose connection dropped never does, and its key waits for the lease.
}

/** Deletes the keys past their retention, a batch at a time; answers how many. */
export async function sweepIdempotencyKeys(db: Db, now: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('idempotency_keys')
      .where('created_at', 'in', (eb) =>
        eb
          .selectFrom('idempotency_keys')
          .select('created_at')
          .where('created_at', '<', now - IDEMPOTENCY_RETENTION_MS)
          .limit(SWEEP_BATCH),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < SWEEP_BATCH) return total;
  }
}
