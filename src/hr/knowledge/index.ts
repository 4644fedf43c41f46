import { type HrArea, type HrContext, type HrModule, unitOfWork } from '../module.js';
import { kbArticleEvents } from './kb-articles/events.js';
import { KbArticlesRepository } from './kb-articles/repository.js';
import { kbArticleRoutes } from './kb-articles/routes.js';
import { KbArticle, KbTag } from './kb-articles/schemas.js';
import { KbArticlesService } from './kb-articles/service.js';
import { kbCategoryEvents } from './kb-categories/events.js';
import { KbCategoriesRepository } from './kb-categories/repository.js';
import { kbCategoryRoutes } from './kb-categories/routes.js';
import { KbCategory } from './kb-categories/schemas.js';
import { KbCategoriesService } from './kb-categories/service.js';
import { kbArticleDocumentEvents, kbArticleImageEvents } from './kb-media/events.js';
import { KbMediaRepository } from './kb-media/repository.js';
import { kbMediaRoutes } from './kb-media/routes.js';
import { KbArticleImage } from './kb-media/schemas.js';
import { KbMediaService } from './kb-media/service.js';

/** The knowledge portal: categories and articles (with tags, versions and employee perimeters), and their media. */
export function createKnowledge(ctx: HrContext) {
  const { paginator } = ctx;
  const services = {
    kbCategories: new KbCategoriesService(
      unitOfWork(ctx, (db) => ({ kbCategories: new KbCategoriesRepository(db) })),
      ctx.clock,
    ),
    kbArticles: new KbArticlesService(
      unitOfWork(ctx, (db) => ({ kbArticles: new KbArticlesRepository(db, ctx.database.dialect) })),
      ctx.clock,
    ),
    kbMedia: new KbMediaService(
      unitOfWork(ctx, (db) => ({ kbMedia: new KbMediaRepository(db) })),
      {
        blobs: ctx.blobs,
        clock: ctx.clock,
        uploadLimitBytes: ctx.config.uploadLimit,
      },
    ),
  };
  const s = services;
  const modules: HrModule[] = [
    {
      schemas: [KbCategory],
      routes: (app) => kbCategoryRoutes(app, { kbCategories: s.kbCategories, paginator }),
      events: [kbCategoryEvents],
    },
    {
      schemas: [KbArticle, KbTag],
      routes: (app) => kbArticleRoutes(app, { kbArticles: s.kbArticles, paginator }),
      events: [kbArticleEvents],
    },
    {
      schemas: [KbArticleImage],
      routes: (app) => kbMediaRoutes(app, { kbMedia: s.kbMedia, blobs: ctx.blobs }),
      events: [kbArticleImageEvents, kbArticleDocumentEvents],
    },
  ];
  return { services, modules } satisfies HrArea<typeof services>;
}

export type KnowledgeServices = ReturnType<typeof createKnowledge>['services'];
