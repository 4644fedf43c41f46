import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../platform/http/types.js';
import { academyErrors } from '../errors.js';
import type { CurriculumsService } from './curriculums-service.js';
import {
  CompleteBody,
  CompleteQuery,
  CompleteResult,
  CurriculumStudentsQuery,
  Student,
  UserCurriculum,
  UserCurriculumsQuery,
  UserParams,
} from './learning-schemas.js';
import { presentCurriculum, presentStudent, presentUserCurriculum } from './present.js';
import { Curriculum, CurriculumsQuery, IdParams, PAGING, TAG } from './schemas.js';

export function curriculumRoutes(app: FastifyInstance, curriculums: CurriculumsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/curriculums',
    {
      schema: {
        tags: TAG,
        summary: 'List curriculums (learning paths)',
        description: `${PAGING} Default limit 20, at most 100; \`status\` default \`active\`.`,
        querystring: CurriculumsQuery,
        response: { 200: Type.Array(Curriculum), ...academyErrors(400, 401) },
      },
    },
    async (request) => (await curriculums.list(request.academy.academyId, request.query)).map(presentCurriculum),
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
      async (request) => presentCurriculum(await curriculums.get(request.academy.academyId, request.params.id)),
    );
  }

  api.get(
    '/curriculums/user/:userId',
    {
      schema: {
        tags: TAG,
        summary: 'List a user’s curriculums',
        description: `The curriculums the user is enrolled in, with the enrollment. ${PAGING} Default limit 100, at most 100.`,
        params: UserParams,
        querystring: UserCurriculumsQuery,
        response: { 200: Type.Array(UserCurriculum), ...academyErrors(400, 401, 404) },
      },
    },
    async (request) =>
      (await curriculums.ofUser(request.academy.academyId, request.params.userId, request.query)).map(
        presentUserCurriculum,
      ),
  );

  api.get(
    '/curriculums/:id/students',
    {
      schema: {
        tags: TAG,
        summary: 'List a curriculum’s students',
        description: 'A bare JSON array in user id order. Default limit 100, at most 1000.',
        params: IdParams,
        querystring: CurriculumStudentsQuery,
        response: { 200: Type.Array(Student), ...academyErrors(400, 401, 404) },
      },
    },
    async (request) =>
      (await curriculums.students(request.academy.academyId, request.params.id, request.query)).map(presentStudent),
  );

  api.put(
    '/curriculums/:id/completeByAdmin',
    {
      schema: {
        tags: TAG,
        summary: 'Mark a curriculum completed by an administrator',
        description:
          'For at most 10 users (`{"userIds": [...]}` or a bare array; `externalIds=true` for external ids): progress 100 and the completion date `completedAt` (default today, UTC). A user not enrolled is enrolled. Answers 200 with JSON, like the events’ PUTs.',
        params: IdParams,
        querystring: CompleteQuery,
        body: CompleteBody,
        response: { 200: CompleteResult, ...academyErrors(400, 401, 404) },
      },
    },
    async (request) => {
      const done = await curriculums.completeByAdmin(
        request.academy.academyId,
        request.params.id,
        request.body,
        request.query,
      );
      return {
        status: 200,
        message: `Curriculum ${request.params.id} completed by an administrator for ${done.userIds.length} user(s).`,
        ...done,
      };
    },
  );
}
