import type { FastifyInstance } from 'fastify';
import type { TimezoneRegistry } from '../content/timezones.js';
import { contentRoutes } from './content-routes.js';
import { courseRoutes } from './courses-routes.js';
import { curriculumRoutes } from './curriculums-routes.js';
import type { DirectoryService } from './service.js';
import { userRoutes } from './users-routes.js';

/** The directory's endpoints; each GET answers 200 with JSON, every call scoped to the caller's academy. */
export async function directoryRoutes(
  app: FastifyInstance,
  opts: { directory: DirectoryService; timezones: TimezoneRegistry },
): Promise<void> {
  userRoutes(app, opts.directory);
  courseRoutes(app, opts.directory.courses);
  curriculumRoutes(app, opts.directory.curriculums);
  contentRoutes(app, opts.directory, opts.timezones);
}
