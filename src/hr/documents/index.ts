import type { CoreServices } from '../core/index.js';
import { UploadsRepository } from '../core/uploads/repository.js';
import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { documentTypeEvents } from './document-types/events.js';
import { DocumentTypesRepository } from './document-types/repository.js';
import { documentTypeRoutes } from './document-types/routes.js';
import { CompanyDocumentType, EmployeeDocumentType } from './document-types/schemas.js';
import { DocumentTypesService } from './document-types/service.js';
import { documentEvents } from './documents/events.js';
import { DocumentsRepository } from './documents/repository.js';
import { documentRoutes } from './documents/routes.js';
import { CompanyDocument, EmployeeDocument } from './documents/schemas.js';
import { DocumentsService } from './documents/service.js';
import { FoldersRepository } from './folders/repository.js';
import { folderRoutes } from './folders/routes.js';
import { Folder } from './folders/schemas.js';
import { FoldersService } from './folders/service.js';

/** The Document manager: folders, document types and documents, each for employees and for the company. */
export function createDocuments(ctx: HrContext, core: CoreServices) {
  const { paginator, blobs } = ctx;
  const folders = new FoldersService(unitOfWork(ctx, (db) => ({ folders: new FoldersRepository(db) })));
  const services = {
    folders,
    documentTypes: new DocumentTypesService(
      unitOfWork(ctx, (db) => ({ documentTypes: new DocumentTypesRepository(db) })),
      folders,
    ),
    documents: new DocumentsService(
      unitOfWork(ctx, (db) => ({ documents: new DocumentsRepository(db), uploads: new UploadsRepository(db) })),
      core.uploads,
      blobs,
      core.users,
    ),
  };
  const s = services;
  const modules: HrModule[] = [
    {
      schemas: [Folder, EmployeeDocumentType, CompanyDocumentType, EmployeeDocument, CompanyDocument],
      routes: async () => {},
    },
  ];
  for (const kind of ['employee', 'company'] as const) {
    modules.push(
      { routes: (app) => folderRoutes(app, { folders: s.folders, paginator, kind }) },
      {
        routes: (app) => documentTypeRoutes(app, { documentTypes: s.documentTypes, paginator, kind }),
        events: [documentTypeEvents[kind]],
      },
      {
        routes: (app) => documentRoutes(app, { documents: s.documents, paginator, blobs, kind }),
        events: [documentEvents[kind]],
      },
    );
  }
  return { services, modules } satisfies HrArea<typeof services>;
}

export type DocumentsServices = ReturnType<typeof createDocuments>['services'];
