/** Response serializers (fast-json-stringify): shared by schema across routes, compiled on a route's first answer. */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { deferSchemaCompile, schemaCompiled } from './validation.js';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Serializers already built, by the shared schemas they may reference and the schema itself: the same response
 * schema (every route's error bodies, most of all) is compiled once, not once per route and status code. That
 * cut the compiled schemas' heap from about 75 MB to a few (docs/PERFORMANCE.md).
 */
const serializerCache = new Map<string, (data: unknown) => string>();

/** Fastify's own serializer compiler, deferred: each route's serializer is built when it first answers. */
export const lazySerializers = ((...args: Parameters<SerializerFactory>) => {
  // A factory per serializer: Fastify's compiler deletes a response schema's own `$id` from the shared schemas of
  // the factory it is given, so one factory shared by a scope loses that schema for every route compiled after
  // (a route answering `AdminTenant` itself, then one answering an object that references it).
  const compile = (route: Parameters<ReturnType<SerializerFactory>>[0]) => SerializerSelector()(...args)(route);
  // Each shared schema has one $id, so the ids in scope tell what a $ref resolves to.
  const scope = Object.keys(args[0] ?? {})
    .sort()
    .join('\n');
  return (route: Parameters<ReturnType<SerializerFactory>>[0]) => {
    const key = `${scope}\n\n${JSON.stringify(route.schema)}`;
    let serialize = serializerCache.get(key);
    const build = () => {
      if (!serialize) {
        serialize = serializerCache.get(key) ?? (compile(route) as (data: unknown) => string);
        serializerCache.set(key, serialize);
      }
      schemaCompiled(build);
      return serialize;
    };
    deferSchemaCompile(build);
    return (data: unknown) => (serialize ?? build())(data);
  };
}) as unknown as SerializerFactory;
