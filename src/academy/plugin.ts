import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { AcademiesService } from './academies/service.js';
import { academyGuard } from './auth/guard.js';
import type { TimezoneRegistry } from './content/timezones.js';
import { directoryRoutes } from './directory/routes.js';
import type { DirectoryService } from './directory/service.js';
import { AcademyError, AcademyErrorBody, sendAcademyError } from './errors.js';
import { eventRoutes } from './events/routes.js';
import type { EventsService } from './events/service.js';

export const ACADEMY_PREFIX = '/v1';

export interface AcademyServices {
  academies: AcademiesService;
  events: EventsService;
  directory: DirectoryService;
  timezones: TimezoneRegistry;
}

export interface AcademyOptions extends AcademyServices {
  /** Origins allowed to call `/v1` from a browser; empty turns CORS off. */
  corsOrigins: string[];
}

/**
 * The Academy events API, as one encapsulated Fastify plugin with its own
 * error format, API-key guard and optional CORS.
 */
export async function academyApi(app: FastifyInstance, options: AcademyOptions): Promise<void> {
  app.addSchema(AcademyErrorBody);
  if (options.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: options.corsOrigins.includes('*') ? '*' : options.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Content-Type', 'X-API-Key'],
      maxAge: 600,
    });
  }
  app.setErrorHandler((error, request, reply) => sendAcademyError(error as Error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendAcademyError(
      new AcademyError(404, 'not_found', `No resource at ${request.url.split('?', 1)[0]}.`),
      request,
      reply,
    ),
  );

  await app.register(async (guarded) => {
    guarded.addHook('onRequest', academyGuard(options.academies));
    // Resource routes register here.
    await guarded.register(eventRoutes, { events: options.events });
    await guarded.register(directoryRoutes, { directory: options.directory, timezones: options.timezones });
  });
}
