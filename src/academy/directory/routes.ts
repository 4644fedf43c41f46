import type { FastifyInstance } from 'fastify';
import type { TimezoneRegistry } from '../content/timezones.js';
import { contentRoutes } from './routes-content.js';
import { courseRoutes } from './routes-courses.js';
import { curriculumRoutes } from './routes-curriculums.js';
import { userRoutes } from './routes-users.js';
import type { DirectoryService } from './service.js';

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
