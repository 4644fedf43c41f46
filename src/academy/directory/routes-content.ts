import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import type { TimezoneRegistry } from '../content/timezones.js';
import { academyErrors } from '../errors.js';
import { ContentItem, ContentQuery } from './content-schemas.js';
import { presentCategory, presentContent, presentVenue } from './present.js';
import { CategoriesQuery, Category, PAGING, TAG, Timezone, Venue, VenuesQuery } from './schemas.js';
import type { DirectoryService } from './service.js';

export function contentRoutes(app: FastifyInstance, directory: DirectoryService, timezones: TimezoneRegistry): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/content',
    {
      schema: {
        tags: TAG,
        summary: 'List content items',
        description:
          'A bare JSON array, by `order_by` (default `time_added`) and `direction` (default `desc`), ties in id order. Default limit 20, at most 100.',
        querystring: ContentQuery,
        response: { 200: Type.Array(ContentItem), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await directory.listContent(request.academy.academyId, request.query)).map(presentContent),
  );

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
