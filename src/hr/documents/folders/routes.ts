import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { listRoute } from '../../lists/list.js';
import type { Paginator } from '../../lists/pagination.js';
import { presentFolder } from './present.js';
import { FOLDER_LISTS, Folder, FolderListQuery, FolderParams } from './schemas.js';
import type { FoldersService } from './service.js';
import type { DocumentKind } from './tables.js';

/** `GET /{employee|company}_folders` and `GET /{employee|company}_folders/{id}` (reference §3c.5). */
export async function folderRoutes(
  app: FastifyInstance,
  opts: { folders: FoldersService; paginator: Paginator; kind: DocumentKind },
): Promise<void> {
  const { folders, paginator, kind } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = `/${kind}_folders`;
  const tags = [kind === 'employee' ? 'Employee folders' : 'Company folders'];
  const aKind = kind === 'employee' ? 'an employee' : 'a company';

  listRoute(
    app,
    paginator,
    {
      path: base,
      tags,
      summary: `List and search ${kind} folders`,
      description: 'Every client starts with a default folder tree (see docs/hr-api.md); folders are read-only.',
      querystring: FolderListQuery,
      item: Type.Ref(Folder),
      list: FOLDER_LISTS[kind],
    },
    { page: (clientId, query, request) => folders.list(clientId, kind, query, request), present: presentFolder },
  );

  api.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Get ${aKind} folder`,
        description: 'As in the reference, the answer is an array holding the one folder.',
        params: FolderParams,
        response: { 200: Type.Array(Type.Ref(Folder)), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => [presentFolder(await folders.get(request.hrAuth.clientId, kind, request.params.id))],
  );
}
