/** The body parsers of the server: JSON (an empty body is no body; a depth limit) and forms (no repeated parameter). */
import type { FastifyInstance } from 'fastify';

/**
 * A form body as a record without a prototype: `toString=1` is a parameter like any other (not a "repeated" one
 * found on Object.prototype), and `__proto__=1` is a key, never the record's prototype.
 */
export function formParser(body: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(body)) {
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

class BadBody extends Error {
  readonly statusCode = 400;
}

/** A JSON body nested deeper than this is refused (400): no schema comes near it, and no code below must meet it. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text opens more than `max` arrays or objects inside one another (one pass, strings skipped). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** JSON and form bodies, as every route of the server reads them. */
export function addBodyParsers(app: FastifyInstance): void {
  // A JSON content type with an empty body means "no body" (PUT …/trash, publish calls, DELETE).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    if (nestedDeeperThan(body as string, MAX_JSON_DEPTH)) {
      return done(new BadBody(`The body is nested more than ${MAX_JSON_DEPTH} levels deep.`), undefined);
    }
    defaultJson(request, body as string, (err, value) => {
      if (err) return done(new BadBody('The body is not valid JSON.'), undefined);
      done(null, value);
    });
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const parsed = formParser(body as string);
    const repeated = Object.entries(parsed).find(([, v]) => Array.isArray(v));
    if (repeated) return done(new BadBody(`Form parameter "${repeated[0]}" is repeated.`), undefined);
    done(null, parsed);
  });
}
