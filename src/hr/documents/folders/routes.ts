import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '../../../platform/http/types.js';
import { errorResponses } from '../../errors.js';
import { PaginationHeaders, type Paginator } from '../../lists/pagination.js';
import type { FolderRow } from './repository.js';
import { Folder, FolderListQuery, FolderParams } from './schemas.js';
import type { FoldersService } from './service.js';
import type { DocumentKind } from './tables.js';

export function presentFolder(row: FolderRow): Folder {
  const localized = JSON.parse(row.localized_labels) as Folder['localized_labels'];
  return { id: row.id, label: row.label, localized_labels: localized, parent_folder_id: row.parent_folder_id };
}

/** `GET /{employee|company}_folders` and `GET /{employee|company}_folders/{id}` (reference §3c.5). */
export async function folderRoutes(
  app: FastifyInstance,
  opts: { folders: FoldersService; paginator: Paginator; kind: DocumentKind },
): Promise<void> {
  const { folders, paginator, kind } = opts;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = `/${kind}_folders`;
  const tags = [kind === 'employee' ? 'Employee folders' : 'Company folders'];

  api.get(
    base,
    {
      schema: {
        tags,
        summary: `List and search ${kind} folders`,
        description: 'Every client starts with a default folder tree (see docs/hr-api.md); folders are read-only.',
        querystring: FolderListQuery,
        response: {
          200: { ...Type.Array(Type.Ref(Folder)), headers: PaginationHeaders },
          ...errorResponses(400, 401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const scope = { clientId: request.hrAuth.clientId, list: `${kind}_folders`, keyCount: 1 };
      const { limit, position } = paginator.params(request.query, scope);
      const page = await folders.list(request.hrAuth.clientId, kind, request.query, limit, position);
      return paginator.present(request, reply, page, scope).map(presentFolder);
    },
  );

  api.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Get a ${kind} folder`,
        description: 'As in the reference, the answer is an array holding the one folder.',
        params: FolderParams,
        response: { 200: Type.Array(Type.Ref(Folder)), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => [presentFolder(await folders.get(request.hrAuth.clientId, kind, request.params.id))],
  );
}
