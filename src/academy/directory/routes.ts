import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import { academyErrors } from '../errors.js';
import { presentCategory, presentCourse, presentCurriculum, presentUser, presentVenue } from './present.js';
import type { CategoryRow } from './repository.js';
import {
  CategoriesQuery,
  Category,
  Course,
  CoursesQuery,
  Curriculum,
  CurriculumsQuery,
  IdParams,
  Timezone,
  User,
  UsersQuery,
  Venue,
  VenuesQuery,
} from './schemas.js';
import type { DirectoryService } from './service.js';

const TAG = ['Academy directory'];
const PAGING = 'A bare JSON array in id order; `start` skips, `limit` takes.';

/** GET endpoints of the directory; each answers 200 with JSON, scoped to the caller's academy. */
export async function directoryRoutes(
  app: FastifyInstance,
  opts: { directory: DirectoryService; timezones: TimezoneRegistry },
): Promise<void> {
  const { directory, timezones } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/users',
    {
      schema: {
        tags: TAG,
        summary: 'List users',
        description: `${PAGING} Default limit 20, at most 100.`,
        querystring: UsersQuery,
        response: { 200: Type.Array(User), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await directory.listUsers(request.academy.academyId, request.query)).map(presentUser),
  );

  api.get(
    '/users/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a user',
        params: IdParams,
        response: { 200: User, ...academyErrors(401, 404) },
      },
    },
    async (request) => presentUser(await directory.getUser(request.academy.academyId, request.params.id)),
  );

  api.get(
    '/courses',
    {
      schema: {
        tags: TAG,
        summary: 'List courses',
        description: `${PAGING} Default limit 20, at most 100.`,
        querystring: CoursesQuery,
        response: { 200: Type.Array(Course), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await directory.listCourses(request.academy.academyId, request.query)).map(presentCourse),
  );

  api.get(
    '/courses/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Get a course',
        params: IdParams,
        response: { 200: Course, ...academyErrors(401, 404) },
      },
    },
    async (request) => presentCourse(await directory.getCourse(request.academy.academyId, request.params.id)),
  );

  api.get(
    '/curriculums',
    {
      schema: {
        tags: TAG,
        summary: 'List curriculums (learning paths)',
        description: `${PAGING} Default limit 20, at most 100.`,
        querystring: CurriculumsQuery,
        response: { 200: Type.Array(Curriculum), ...academyErrors(400, 401) },
      },
    },
    async (request) =>
      (await directory.listCurriculums(request.academy.academyId, request.query)).map(presentCurriculum),
  );

  for (const url of ['/curriculums/:id', '/curriculum/:id']) {
    api.get(
      url,
      {
        schema: {
          tags: TAG,
          summary:
            url === '/curriculum/:id'
              ? 'Get a curriculum (singular path, as some clients call it)'
              : 'Get a curriculum',
          params: IdParams,
          response: { 200: Curriculum, ...academyErrors(401, 404) },
        },
      },
      async (request) => presentCurriculum(await directory.getCurriculum(request.academy.academyId, request.params.id)),
    );
  }

  api.get(
    '/content/categories',
    {
      schema: {
        tags: TAG,
        summary: 'List content categories',
        description: `${PAGING} Default limit 20, at most 100.`,
        querystring: CategoriesQuery,
        response: { 200: Type.Array(Category), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await directory.listCategories(request.academy.academyId, request.query)).map(presentCategory),
  );

  api.get(
    '/content/venues',
    {
      schema: {
        tags: TAG,
        summary: 'List venues',
        description: `${PAGING} Default limit 20, at most 20.`,
        querystring: VenuesQuery,
        response: { 200: Type.Array(Venue), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await directory.listVenues(request.academy.academyId, request.query)).map(presentVenue),
  );

  api.get(
    '/content/timezones',
    {
      schema: {
        tags: TAG,
        summary: 'List timezones',
        description: 'Every timezone, in id order, with the offset and label in force now. Not paged.',
        response: { 200: Type.Array(Timezone), ...academyErrors(401) },
      },
    },
    async () => directory.listTimezones(timezones),
  );
}
