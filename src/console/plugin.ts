import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PACKAGE_ROOT } from '../platform/build-info.js';

/** Where `npm run build` writes the console (console/vite.config.ts), under the package root. */
const BUILT = path.join(PACKAGE_ROOT, 'dist', 'web', 'console');

/** The console's prefix; its page answers every path under it that is not an asset. */
export const CONSOLE_PREFIX = '/console';

/** Whether a URL is the console's (`/console`, `/console/…`, `/console?…`). */
export function underConsole(url: string): boolean {
  const next = url[CONSOLE_PREFIX.length];
  return url.startsWith(CONSOLE_PREFIX) && (next === undefined || next === '/' || next === '?');
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * Everything from this server, nothing inline: the console's bundle needs no more. It calls only this origin (the
 * admin API and the tenant APIs), and no other site may frame it. A document's preview is a `blob:` URL of bytes the
 * page fetched itself (an image, or a PDF in a frame): nothing else is framed.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  'frame-src blob:',
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface Built {
  index: File;
  assets: Map<string, File>;
}

/** A file of the console, with its compressed forms once asked for (made on first use, then kept). */
interface File {
  type: string;
  bytes: Buffer;
  encoded: Map<Encoding, Promise<Buffer>>;
}

type Encoding = 'br' | 'gzip';
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The encoding to send a file in: brotli, else gzip, when the client takes it (`Accept-Encoding`, a `q=0` refusing
 * one); none for a file too small to gain from it.
 */
function encodingFor(accept: string | undefined, file: File): Encoding | undefined {
  if (!accept || file.bytes.length < 1024) return undefined;
  const taken = new Set(
    accept
      .toLowerCase()
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, ...params]) => !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)))
      .map(([name]) => name?.trim()),
  );
  if (taken.has('br')) return 'br';
  if (taken.has('gzip')) return 'gzip';
  return undefined;
}

function encoded(file: File, encoding: Encoding): Promise<Buffer> {
  let done = file.encoded.get(encoding);
  if (!done) {
    done =
      encoding === 'br'
        ? brotli(file.bytes, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: file.bytes.length },
          })
        : gzipped(file.bytes, { level: 9 });
    file.encoded.set(encoding, done);
  }
  return done;
}

/** Sends a file, compressed when the client takes it (`Vary: Accept-Encoding` either way). */
async function sendFile(request: FastifyRequest, reply: FastifyReply, file: File): Promise<FastifyReply> {
  reply.type(file.type).header('Vary', 'Accept-Encoding');
  const encoding = encodingFor(request.headers['accept-encoding'], file);
  if (!encoding) return reply.send(file.bytes);
  return reply.header('Content-Encoding', encoding).send(await encoded(file, encoding));
}

/** The built console, read once; undefined when it was not built (a checkout that never ran `npm run build`). */
async function readBuilt(): Promise<Built | undefined> {
  let index: File;
  try {
    index = {
      type: 'text/html; charset=utf-8',
      bytes: await readFile(path.join(BUILT, 'index.html')),
      encoded: new Map(),
    };
  } catch {
    return undefined;
  }
  const assets = new Map<string, File>();
  const dir = path.join(BUILT, 'assets');
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const type = TYPES[path.extname(name)];
    if (type) assets.set(name, { type, bytes: await readFile(path.join(dir, name)), encoded: new Map() });
  }
  return { index, assets };
}

function secured(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer');
}

/**
 * The web console, `/console` (docs/console.md): a single page built from console/ into dist/web/console,
 * served from memory, compressed (brotli or gzip, made once on first use) for a client that takes it. Its assets
 * have content-hashed names and are cached for a year; the page itself is not
 * cached, so a new release is picked up at the next load. The page talks only to the admin API (`/admin/v1`,
 * signed in with a session cookie) and the public APIs.
 */
export async function consolePage(app: FastifyInstance): Promise<void> {
  const built = await readBuilt();
  const hide = { schema: { hide: true } };
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!built) {
      return secured(reply)
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `npm run build` (npm install does it in a clone).\n');
    }
    return sendFile(request, secured(reply).header('Cache-Control', 'no-cache'), built.index);
  };
  // `/console` without its slash: the page's relative links need the folder.
  app.get(CONSOLE_PREFIX, hide, async (request, reply) =>
    (request.url.split('?', 1)[0] as string).endsWith('/')
      ? page(request, reply)
      : reply.redirect(`${CONSOLE_PREFIX}/`),
  );
  const asset = { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 128 }) }) } };
  app.get<{ Params: { file: string } }>(`${CONSOLE_PREFIX}/assets/:file`, asset, async (request, reply) => {
    const found = built?.assets.get(request.params.file);
    if (!found) return reply.callNotFound();
    return sendFile(request, secured(reply).header('Cache-Control', 'public, max-age=31536000, immutable'), found);
  });
  // Nothing else under assets/ is a page: a broken asset link gets a 404, not the page as a script.
  const noAsset = async (_request: unknown, reply: FastifyReply) => reply.callNotFound();
  app.get(`${CONSOLE_PREFIX}/assets`, hide, noAsset);
  app.get(`${CONSOLE_PREFIX}/assets/*`, hide, noAsset);
  // Any other path under the console is one of its pages: the page routes itself.
  app.get(`${CONSOLE_PREFIX}/*`, hide, page);
}
