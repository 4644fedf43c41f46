import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The server's large fixed answers (`/openapi.json`, `/docs/postman.json`, the `/docs` page and its Swagger UI
 * assets), compressed per `Accept-Encoding` and revalidated by `ETag` (docs/openapi-and-postman.md, "Compression and
 * caching").
 *
 * A body is made (read from disk, or serialized) on its first request and kept for the life of the process; each
 * encoding of it (Brotli, gzip) is computed on the first request that asks for it, off the event loop (zlib's
 * thread pool), and kept too. Startup does none of it.
 *
 * Each representation has a strong `ETag`: the SHA-256 of the identity body, with the coding appended for a
 * compressed one (`"…-br"`, `"…-gzip"`), since their bytes differ. A request whose `If-None-Match` names the ETag of
 * the representation it would get is answered 304 with no body.
 */

export type Coding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Brotli 9 and gzip 9: a 2 MB JSON document takes about 0.2 s and 0.05 s, once; Brotli 11 would take over 1 s. */
function compress(coding: Coding, body: Buffer): Promise<Buffer> {
  return coding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 9,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipped(body, { level: 9 });
}

interface Representation {
  body: Buffer;
  etag: string;
  /** Absent for identity. */
  coding?: Coding;
}

/** One body and its encodings, each computed once. */
export class StaticBody {
  readonly identity: Representation;
  readonly #encoded = new Map<Coding, Promise<Representation>>();

  constructor(body: Buffer | string) {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 32);
    this.identity = { body: bytes, etag: `"${hash}"` };
  }

  /** The representation for a coding (identity when `undefined`, or when compressing would not make it smaller). */
  representation(coding: Coding | undefined): Promise<Representation> {
    if (!coding) return Promise.resolve(this.identity);
    let encoded = this.#encoded.get(coding);
    if (!encoded) {
      const { body, etag } = this.identity;
      encoded = compress(coding, body).then((compressed) =>
        compressed.length < body.length
          ? { body: compressed, etag: `${etag.slice(0, -1)}-${coding}"`, coding }
          : this.identity,
      );
      this.#encoded.set(coding, encoded);
    }
    return encoded;
  }
}

/**
 * The coding to answer with: Brotli, else gzip, whichever the client accepts (an explicit `q=0` refuses one; `*`
 * accepts both); none (identity) without `Accept-Encoding` or when it accepts neither.
 */
export function chooseCoding(acceptEncoding: string | string[] | undefined): Coding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding).split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(.*)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  const accepts = (coding: Coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

/** Whether `If-None-Match` names this ETag (or is `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag === etag || tag === `W/${etag}`);
}

/** Adds a field name to `Vary`, keeping what a hook or the route already put there. */
function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const fields = typeof current === 'string' && current !== '' ? current.split(',').map((f) => f.trim()) : [];
  if (!fields.some((f) => f.toLowerCase() === field.toLowerCase())) fields.push(field);
  reply.header('Vary', fields.join(', '));
}

/**
 * Sends a static body: the representation the request's `Accept-Encoding` selects, with `Content-Encoding`,
 * `Vary: Accept-Encoding`, its `ETag` and `cacheControl`; or 304 with no body when `If-None-Match` names that ETag.
 */
export async function sendStatic(
  request: FastifyRequest,
  reply: FastifyReply,
  body: StaticBody,
  type: string,
  cacheControl: string,
): Promise<FastifyReply> {
  const chosen = await body.representation(chooseCoding(request.headers['accept-encoding']));
  addVary(reply, 'Accept-Encoding');
  reply.header('ETag', chosen.etag).header('Cache-Control', cacheControl);
  if (matches(request.headers['if-none-match'], chosen.etag)) return reply.status(304).send();
  if (chosen.coding) reply.header('Content-Encoding', chosen.coding);
  return reply.type(type).send(chosen.body);
}

/**
 * A body made on its first request and kept: `make` runs once (again after a failure, so a file built later is
 * picked up).
 */
export function lazyBody(make: () => Promise<Buffer | string> | Buffer | string): () => Promise<StaticBody> {
  let made: Promise<StaticBody> | undefined;
  return () => {
    if (made) return made;
    const making = Promise.resolve()
      .then(make)
      .then((bytes) => new StaticBody(bytes));
    made = making;
    making.catch(() => {
      if (made === making) made = undefined;
    });
    return making;
  };
}
